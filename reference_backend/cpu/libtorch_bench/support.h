// The side-by-side benchmark's shared pieces (//reference_backend/cpu:libtorch_bench): Backplane's
// CPU kernels next to libtorch's (Debian's libtorch-dev 1.13.1), in the same process, one thread
// each. Its cases, one file per kind: unary_binary.cc (the unary ops of issue 21 on 1e6 float32
// elements, binary ops of issue 22 on 1e6 elements of the dtypes named beside them, out= variants;
// masked_fill in place), reductions.cc (issue 23's reductions, scans and softmax), products.cc
// (GPT-2 small's products, layer_norm, embedding), memory_and_fixed_costs.cc (issue 27's casts,
// broadcasts, allocating calls, contiguous() of a transpose, fixed costs of tiny calls); and
// limits.cc, the limits of this machine measured in the same run: memcpy, STREAM's triad, a
// read-only sum and glibc's vector exp (libmvec). Every case reports page faults per call
// (faults_per_call, getrusage's minor faults over the timed loop); a case held to a limit names
// it in its label. Needs libtorch (the target is tagged manual: `bazel build //...` and
// `bazel test //...` skip it).
//
//   nice -n 10 bazel build --config=ci //reference_backend/cpu:libtorch_bench
//   ATEN_CPU_CAPABILITY=avx512 bazel-bin/reference_backend/cpu/libtorch_bench
//       --benchmark_repetitions=9 --benchmark_enable_random_interleaving=true
//       --benchmark_format=json > /tmp/r.json                        (one line, normal priority)
//   python3 reference_backend/cpu/libtorch_bench_table.py /tmp/r.json   # docs/performance.md's
//   table
//
// ATEN_CPU_CAPABILITY picks libtorch's kernels (default here: avx2; avx512 is its best on this
// machine); BP_CPU_CAPABILITY picks Backplane's. An op Backplane does not declare is left out
// (its torch row stays) and appears once its `bp::<op>_out` exists.
//
// Each case file registers its benchmarks from a static initializer; the binary links
// benchmark_main. Not thread-safe (benchmarks run one at a time).
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_LIBTORCH_BENCH_SUPPORT_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_LIBTORCH_BENCH_SUPPORT_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "sdk/core/tensor.h"

namespace bp_bench {

inline constexpr int64_t kN = 1000000;
inline constexpr int64_t kSide = 4096;
inline constexpr int64_t k16M = 16000000;  // 64 MB of float32: out of every cache
inline const bp::Device kCpu(bp::DeviceType::kCPU);

// Minor page faults of this process so far (faults served without I/O: first touches of fresh
// pages, which is what a freshly mapped allocation costs).
int64_t minor_faults();

// The timed loop of every case: calls `call` once per iteration and reports the page faults per
// call as the counter faults_per_call. One untimed call first touches the pages of outputs that
// setup left untouched, so a preallocated output's first-touch faults do not count.
template <typename Call>
void measure(benchmark::State& state, Call&& call) {
  call();
  const int64_t before = minor_faults();
  for (auto _ : state) call();
  state.counters["faults_per_call"] =
      static_cast<double>(minor_faults() - before) / static_cast<double>(state.iterations());
}

// Names the limit a case is held to (a benchmark limit/<name> of this binary); the table compares
// their bytes per second, or their items per second where the case counts no bytes.
void held_to(benchmark::State& state, const char* limit);

// The same values for both libraries: [-3, 3) for most ops, [0.1, 10) for the logarithms.
float value(int64_t i, bool positive);
// kN float32 elements of value(i, positive).
bp::Tensor bp_input(bool positive);
at::Tensor torch_input(bool positive);

// Values in [-3, 3) that repeat only every 100003 elements, for tensors of any size.
float spread_value(int64_t i);
// float32 tensors of `sizes` holding spread_value(i) at flat index i.
bp::Tensor bp_values(std::vector<int64_t> sizes);
at::Tensor torch_values(std::vector<int64_t> sizes);
template <typename T>
void fill_values(T* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(spread_value(i));
}

// Registers bp/<name> and torch/<name>, each run with `args`, timed in microseconds.
template <typename Bp, typename Torch, typename... Args>
void register_side_by_side(const std::string& name, Bp bp, Torch torch, Args... args) {
  benchmark::RegisterBenchmark(("bp/" + name).c_str(), bp, args...)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("torch/" + name).c_str(), torch, args...)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace bp_bench

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_LIBTORCH_BENCH_SUPPORT_H_
