#include "sdk/dispatch/dispatcher.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"

namespace bp {
namespace {

using ::testing::HasSubstr;
using Sig = int64_t(const Tensor&, int64_t);

// Each kernel adds its own offset so a test can tell which one ran.
int64_t cpu_kernel(DispatchKeySet, const Tensor& self, int64_t x) { return self.numel() + x; }
int64_t plugin_kernel(DispatchKeySet, const Tensor&, int64_t x) { return 1000 + x; }
int64_t common_kernel(DispatchKeySet, const Tensor&, int64_t x) { return 2000 + x; }
int64_t meta_kernel(DispatchKeySet, const Tensor&, int64_t x) { return 3000 + x; }

int64_t tracing_kernel(DispatchKeySet, const Tensor&, int64_t x) { return 10000 + x; }

// A wrapper kernel: adds 10000 to what the keys below Tracing return.
struct Wrapper {
  static int64_t kernel(DispatchKeySet keys, const Tensor& self, int64_t x) {
    EXPECT_TRUE(keys.has(DispatchKey::kTracing));
    return 10000 +
           op->redispatch<Sig>(keys & DispatchKeySet::below(DispatchKey::kTracing), self, x);
  }
  static inline const OperatorHandle* op = nullptr;
};

// A boxed kernel: reads (Tensor, int) and pushes numel * 100 + x.
void boxed_kernel(void* user_data, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  auto* calls = static_cast<int*>(user_data);
  ++*calls;
  int64_t x = stack->back().to<int64_t>();
  int64_t numel = (*stack)[stack->size() - 2].ref<Tensor>().numel();
  stack->resize(stack->size() - 2);
  stack->emplace_back(numel * 100 + x);
}

// Every test gets its own dispatcher and a plugin device.
class DispatcherTest : public ::testing::Test {
 protected:
  Dispatcher d;
  FakeDevice dev{"dispatcher_test_dev"};
  Library lib{"dt", d};

  void SetUp() override { lib.def("probe(Tensor self, int x) -> int"); }
  TypedOperatorHandle<Sig> probe() { return d.find_op_or_throw("dt::probe").typed<Sig>(); }
  KernelFunction k(int64_t (*fn)(DispatchKeySet, const Tensor&, int64_t)) {
    return KernelFunction::make_from_unboxed(fn);
  }
};

TEST_F(DispatcherTest, CallsTheKernelOfTheTensorsDevice) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel)).impl("probe", dev.key(), k(&plugin_kernel));
  EXPECT_EQ(probe().call(cpu_tensor({2, 3}), 1), 7);
  EXPECT_EQ(probe().call(dev.empty({2, 3}, ScalarType::kFloat32), 1), 1001);
  EXPECT_EQ((d.find_op_or_throw("dt::probe").call<Sig>(cpu_tensor({4}), 2)), 6);
}

TEST_F(DispatcherTest, HigherPriorityKeyWins) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel))
      .impl("probe", dev.key(), k(&plugin_kernel))
      .impl("probe", DispatchKey::kCommon, k(&common_kernel));
  Tensor t = dev.empty({1}, ScalarType::kFloat32);
  EXPECT_EQ(probe().call(t, 0), 2000);  // Common > plugin key
  {
    IncludeDispatchKeyGuard tracing(DispatchKey::kTracing);  // no Tracing kernel: fallthrough
    EXPECT_EQ(probe().call(t, 0), 2000);
  }
  lib.impl("probe", DispatchKey::kTracing, k(&tracing_kernel));
  EXPECT_EQ(probe().call(t, 0), 2000);  // Tracing is not in the call's keys
  IncludeDispatchKeyGuard tracing(DispatchKey::kTracing);
  EXPECT_EQ(probe().call(t, 0), 10000);
}

TEST_F(DispatcherTest, CommonIsSkippedByDefaultForPluginTensors) {
  lib.impl("probe", dev.key(), k(&plugin_kernel));
  EXPECT_EQ(probe().call(dev.empty({1}, ScalarType::kFloat32), 5), 1005);
}

