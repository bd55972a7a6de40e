// Bandwidth of the CPU loops next to memcpy and a STREAM triad measured in the same run (the triad
// is vectorised for the CPU's ISA through dispatch_cpu, like the kernels). bytes/s counts bytes
// read + written. Arguments: elements (or the side of a square), threads.
//
//   bazel run -c opt //sdk/iter:iter_bench -- --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one line)
#include <cstring>

#include "benchmark/benchmark.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/loops.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/reduce.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

Tensor filled(IntArrayRef sizes, float value) {
  Tensor t = native::empty(sizes, ScalarType::kFloat32, kCpu);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = value + static_cast<float>(i % 7);
  return t;
}

void set_bytes(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

void BM_Memcpy(benchmark::State& state) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
  Tensor a = filled({n}, 1), b = filled({n}, 2);
  const char* src = static_cast<const char*>(a.data_ptr());
  char* dst = static_cast<char*>(b.data_ptr());
  for (auto _ : state) {
    parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
      std::memcpy(dst + begin * 4, src + begin * 4, static_cast<size_t>(end - begin) * 4);
    });
    benchmark::ClobberMemory();
  }
  set_bytes(state, 2 * n * 4);
}

void BM_Triad(benchmark::State& state) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
  Tensor a = filled({n}, 0), b = filled({n}, 1), c = filled({n}, 2);
  float* pa = a.data_ptr<float>();
  const float* pb = b.data_ptr<float>();
  const float* pc = c.data_ptr<float>();
  const float s = 3;
  for (auto _ : state) {
    parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
      // Compiled for the CPU's best ISA, as the kernels are: the physical limit they are held to.
      dispatch_cpu([&](auto width) __attribute__((always_inline)) {
        using Vec = Vectorized<float, width>;
        int64_t i = begin;
        for (; i + Vec::size() <= end; i += Vec::size()) {
          (Vec::loadu(pb + i) + Vec(s) * Vec::loadu(pc + i)).store(pa + i);
        }
        for (; i < end; ++i) pa[i] = pb[i] + s * pc[i];
      });
    });
    benchmark::ClobberMemory();
  }
  set_bytes(state, 3 * n * 4);
}

void add(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  cpu_kernel_vec(
      iter, [](float x, float y) -> float { return x + y; }, [](auto x, auto y) { return x + y; });
}

void BM_AddContiguous(benchmark::State& state) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
  Tensor a = filled({n}, 1), b = filled({n}, 2), out = filled({n}, 0);
  for (auto _ : state) add(out, a, b);
  set_bytes(state, 3 * n * 4);
}

void BM_AddBroadcast(benchmark::State& state) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
  Tensor a = filled({n, n}, 1), b = filled({n}, 2), out = filled({n, n}, 0);
  for (auto _ : state) add(out, a, b);
  set_bytes(state, (2 * n * n + n) * 4);
}

void BM_TransposedCopy(benchmark::State& state) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
  Tensor src = filled({n, n}, 1), dst = filled({n, n}, 0);
  const Tensor transposed = native::t(src);
  for (auto _ : state) cast_copy(dst, transposed);
  set_bytes(state, 2 * n * n * 4);
}

void sum_bench(benchmark::State& state, int64_t dim) {
  const int64_t n = state.range(0);
  set_num_threads(static_cast<int>(state.range(1)));
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

void Sizes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) {
    for (int64_t n : {1000, 100000, 1000000, 16000000, 4096 * 4096}) b->Args({n, threads});
  }
}
void Square(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) b->Args({4096, threads});
}

BENCHMARK(BM_Memcpy)->Apply(Sizes)->UseRealTime();
BENCHMARK(BM_Triad)->Apply(Sizes)->UseRealTime();
BENCHMARK(BM_AddContiguous)->Apply(Sizes)->UseRealTime();
BENCHMARK(BM_AddBroadcast)->Apply(Square)->UseRealTime();
BENCHMARK(BM_TransposedCopy)->Apply(Square)->UseRealTime();
BENCHMARK(BM_SumDim0)->Apply(Square)->UseRealTime();
BENCHMARK(BM_SumDim1)->Apply(Square)->UseRealTime();

}  // namespace
}  // namespace bp
