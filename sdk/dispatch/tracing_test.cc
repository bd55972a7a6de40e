#include "sdk/dispatch/tracing.h"

#include <vector>

#include "gtest/gtest.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"

namespace bp {
namespace {

int calls = 0;

int64_t count_cpu(DispatchKeySet keys, const Tensor& self, const Tensor& other) {
  ++calls;
  EXPECT_FALSE(keys.has(DispatchKey::kTracing));  // the wrapper passed the call on below itself
  return self.numel() + other.numel();
}

TEST(Tracing, RecordsOpShapesAndDtypesAndRedispatches) {
  Library lib("tracing_test");
  lib.def("count(Tensor self, Tensor other) -> int")
      .impl("count", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&count_cpu>());
  auto op = Dispatcher::singleton()
                .find_op_or_throw("tracing_test::count")
                .typed<int64_t(const Tensor&, const Tensor&)>();
  Tensor a = cpu_tensor({2, 3});
  Tensor b = cpu_tensor({4}, ScalarType::kInt64);

  take_trace();
  EXPECT_EQ(op.call(a, b), 10);  // off: nothing recorded
  set_tracing_enabled(true);
  EXPECT_TRUE(tracing_enabled());
  EXPECT_EQ(op.call(a, b), 10);
  set_tracing_enabled(false);
  EXPECT_FALSE(tracing_enabled());
  EXPECT_EQ(op.call(a, b), 10);
  EXPECT_EQ(calls, 3);

  std::vector<TraceEvent> trace = take_trace();
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_EQ(trace[0].op, "tracing_test::count");
  ASSERT_EQ(trace[0].tensors.size(), 2u);
  EXPECT_EQ(trace[0].tensors[0].sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(trace[0].tensors[0].dtype, ScalarType::kFloat32);
  EXPECT_EQ(trace[0].tensors[1].sizes, (std::vector<int64_t>{4}));
  EXPECT_EQ(trace[0].tensors[1].dtype, ScalarType::kInt64);
  EXPECT_GE(trace[0].elapsed_ns, 0);
  std::string text = to_string(trace[0]);
  EXPECT_EQ(text.substr(0, text.find(')') + 1),
            "tracing_test::count(float32[2, 3] cpu, int64[4] cpu)");
  EXPECT_TRUE(take_trace().empty());
}

TEST(Tracing, ExcludeGuardTurnsTracingOffForOneThread) {
  Library lib("tracing_test2");
  lib.def("count(Tensor self, Tensor other) -> int")
      .impl("count", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&count_cpu>());
  auto op = Dispatcher::singleton()
                .find_op_or_throw("tracing_test2::count")
                .typed<int64_t(const Tensor&, const Tensor&)>();
  take_trace();
  set_tracing_enabled(true);
  {
    ExcludeDispatchKeyGuard off(DispatchKey::kTracing);
    op.call(cpu_tensor({1}), cpu_tensor({1}));
  }
  op.call(cpu_tensor({1}), cpu_tensor({1}));
  set_tracing_enabled(false);
  EXPECT_EQ(take_trace().size(), 1u);
}

}  // namespace
}  // namespace bp
