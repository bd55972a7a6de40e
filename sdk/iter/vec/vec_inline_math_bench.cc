// The inline float functions over 1e6 contiguous floats, one thread, next to vec_math's out-of-line
// ones (the kSleef* kernels: SLEEF's u10, libmvec's where vec_math.h picks it, and on 64-byte
// vectors our own AVX-512 exp, vec_math_avx512.cc): vec_math::erf_float (vec_erf.h) and
// vec_math::erf, gelu through erf_float, vec_math::exp_float (vec_exp.h) and vec_math::exp,
// sigmoid (1 / (1 + e^-x)) through each, vec_math::tanh_float (vec_exp.h) and vec_math::tanh, and
// a plain copy. Each runs
// through dispatch_cpu with the ISA set to AVX2 and to AVX-512 (32-byte vectors on both, as
// dispatch_cpu hands out), and with 64-byte vectors on AVX-512 (what a kWideVectors functor
// gets: loops.h; SLEEF's AVX-512F code for vec_math::erf). Two vectors per step, as loops.h's
// contiguous rows. Inputs uniform in [-5, 5).
//
//   bazel run --config=ci //sdk/iter/vec:vec_inline_math_bench -- --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "benchmark/benchmark.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vec_erf.h"
#include "sdk/iter/vec/vec_exp.h"
#include "sdk/iter/vec/vec_math.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace {

constexpr int64_t kElements = 1000000;

enum Kernel {
  kErfFloat,
  kSleefErf,
  kGelu,
  kExpFloat,
  kSleefExp,
  kSigmoid,
  kSleefSigmoid,
  kTanhFloat,
  kSleefTanh,
  kCopy
};

template <Kernel kKernel, typename Vec>
[[gnu::always_inline]] inline Vec apply(Vec x) {
  if constexpr (kKernel == kErfFloat) return vec_math::erf_float(x);
  if constexpr (kKernel == kSleefErf) return vec_math::erf(x);
  if constexpr (kKernel == kGelu) {
    const Vec half = x * Vec(0.5f);
    return half + half * vec_math::erf_float(x * Vec(0.70710678f));
  }
  if constexpr (kKernel == kExpFloat) return vec_math::exp_float(x);
  if constexpr (kKernel == kSleefExp) return vec_math::exp(x);
  if constexpr (kKernel == kSigmoid) return Vec(1.0f) / (Vec(1.0f) + vec_math::exp_float(-x));
  if constexpr (kKernel == kSleefSigmoid) return Vec(1.0f) / (Vec(1.0f) + vec_math::exp(-x));
  if constexpr (kKernel == kTanhFloat) return vec_math::tanh_float(x);
  if constexpr (kKernel == kSleefTanh) return vec_math::tanh(x);
  if constexpr (kKernel == kCopy) return x;
}

// Arguments: the CpuCapability, and 1 for 64-byte vectors on AVX-512.
template <Kernel kKernel>
void BM_Float(benchmark::State& state) {
  const CpuCapability isa = static_cast<CpuCapability>(state.range(0));
  const bool wide = state.range(1) != 0;
  if (set_cpu_capability(isa) != isa) return state.SkipWithError("ISA not available");
  state.SetLabel(std::string(cpu_capability_name(isa)) + (wide ? ", 64 bytes" : ", 32 bytes"));
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(-5.0f, 5.0f);
  std::vector<float> x(kElements), y(kElements);
  for (float& v : x) v = uniform(rng);
  const float* in = x.data();
  float* out = y.data();
  for (auto _ : state) {
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      constexpr bool kWide = decltype(width)::isa == VecIsa::kAvx512;
      const auto loop = [&](auto bytes) __attribute__((always_inline)) {
        using Vec = Vectorized<float, decltype(bytes)::value>;
        for (int64_t i = 0; i < kElements; i += 2 * Vec::size()) {
          const Vec r0 = apply<kKernel>(Vec::loadu(in + i));
          const Vec r1 = apply<kKernel>(Vec::loadu(in + i + Vec::size()));
          r0.store(out + i);
          r1.store(out + i + Vec::size());
        }
      };
      if constexpr (kWide) {
        if (wide) return loop(VectorWidth<64>());
      }
      loop(width);
    });
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.counters["ns/element"] =
      benchmark::Counter(static_cast<double>(kElements) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  set_cpu_capability(detected_cpu_capability());
}

void isas(benchmark::internal::Benchmark* b) {
  b->Args({static_cast<int>(CpuCapability::kAvx2), 0});
  b->Args({static_cast<int>(CpuCapability::kAvx512), 0});
  b->Args({static_cast<int>(CpuCapability::kAvx512), 1});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_Float<kErfFloat>)->Apply(isas);
BENCHMARK(BM_Float<kSleefErf>)->Apply(isas);
BENCHMARK(BM_Float<kGelu>)->Apply(isas);
BENCHMARK(BM_Float<kExpFloat>)->Apply(isas);
BENCHMARK(BM_Float<kSleefExp>)->Apply(isas);
BENCHMARK(BM_Float<kSigmoid>)->Apply(isas);
BENCHMARK(BM_Float<kSleefSigmoid>)->Apply(isas);
BENCHMARK(BM_Float<kTanhFloat>)->Apply(isas);
BENCHMARK(BM_Float<kSleefTanh>)->Apply(isas);
BENCHMARK(BM_Float<kCopy>)->Apply(isas);

}  // namespace
}  // namespace bp
