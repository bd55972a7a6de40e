// The physical limits CPU benchmarks are reported against, registered in every benchmark binary
// that links :bandwidth_baselines: BM_Memcpy (a plain copy) and BM_Triad (STREAM's a = b + s * c,
// vectorised for the CPU's ISA through dispatch_cpu as the kernels are), over float32 buffers of
// kBaselineSizes elements on 1 and 2 threads (arguments: elements, threads). Both count bytes
// read + written, as the kernels' benchmarks must.
//
// Thread safety: benchmark setup only (single-threaded).
#ifndef BACKPLANE_SDK_ITER_BANDWIDTH_BASELINES_H_
#define BACKPLANE_SDK_ITER_BANDWIDTH_BASELINES_H_

#include <cstdint>
#include <initializer_list>

#include "benchmark/benchmark.h"
#include "sdk/core/tensor.h"

namespace bp::bench {

// Element counts of the baselines: a kernel's benchmark at one of these sizes has its limit in
// the same run. 4096 * 4096 is the square matrices' size.
inline constexpr std::initializer_list<int64_t> kBaselineSizes = {1000, 100000, 1000000, 16000000,
                                                                  4096 * 4096};

// A contiguous CPU tensor of `dtype` filled with small values (value + i % 7, converted).
Tensor filled(IntArrayRef sizes, float value, ScalarType dtype = ScalarType::kFloat32);

// Records `bytes_per_iteration` bytes moved per iteration (bytes/s in the report).
void set_bytes(benchmark::State& state, int64_t bytes_per_iteration);

// Sets the thread count from the benchmark's argument `index` (so each run starts the same way).
void use_threads(benchmark::State& state, int index);

// Benchmark arguments: every baseline size on 1 and 2 threads; the 4096 x 4096 square alone.
void baseline_sizes(benchmark::internal::Benchmark* b);
void square_4096(benchmark::internal::Benchmark* b);

}  // namespace bp::bench

#endif  // BACKPLANE_SDK_ITER_BANDWIDTH_BASELINES_H_