TEST_F(DispatcherTest, FallthroughKernelSkipsToTheNextKey) {
  lib.impl("probe", dev.key(), k(&plugin_kernel))
      .impl("probe", DispatchKey::kCommon, k(&common_kernel));
  Tensor t = dev.empty({1}, ScalarType::kFloat32);
  EXPECT_EQ(probe().call(t, 0), 2000);
  {
    Library more("dt", d);
    more.impl("probe", DispatchKey::kCommon, KernelFunction::make_fallthrough());
    EXPECT_EQ(probe().call(t, 0), 1000);
  }
  EXPECT_EQ(probe().call(t, 0), 2000);  // the fallthrough's handle is gone
}

TEST_F(DispatcherTest, BackendFallbackServesOpsWithoutAKernel) {
  int calls = 0;
  Tensor t = dev.empty({2, 2}, ScalarType::kFloat32);
  Library fallbacks("_", d);
  fallbacks.fallback(dev.key(), KernelFunction::make_from_boxed(&boxed_kernel, &calls), "boxed");
  EXPECT_EQ(probe().call(t, 3), 403);
  EXPECT_EQ(calls, 1);
  lib.impl("probe", dev.key(), k(&plugin_kernel));  // a kernel beats the fallback
  EXPECT_EQ(probe().call(t, 3), 1003);
  EXPECT_EQ(calls, 1);
}

TEST_F(DispatcherTest, CompositeKernelsServeBackendKeysWithoutTheirOwnKernel) {
  Tensor plugin = dev.empty({2, 2}, ScalarType::kFloat32);
  Tensor cpu = cpu_tensor({3});
  Library fallbacks("_", d);
  int calls = 0;
  fallbacks.fallback(dev.key(), KernelFunction::make_from_boxed(&boxed_kernel, &calls), "boxed");
  lib.impl("probe", DispatchKey::kCompositeImplicit, k(&meta_kernel), "implicit");
  // Implicit beats the backend fallback on every backend key.
  EXPECT_EQ(probe().call(plugin, 1), 3001);
  EXPECT_EQ(probe().call(cpu, 1), 3001);
  EXPECT_EQ(calls, 0);
  // Explicit beats Implicit; a backend's own kernel beats both.
  lib.impl("probe", DispatchKey::kCompositeExplicit, k(&common_kernel), "explicit");
  EXPECT_EQ(probe().call(plugin, 1), 2001);
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  EXPECT_EQ(probe().call(cpu, 1), 4);
  EXPECT_EQ(probe().call(plugin, 1), 2001);
  // Only the CPU kernel is the op's own; Common is not served by alias keys.
  EXPECT_TRUE(probe().has_own_kernel(DispatchKey::kCPU));
  EXPECT_FALSE(probe().has_own_kernel(dev.key()));
  EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
              HasSubstr("('dispatcher_test_dev'): CompositeExplicit kernel [explicit]\n"));
  EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
              HasSubstr("Common: fallthrough backend fallback [default fallthrough]\n"));
}

TEST_F(DispatcherTest, AliasKeysTakeNoFallbacks) {
  Library fallbacks("_", d);
  EXPECT_THROW(fallbacks.fallback(DispatchKey::kCompositeExplicit,
                                  KernelFunction::make_from_boxed(&boxed_kernel, nullptr)),
               Error);
}

TEST_F(DispatcherTest, RedispatchPassesTheCallBelowTheWrapperKey) {
  OperatorHandle probe_op = d.find_op_or_throw("dt::probe");
  Wrapper::op = &probe_op;
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel))
      .impl("probe", DispatchKey::kTracing, k(&Wrapper::kernel));
  IncludeDispatchKeyGuard tracing(DispatchKey::kTracing);
  EXPECT_EQ(probe().call(cpu_tensor({5}), 1), 10006);
}

