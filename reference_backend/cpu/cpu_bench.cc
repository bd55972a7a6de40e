// The CPU backend's kernels through the op API, next to memcpy and a STREAM triad measured in the
// same run (sdk/iter/bandwidth_baselines.h): float32 4096 x 4096 unless named otherwise, out=
// variants (the output is allocated once), 1 and 2 threads; bytes/s counts bytes read + written.
// And the fixed cost of one call: functional bp::add on 1-element tensors against the add kernel
// run directly on a TensorIterator (no dispatcher, no meta function, no output allocation).
// And functional bp::add of 1.6e7 elements, which allocates a 64 MB output on every call, with
// its page faults per call (issue 27: the CPU allocator's cache of large blocks).
//
//   bazel run //reference_backend/cpu:cpu_bench -- --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <sys/resource.h>

#include "benchmark/benchmark.h"
#include "reference_backend/cpu/pointwise.h"
#include "reference_backend/math/math.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/bandwidth_baselines.h"
#include "sdk/ops/binary_structured.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using bench::filled;
using bench::set_bytes;
using bench::use_threads;

constexpr int64_t kSide = 4096;
constexpr int64_t kElements = kSide * kSide;

void BM_Add(benchmark::State& state) {
  use_threads(state, 1);
  Tensor a = filled({kSide, kSide}, 1), b = filled({kSide, kSide}, 2),
         out = filled({kSide, kSide}, 0);
  for (auto _ : state) add_out(out, a, b);
  set_bytes(state, 3 * kElements * 4);
}

void BM_Mul(benchmark::State& state) {
  use_threads(state, 1);
  Tensor a = filled({kSide, kSide}, 1), b = filled({kSide, kSide}, 2),
         out = filled({kSide, kSide}, 0);
  for (auto _ : state) mul_out(out, a, b);
  set_bytes(state, 3 * kElements * 4);
}

void BM_Exp(benchmark::State& state) {
  use_threads(state, 1);
  Tensor a = filled({kSide, kSide}, -3), out = filled({kSide, kSide}, 0);
  for (auto _ : state) exp_out(out, a);
  set_bytes(state, 2 * kElements * 4);
}

void BM_Sigmoid(benchmark::State& state) {
  use_threads(state, 1);
  Tensor a = filled({kSide, kSide}, -3), out = filled({kSide, kSide}, 0);
  for (auto _ : state) sigmoid_out(out, a);
  set_bytes(state, 2 * kElements * 4);
}

void BM_Where(benchmark::State& state) {
  use_threads(state, 1);
  Tensor condition = filled({kSide, kSide}, 0, ScalarType::kBool);
  Tensor a = filled({kSide, kSide}, 1), b = filled({kSide, kSide}, 2),
         out = filled({kSide, kSide}, 0);
  for (auto _ : state) where_out(out, condition, a, b);
  set_bytes(state, kElements * (1 + 3 * 4));
}

// copy_ between dtypes (a cast of contiguous tensors).
template <ScalarType kDst, ScalarType kSrc>
void BM_Copy(benchmark::State& state) {
  use_threads(state, 1);
  Tensor src = filled({kSide, kSide}, 1, kSrc);
  Tensor dst = filled({kSide, kSide}, 0, kDst);
  for (auto _ : state) dst.copy_(src);
  set_bytes(state, kElements * static_cast<int64_t>(element_size(kSrc) + element_size(kDst)));
}
void BM_CopyFloat32ToFloat16(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat16, ScalarType::kFloat32>(state);
}
void BM_CopyFloat16ToFloat32(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat32, ScalarType::kFloat16>(state);
}
void BM_CopyFloat32ToBFloat16(benchmark::State& state) {
  BM_Copy<ScalarType::kBFloat16, ScalarType::kFloat32>(state);
}
void BM_CopyBFloat16ToFloat32(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat32, ScalarType::kBFloat16>(state);
}
void BM_CopyFloat32ToFloat64(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat64, ScalarType::kFloat32>(state);
}
void BM_CopyFloat64ToFloat32(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat32, ScalarType::kFloat64>(state);
}
void BM_CopyInt32ToFloat32(benchmark::State& state) {
  BM_Copy<ScalarType::kFloat32, ScalarType::kInt32>(state);
}
void BM_CopyFloat32ToInt32(benchmark::State& state) {
  BM_Copy<ScalarType::kInt32, ScalarType::kFloat32>(state);
}

