// The dispatcher's own cost per call: a trivial kernel (Tensor const& -> int64) called directly,
// through the dispatcher unboxed, boxed, and with a boxed kernel serving an unboxed call.
//
//   bazel run -c opt //sdk/dispatch:dispatcher_bench
#include <vector>

#include "benchmark/benchmark.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"

namespace bp {
namespace {

__attribute__((noinline)) int64_t trivial_kernel(DispatchKeySet, const Tensor& self) {
  return self.dim();
}

void trivial_boxed(void*, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  int64_t d = stack->back().ref<Tensor>().dim();
  stack->back() = Value(d);
}

struct Ops {
  Library lib{"bench"};
  TypedOperatorHandle<int64_t(const Tensor&)> unboxed;
  TypedOperatorHandle<int64_t(const Tensor&)> boxed;
  Ops() : unboxed(nullptr), boxed(nullptr) {
    lib.def("trivial(Tensor self) -> int")
        .impl("trivial", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&trivial_kernel>())
        .def("trivial_boxed(Tensor self) -> int")
        .impl("trivial_boxed", DispatchKey::kCPU, KernelFunction::make_from_boxed(&trivial_boxed));
    unboxed =
        Dispatcher::singleton().find_op_or_throw("bench::trivial").typed<int64_t(const Tensor&)>();
    boxed = Dispatcher::singleton()
                .find_op_or_throw("bench::trivial_boxed")
                .typed<int64_t(const Tensor&)>();
  }
};

Ops& ops() {
  static Ops* o = new Ops();
  return *o;
}

void BM_DirectCall(benchmark::State& state) {
  Tensor t = cpu_tensor({2, 3});
  int64_t (*volatile fn)(DispatchKeySet, const Tensor&) = &trivial_kernel;
  for (auto _ : state) benchmark::DoNotOptimize(fn(DispatchKeySet(DispatchKey::kCPU), t));
}
BENCHMARK(BM_DirectCall);

void BM_DispatchedUnboxedCall(benchmark::State& state) {
  Tensor t = cpu_tensor({2, 3});
  auto op = ops().unboxed;
  for (auto _ : state) benchmark::DoNotOptimize(op.call(t));
}
BENCHMARK(BM_DispatchedUnboxedCall);

void BM_DispatchedBoxedCall(benchmark::State& state) {
  Tensor t = cpu_tensor({2, 3});
  OperatorHandle op = ops().unboxed;
  Stack stack;
  stack.reserve(4);
  for (auto _ : state) {
    stack.emplace_back(t);
    op.call_boxed(&stack);
    benchmark::DoNotOptimize(stack.back());
    stack.clear();
  }
}
BENCHMARK(BM_DispatchedBoxedCall);

void BM_BoxedKernelServingUnboxedCall(benchmark::State& state) {
  Tensor t = cpu_tensor({2, 3});
  auto op = ops().boxed;
  for (auto _ : state) benchmark::DoNotOptimize(op.call(t));
}
BENCHMARK(BM_BoxedKernelServingUnboxedCall);

}  // namespace
}  // namespace bp