TEST_F(DispatcherTest, DestroyedHandleUnregistersAndRestoresThePreviousKernel) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  Tensor t = cpu_tensor({3});
  {
    Library override_lib("dt", d);
    override_lib.impl("probe", DispatchKey::kCPU, k(&meta_kernel));
    EXPECT_EQ(probe().call(t, 0), 3000);
  }
  EXPECT_EQ(probe().call(t, 0), 3);
  RegistrationHandle h = d.register_impl("dt::probe", dev.key(), k(&plugin_kernel), "plugin");
  EXPECT_EQ(probe().call(dev.empty({1}, ScalarType::kFloat32), 0), 1000);
  h.reset();
  EXPECT_THROW(probe().call(dev.empty({1}, ScalarType::kFloat32), 0), Error);
}

TEST_F(DispatcherTest, OpIsForgottenWhenItsDefAndKernelsAreGone) {
  {
    Library tmp("tmp", d);
    tmp.def("gone(Tensor self, int x) -> int").impl("gone", DispatchKey::kCPU, k(&cpu_kernel));
    EXPECT_TRUE(d.find_op("tmp::gone").has_value());
  }
  EXPECT_FALSE(d.find_op("tmp::gone").has_value());
  EXPECT_THAT([&] { d.find_op_or_throw("tmp::gone"); },
              ::testing::ThrowsMessage<Error>("operator 'tmp::gone' is not defined"));
}

TEST_F(DispatcherTest, MissingKernelErrorNamesOpKeyBackendAndAvailableKeys) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel))
      .impl("probe", DispatchKey::kMeta, k(&meta_kernel));
  try {
    probe().call(dev.empty({1}, ScalarType::kFloat32), 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
    EXPECT_EQ(e.message(), std::string("Could not run 'dt::probe' with arguments from the '") +
                               std::string(dispatch_key_name(dev.key())) +
                               "' backend ('dispatcher_test_dev'). 'dt::probe' is only available "
                               "for these backends: [CPU, Meta].");
  }
}

// Plugin keys are numbers without a pool: a backend with key number 40 dispatches like any other,
// to its own kernel, its fallback (one table shared by every op), or an alias kernel.
TEST_F(DispatcherTest, PluginKeysPastTheOldPoolOfSixteenDispatchLikeAnyOther) {
  std::vector<std::unique_ptr<FakeDevice>> devices;
  for (int i = 0; i < 40; ++i) {
    devices.push_back(std::make_unique<FakeDevice>("dispatcher_many_" + std::to_string(i)));
  }
  const FakeDevice& last = *devices.back();
  EXPECT_GE(static_cast<uint32_t>(last.key()), kFirstPluginBackendKey + 40);
  Tensor t = last.empty({2, 2}, ScalarType::kFloat32);
  int calls = 0;
  Library fallbacks("_", d);
  fallbacks.fallback(last.key(), KernelFunction::make_from_boxed(&boxed_kernel, &calls), "boxed");
  EXPECT_EQ(probe().call(t, 3), 403);
  EXPECT_EQ(calls, 1);
  EXPECT_THROW(probe().call(devices[0]->empty({1}, ScalarType::kFloat32), 0), Error);
  lib.impl("probe", last.key(), k(&plugin_kernel));
  EXPECT_EQ(probe().call(t, 3), 1003);
  EXPECT_TRUE(probe().has_own_kernel(last.key()));
  EXPECT_FALSE(probe().has_own_kernel(devices[0]->key()));
  lib.impl("probe", DispatchKey::kCompositeExplicit, k(&common_kernel), "explicit");
  EXPECT_EQ(probe().call(devices[0]->empty({1}, ScalarType::kFloat32), 1), 2001);
  EXPECT_EQ(probe().call(t, 3), 1003);
  EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
              HasSubstr(dispatch_key_name(last.key()) + " ('" + last.name() +
                        "'): kernel [sdk/dispatch/dispatcher_test.cc:"));
}

