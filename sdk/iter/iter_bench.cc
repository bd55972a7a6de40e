// Bandwidth of the CPU loops next to memcpy and a STREAM triad measured in the same run
// (bandwidth_baselines.h). bytes/s counts bytes read + written. Arguments: elements (or the side
// of a square), threads.
//
//   bazel run -c opt //sdk/iter:iter_bench -- --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one line)
#include "benchmark/benchmark.h"
#include "sdk/core/views.h"
#include "sdk/iter/bandwidth_baselines.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/loops.h"
#include "sdk/iter/reduce.h"

namespace bp {
namespace {

using bench::filled;
using bench::set_bytes;
using bench::use_threads;

void add(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  cpu_kernel_vec(
      iter, [](float x, float y) -> float { return x + y; }, [](auto x, auto y) { return x + y; });
}

void BM_AddContiguous(benchmark::State& state) {
  const int64_t n = state.range(0);
  use_threads(state, 1);
  Tensor a = filled({n}, 1), b = filled({n}, 2), out = filled({n}, 0);
  for (auto _ : state) add(out, a, b);
  set_bytes(state, 3 * n * 4);
}

void BM_AddBroadcast(benchmark::State& state) {
  const int64_t n = state.range(0);
  use_threads(state, 1);
  Tensor a = filled({n, n}, 1), b = filled({n}, 2), out = filled({n, n}, 0);
  for (auto _ : state) add(out, a, b);
  set_bytes(state, (2 * n * n + n) * 4);
}

void BM_TransposedCopy(benchmark::State& state) {
  const int64_t n = state.range(0);
  use_threads(state, 1);
  Tensor src = filled({n, n}, 1), dst = filled({n, n}, 0);
  const Tensor transposed = native::t(src);
  for (auto _ : state) cast_copy(dst, transposed);
  set_bytes(state, 2 * n * n * 4);
}

void sum_bench(benchmark::State& state, int64_t dim) {
  const int64_t n = state.range(0);
  use_threads(state, 1);
  Tensor x = filled({n, n}, 1);
  for (auto _ : state) {
    Tensor result;
    TensorIterator iter =
        make_reduction("sum", result, x, {dim}, false, ScalarType::kFloat32, ScalarType::kFloat32);
    binary_kernel_reduce_vec(
        iter, [](float p, float q) -> float { return p + q; }, [](auto p, auto q) { return p + q; },
        0.0f);
  }
  set_bytes(state, (n * n + n) * 4);
}
void BM_SumDim0(benchmark::State& state) { sum_bench(state, 0); }
void BM_SumDim1(benchmark::State& state) { sum_bench(state, 1); }

BENCHMARK(BM_AddContiguous)->Apply(bench::baseline_sizes)->UseRealTime();
BENCHMARK(BM_AddBroadcast)->Apply(bench::square_4096)->UseRealTime();
BENCHMARK(BM_TransposedCopy)->Apply(bench::square_4096)->UseRealTime();
BENCHMARK(BM_SumDim0)->Apply(bench::square_4096)->UseRealTime();
BENCHMARK(BM_SumDim1)->Apply(bench::square_4096)->UseRealTime();

}  // namespace
}  // namespace bp