// contiguous() of a transposed matrix, into a preallocated result (copy_ of the transpose).
void BM_ContiguousOfTransposed(benchmark::State& state) {
  use_threads(state, 1);
  const Tensor transposed = native::t(filled({kSide, kSide}, 1));
  Tensor dst = filled({kSide, kSide}, 0);
  for (auto _ : state) dst.copy_(transposed);
  set_bytes(state, 2 * kElements * 4);
}

template <typename Reduce>
void reduction_bench(benchmark::State& state, int64_t dim, Reduce reduce) {
  use_threads(state, 1);
  const Tensor x = filled({kSide, kSide}, 1);
  Tensor out = filled({kSide}, 0);
  for (auto _ : state) reduce(out, x, dim);
  set_bytes(state, (kElements + kSide) * 4);
}
void sum_over(Tensor& out, const Tensor& x, int64_t dim) {
  const int64_t dims[] = {dim};
  sum_out(out, x, IntArrayRef(dims));
}
void amax_over(Tensor& out, const Tensor& x, int64_t dim) {
  const int64_t dims[] = {dim};
  amax_out(out, x, IntArrayRef(dims));
}
void BM_SumDim0(benchmark::State& state) { reduction_bench(state, 0, sum_over); }
void BM_SumDim1(benchmark::State& state) { reduction_bench(state, 1, sum_over); }
void BM_AmaxDim0(benchmark::State& state) { reduction_bench(state, 0, amax_over); }
void BM_AmaxDim1(benchmark::State& state) { reduction_bench(state, 1, amax_over); }

void Threads(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) b->Args({kElements, threads});
}

BENCHMARK(BM_Add)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_Mul)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_Exp)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_Sigmoid)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_Where)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat32ToFloat16)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat16ToFloat32)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat32ToBFloat16)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyBFloat16ToFloat32)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat32ToFloat64)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat64ToFloat32)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyInt32ToFloat32)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_CopyFloat32ToInt32)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_ContiguousOfTransposed)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_SumDim0)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_SumDim1)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_AmaxDim0)->Apply(Threads)->UseRealTime();
BENCHMARK(BM_AmaxDim1)->Apply(Threads)->UseRealTime();

// Minor page faults of the whole process so far (all threads).
int64_t minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Functional add: the output comes from the allocator on every call. Compare with BM_Triad at
// 16000000 (same bytes moved) and BM_Add (the same kernel into a preallocated output).
void BM_AddAllocating(benchmark::State& state) {
  use_threads(state, 1);
  const int64_t n = state.range(0);
  const Tensor a = filled({n}, 1), b = filled({n}, 2);
  const int64_t faults_before = minor_faults();
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  state.counters["faults_per_call"] = benchmark::Counter(
      static_cast<double>(minor_faults() - faults_before), benchmark::Counter::kAvgIterations);
  set_bytes(state, 3 * n * 4);
}
BENCHMARK(BM_AddAllocating)->Args({16000000, 1})->Args({16000000, 2})->UseRealTime();

// The fixed cost of one op call.
void BM_AddOneElementFunctional(benchmark::State& state) {
  const Tensor a = filled({1}, 1), b = filled({1}, 2);
  for (auto _ : state) {
    Tensor c = add(a, b);
    benchmark::DoNotOptimize(c.impl());
  }
}
void BM_AddOneElementKernelOnly(benchmark::State& state) {
  const Tensor a = filled({1}, 1), b = filled({1}, 2), out = filled({1}, 0);
  const Scalar alpha = 1;
  for (auto _ : state) {
    TensorIterator iter;
    iter.build_borrowing_binary_op(out, a, b);
    cpu::pointwise<math::Add, structured_add_out::kDtypes>(iter, "add", alpha);
    benchmark::DoNotOptimize(out.impl());
  }
}
BENCHMARK(BM_AddOneElementFunctional);
BENCHMARK(BM_AddOneElementKernelOnly);

}  // namespace
}  // namespace bp