// A wrapper key nothing is registered under is skipped; with a fallback it wraps every op.
TEST_F(DispatcherTest, WrapperKeysAreSkippedUntilSomethingIsRegisteredUnderThem) {
  const DispatchKey wrapper = register_wrapper_key("dispatcher_test_wrapper");
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  Tensor t = cpu_tensor({3});
  {
    IncludeDispatchKeyGuard on(wrapper);
    EXPECT_EQ(probe().call(t, 1), 4);
    EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
                HasSubstr(dispatch_key_name(wrapper) +
                          " ('dispatcher_test_wrapper'): fallthrough (nothing registered)\n"));
    static DispatchKey key;  // read by the captureless kernel below
    key = wrapper;
    Library wrap("_", d);
    wrap.fallback(wrapper,
                  KernelFunction::make_from_boxed(
                      [](void*, const OperatorHandle& o, DispatchKeySet keys, Stack* stack) {
                        o.redispatch_boxed(keys & DispatchKeySet::below(key), stack);
                        stack->back() = Value(stack->back().to<int64_t>() + 50000);
                      }),
                  "wrapping");
    EXPECT_EQ(probe().call(t, 1), 50004);
    lib.impl("probe", wrapper, KernelFunction::make_fallthrough());  // not for this op
    EXPECT_EQ(probe().call(t, 1), 4);
  }
  unregister_wrapper_key(wrapper);
}

TEST_F(DispatcherTest, KernelExceptionsPropagateUnchanged) {
  struct Throwing {
    static int64_t kernel(DispatchKeySet, const Tensor&, int64_t) {
      throw Error(ErrorCode::kIndexError, "Dimension out of range");
    }
  };
  lib.impl("probe", DispatchKey::kCPU, k(&Throwing::kernel));
  try {
    probe().call(cpu_tensor({1}), 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIndexError);
    EXPECT_EQ(e.message(), "Dimension out of range");
  }
}

TEST_F(DispatcherTest, BoxedKernelServesAnUnboxedCall) {
  int calls = 0;
  lib.impl("probe", DispatchKey::kCPU, KernelFunction::make_from_boxed(&boxed_kernel, &calls));
  EXPECT_EQ(probe().call(cpu_tensor({2, 5}), 7), 1007);
  EXPECT_EQ(calls, 1);
}

TEST_F(DispatcherTest, UnboxedKernelServesABoxedCall) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  Stack stack{Value(cpu_tensor({2, 2})), Value(int64_t{10})};
  d.find_op_or_throw("dt::probe").call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].to<int64_t>(), 14);
}

TEST_F(DispatcherTest, BoxedCallWithWrongArgumentTypeIsATypeError) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  Stack stack{Value(cpu_tensor({2})), Value(1.5)};
  try {
    d.find_op_or_throw("dt::probe").call_boxed(&stack);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeError);
    EXPECT_EQ(e.message(), "expected a value of type int but got float");
  }
}

// out= ops return their Tensor& argument; a boxed kernel serving them must hand back the
// caller's own tensor.
TEST_F(DispatcherTest, BoxedKernelServesAnOutVariantReturningTensorRef) {
  lib.def("fill.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  struct Boxed {
    static void kernel(void*, const OperatorHandle&, DispatchKeySet, Stack* stack) {
      Tensor out = stack->back().ref<Tensor>();
      float* data = out.data_ptr<float>();
      for (int64_t i = 0; i < out.numel(); ++i) data[i] = 4.0f;
      stack->resize(stack->size() - 2);
      stack->emplace_back(out);
    }
  };
  lib.impl("fill.out", DispatchKey::kCPU, KernelFunction::make_from_boxed(&Boxed::kernel));
  Tensor self = cpu_tensor({3});
  Tensor out = cpu_tensor({3});
  Tensor& result =
      d.find_op_or_throw("dt::fill.out").call<Tensor&(const Tensor&, Tensor&)>(self, out);
  EXPECT_EQ(&result, &out);
  EXPECT_EQ(out.data_ptr<float>()[2], 4.0f);
}

