// Backplane's CPU kernels next to libtorch's (Debian's libtorch-dev 1.13.1), in the same process:
// the unary ops of issue 21 on 1e6 float32 elements, out= variants, one thread each. Needs
// libtorch (the target is tagged manual: `bazel build //...` and `bazel test //...` skip it).
//
//   ATEN_CPU_CAPABILITY=avx512 bazel run --config=ci //reference_backend/cpu:libtorch_bench --
//       --benchmark_repetitions=9 --benchmark_format=json > /tmp/r.json   (one line)
//   python3 reference_backend/cpu/libtorch_bench_table.py /tmp/r.json   # op | bp | torch | ratio
//
// ATEN_CPU_CAPABILITY picks libtorch's kernels (default here: avx2; avx512 is its best on this
// machine); BP_CPU_CAPABILITY picks Backplane's. Ops not declared in Backplane yet (log1p, gelu)
// are left out and appear once their `bp::<op>_out` exists.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>
#include <string>

#include "benchmark/benchmark.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

constexpr int64_t kN = 1000000;

// The same values for both libraries: [-3, 3) for most ops, [0.1, 10) for the logarithms.
float value(int64_t i, bool positive) {
  const float t = static_cast<float>((i * 7919) % kN) / static_cast<float>(kN);
  return positive ? 0.1f + 9.9f * t : -3.0f + 6.0f * t;
}

bp::Tensor bp_input(bool positive) {
  bp::Tensor t =
      bp::native::empty({kN}, bp::ScalarType::kFloat32, bp::Device(bp::DeviceType::kCPU));
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

at::Tensor torch_input(bool positive) {
  at::Tensor t = at::empty({kN}, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < kN; ++i) p[i] = value(i, positive);
  return t;
}

// Op names are found by argument-dependent lookup at instantiation, so an op Backplane does not
// declare yet makes its concept false instead of failing the build.
#define BP_BENCH_OP(op, positive)                                                             \
  template <typename T>                                                                       \
  concept Has_##op = requires(T t) {                                                          \
    op##_out(t, t);                                                                           \
  };                                                                                          \
  template <typename T>                                                                       \
  void BM_bp_##op(benchmark::State& state) {                                                  \
    bp::set_num_threads(1);                                                                   \
    T x = bp_input(positive), out = bp_input(positive);                                       \
    for (auto _ : state) op##_out(out, x);                                                    \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
  }                                                                                           \
  void BM_torch_##op(benchmark::State& state) {                                               \
    at::set_num_threads(1);                                                                   \
    at::Tensor x = torch_input(positive), out = torch_input(positive);                        \
    for (auto _ : state) at::op##_out(out, x);                                                \
    state.SetItemsProcessed(state.iterations() * kN);                                         \
  }                                                                                           \
  template <typename T>                                                                       \
  bool register_##op() {                                                                      \
    if constexpr (Has_##op<T>) {                                                              \
      benchmark::RegisterBenchmark("bp/" #op, BM_bp_##op<T>)->Unit(benchmark::kMicrosecond);  \
    }                                                                                         \
    benchmark::RegisterBenchmark("torch/" #op, BM_torch_##op)->Unit(benchmark::kMicrosecond); \
    return true;                                                                              \
  }                                                                                           \
  [[maybe_unused]] const bool registered_##op = register_##op<bp::Tensor>();

BP_BENCH_OP(exp, false)
BP_BENCH_OP(log, true)
BP_BENCH_OP(sin, false)
BP_BENCH_OP(tanh, false)
BP_BENCH_OP(sigmoid, false)
BP_BENCH_OP(gelu, false)
BP_BENCH_OP(erf, false)
BP_BENCH_OP(log1p, true)

}  // namespace
}  // namespace bp_bench
