#include "sdk/iter/bandwidth_baselines.h"

#include <cstring>

#include "sdk/core/empty.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::bench {

Tensor filled(IntArrayRef sizes, float value, ScalarType dtype) {
  Tensor t = native::empty(sizes, ScalarType::kFloat32, Device(DeviceType::kCPU));
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = value + static_cast<float>(i % 7);
  if (dtype == ScalarType::kFloat32) return t;
  Tensor converted = native::empty(sizes, dtype, Device(DeviceType::kCPU));
  cast_copy(converted, t);
  return converted;
}

void set_bytes(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

void use_threads(benchmark::State& state, int index) {
  set_num_threads(static_cast<int>(state.range(index)));
}

void baseline_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) {
    for (int64_t n : kBaselineSizes) b->Args({n, threads});
  }
}

void square_4096(benchmark::internal::Benchmark* b) {
  for (int64_t threads : {1, 2}) b->Args({4096, threads});
}

namespace {

void BM_Memcpy(benchmark::State& state) {
  const int64_t n = state.range(0);
  use_threads(state, 1);
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
  use_threads(state, 1);
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

BENCHMARK(BM_Memcpy)->Apply(baseline_sizes)->UseRealTime();
BENCHMARK(BM_Triad)->Apply(baseline_sizes)->UseRealTime();

}  // namespace
}  // namespace bp::bench