// Multi-output out= ops (max.dim_max) return a tuple of references to their out arguments.
TEST_F(DispatcherTest, BoxedKernelServesAnOutVariantReturningSeveralTensorRefs) {
  lib.def(
      "pair.out(Tensor self, str mode, *, Tensor(a!) a, Tensor(b!) b) -> (Tensor(a!), "
      "Tensor(b!))");
  struct Boxed {
    static void kernel(void*, const OperatorHandle&, DispatchKeySet, Stack* stack) {
      Tensor a = (*stack)[stack->size() - 2].ref<Tensor>();
      Tensor b = stack->back().ref<Tensor>();
      EXPECT_EQ((*stack)[stack->size() - 3].to<std::string_view>(), "floor");
      stack->resize(stack->size() - 4);
      stack->emplace_back(a);
      stack->emplace_back(b);
    }
  };
  lib.impl("pair.out", DispatchKey::kCPU, KernelFunction::make_from_boxed(&Boxed::kernel));
  Tensor self = cpu_tensor({3}), a = cpu_tensor({3}), b = cpu_tensor({3});
  using PairSig = std::tuple<Tensor&, Tensor&>(const Tensor&, std::string_view, Tensor&, Tensor&);
  auto [ra, rb] = d.find_op_or_throw("dt::pair.out").call<PairSig>(self, "floor", a, b);
  EXPECT_EQ(&ra, &a);
  EXPECT_EQ(&rb, &b);
}

TEST_F(DispatcherTest, UnboxedKernelWithTupleReturnServesBoxedCall) {
  lib.def("split2(Tensor self) -> (Tensor a, Tensor b)");
  struct Split {
    static std::tuple<Tensor, Tensor> kernel(DispatchKeySet, const Tensor& self) {
      return {self, self};
    }
  };
  lib.impl("split2", DispatchKey::kCPU, KernelFunction::make_from_unboxed(&Split::kernel));
  Tensor t = cpu_tensor({2});
  Stack stack{Value(t)};
  d.find_op_or_throw("dt::split2").call_boxed(&stack);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_TRUE(stack[0].ref<Tensor>().is_same(t));
  EXPECT_TRUE(stack[1].ref<Tensor>().is_same(t));
}

TEST_F(DispatcherTest, FactoryOpsDispatchOnTheirDeviceArgument) {
  lib.def("make(int[] size, *, Device? device=None) -> int");
  struct Make {
    static int64_t cpu(DispatchKeySet, IntArrayRef size, std::optional<Device>) {
      return static_cast<int64_t>(size.size());
    }
    static int64_t plugin(DispatchKeySet, IntArrayRef, std::optional<Device>) { return -1; }
  };
  lib.impl("make", DispatchKey::kCPU, KernelFunction::make_from_unboxed(&Make::cpu))
      .impl("make", dev.key(), KernelFunction::make_from_unboxed(&Make::plugin));
  auto make = d.find_op_or_throw("dt::make").typed<int64_t(IntArrayRef, std::optional<Device>)>();
  std::vector<int64_t> size{2, 3};
  EXPECT_EQ(make.call(size, Device(DeviceType::kCPU)), 2);
  EXPECT_EQ(make.call(size, dev.device()), -1);
}

TEST_F(DispatcherTest, DefiningTwiceAndImplForUndefinedOpAreErrors) {
  EXPECT_THAT([&] { lib.def("probe(Tensor self, int x) -> int"); },
              ::testing::ThrowsMessage<Error>("operator 'dt::probe' is already defined"));
  EXPECT_THAT([&] { lib.impl("nope", DispatchKey::kCPU, k(&cpu_kernel)); },
              ::testing::ThrowsMessage<Error>("cannot register a CPU kernel for operator "
                                              "'dt::nope': it is not defined (def it first)"));
}

TEST_F(DispatcherTest, UnboxedKernelWithWrongArityIsRejected) {
  struct Wrong {
    static int64_t kernel(DispatchKeySet, const Tensor&) { return 0; }
  };
  EXPECT_THAT(
      [&] {
        lib.impl("probe", DispatchKey::kCPU, KernelFunction::make_from_unboxed(&Wrong::kernel));
      },
      ::testing::ThrowsMessage<Error>(
          "the CPU kernel for 'dt::probe' takes 1 arguments (after DispatchKeySet) but the "
          "schema has 2: dt::probe(Tensor self, int x) -> int"));
}

TEST_F(DispatcherTest, DumpsTheDispatchTableWithReasons) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel), "cpu_kernel")
      .impl("probe", DispatchKey::kMeta, KernelFunction::make_fallthrough(), "meta_skip");
  std::string dump = d.dump_dispatch_table(d.find_op_or_throw("dt::probe"));
  EXPECT_THAT(dump, HasSubstr("dt::probe(Tensor self, int x) -> int\n"));
  EXPECT_THAT(dump, HasSubstr("Tracing: fallthrough backend fallback [default fallthrough]\n"));
  EXPECT_THAT(dump, HasSubstr("Common: fallthrough backend fallback [default fallthrough]\n"));
  EXPECT_THAT(dump, HasSubstr(std::string(dispatch_key_name(dev.key())) +
                              " ('dispatcher_test_dev'): missing\n"));
  EXPECT_THAT(dump, HasSubstr("Meta: fallthrough [meta_skip]\n"));
  EXPECT_THAT(dump, HasSubstr("CUDA: missing\n"));
  EXPECT_THAT(dump, HasSubstr("CPU: kernel [cpu_kernel]\n"));
  Library fb("_", d);
  fb.fallback(dev.key(), KernelFunction::make_from_boxed(&boxed_kernel, nullptr), "my_fallback");
  EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
              HasSubstr("('dispatcher_test_dev'): backend fallback [my_fallback]\n"));
}

TEST_F(DispatcherTest, DebugNameDefaultsToRegistrationSite) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  EXPECT_THAT(d.dump_dispatch_table("dt::probe"),
              HasSubstr("CPU: kernel [sdk/dispatch/dispatcher_test.cc:"));
}

TEST_F(DispatcherTest, ListsOpsWithTheirKernelKeys) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel))
      .impl("probe", DispatchKey::kMeta, k(&meta_kernel));
  lib.def("other(Tensor self) -> Tensor");
  std::vector<OpSummary> ops = d.list_ops();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].name, "dt::other");
  EXPECT_TRUE(ops[0].kernels.empty());
  EXPECT_EQ(ops[1].name, "dt::probe");
  EXPECT_EQ(ops[1].kernels, (std::vector<DispatchKey>{DispatchKey::kCPU, DispatchKey::kMeta}));
  EXPECT_TRUE(ops[1].has_kernel(DispatchKey::kMeta));
  EXPECT_FALSE(ops[1].has_kernel(DispatchKey::kCUDA));
}

// Calls on several threads while another thread registers and unregisters kernels and fallbacks.
// Every call must see either the CPU kernel or the override, never a torn table.
TEST_F(DispatcherTest, CallsRaceWithRegistrationSafely) {
  lib.impl("probe", DispatchKey::kCPU, k(&cpu_kernel));
  std::atomic<bool> stop{false};
  std::atomic<int64_t> bad{0};
  std::vector<std::thread> callers;
  Tensor t = cpu_tensor({2});
  for (int i = 0; i < 4; ++i) {
    callers.emplace_back([&] {
      auto op = probe();
      while (!stop.load()) {
        int64_t r = op.call(t, 0);
        if (r != 2 && r != 3000 && r != 10000) bad.fetch_add(1);
        Stack stack{Value(t), Value(int64_t{0})};
        op.call_boxed(&stack);
        int64_t b = stack[0].to<int64_t>();
        if (b != 2 && b != 3000 && b != 10000) bad.fetch_add(1);
      }
    });
  }
  for (int i = 0; i < 300; ++i) {
    Library churn("dt", d);
    churn.impl("probe", DispatchKey::kCPU, k(&meta_kernel));
    churn.fallback(DispatchKey::kTracing, KernelFunction::make_fallthrough());
    Library other("_", d);
    other.fallback(dev.key(), KernelFunction::make_fallthrough());
  }
  stop.store(true);
  for (auto& th : callers) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(probe().call(t, 0), 2);
}

}  // namespace
}  // namespace bp
