#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "reference_backend/cpu/libtorch_bench/support.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp_bench {
namespace {

// The limits, on one thread: memcpy (bytes read + written), STREAM's triad a = b + s * c
// vectorised through dispatch_cpu as the kernels and sdk/iter/bandwidth_baselines.cc's BM_Triad
// are (that library is not linked: it registers every size on 1 and 2 threads), a read-only sum
// on four vector accumulators, and glibc's vector exp (libmvec, 4 ulp) called explicitly on
// 64-byte vectors (32-byte ones without AVX-512), out of place.
void BM_memcpy(benchmark::State& state, int64_t n) {
  const bp::Tensor a = bp_values({n});
  bp::Tensor b = bp_values({n});
  const float* src = a.data_ptr<float>();
  float* dst = b.data_ptr<float>();
  measure(state, [&] {
    std::memcpy(dst, src, static_cast<size_t>(n) * 4);
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(state.iterations() * 2 * n * 4);
}

void BM_triad(benchmark::State& state, int64_t n) {
  bp::Tensor a = bp_values({n});
  const bp::Tensor b = bp_values({n}), c = bp_values({n});
  float* pa = a.data_ptr<float>();
  const float* pb = b.data_ptr<float>();
  const float* pc = c.data_ptr<float>();
  const float s = 3;
  measure(state, [&] {
    bp::dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      using Vec = bp::Vectorized<float, width>;
      int64_t i = 0;
      for (; i + Vec::size() <= n; i += Vec::size()) {
        (Vec::loadu(pb + i) + Vec(s) * Vec::loadu(pc + i)).store(pa + i);
      }
      for (; i < n; ++i) pa[i] = pb[i] + s * pc[i];
    });
    benchmark::ClobberMemory();
  });
  state.SetBytesProcessed(state.iterations() * 3 * n * 4);
}

void BM_read_sum(benchmark::State& state, int64_t n) {
  const bp::Tensor a = bp_values({n});
  const float* p = a.data_ptr<float>();
  measure(state, [&] {
    float total = 0;
    bp::dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      using Vec = bp::Vectorized<float, width>;
      constexpr int64_t kStep = 4 * Vec::size();
      Vec s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
      int64_t i = 0;
      for (; i + kStep <= n; i += kStep) {
        s0 = s0 + Vec::loadu(p + i);
        s1 = s1 + Vec::loadu(p + i + Vec::size());
        s2 = s2 + Vec::loadu(p + i + 2 * Vec::size());
        s3 = s3 + Vec::loadu(p + i + 3 * Vec::size());
      }
      float lanes[Vec::size()];
      ((s0 + s1) + (s2 + s3)).store(lanes);
      for (float lane : lanes) total += lane;
      for (; i < n; ++i) total += p[i];
    });
    benchmark::DoNotOptimize(total);
  });
  state.SetBytesProcessed(state.iterations() * n * 4);
  state.SetItemsProcessed(state.iterations() * n);
}

extern "C" {
// glibc's libmvec (x86_64 vector function ABI: 'e' AVX-512, 'd' AVX2; N lanes; one vector arg).
__attribute__((target("avx512f"))) __m512 _ZGVeN16v_expf(__m512);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_exp(__m512d);
__attribute__((target("avx2"))) __m256 _ZGVdN8v_expf(__m256);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_exp(__m256d);
}

__attribute__((target("avx512f"))) void mvec_exp_avx512(const float* x, float* y, int64_t n) {
  const int64_t whole = n - n % 16;
  int64_t i = 0;
  for (; i < whole; i += 16) _mm512_storeu_ps(y + i, _ZGVeN16v_expf(_mm512_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx512f"))) void mvec_exp_avx512(const double* x, double* y, int64_t n) {
  const int64_t whole = n - n % 8;
  int64_t i = 0;
  for (; i < whole; i += 8) _mm512_storeu_pd(y + i, _ZGVeN8v_exp(_mm512_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx2"))) void mvec_exp_avx2(const float* x, float* y, int64_t n) {
  const int64_t whole = n - n % 8;
  int64_t i = 0;
  for (; i < whole; i += 8) _mm256_storeu_ps(y + i, _ZGVdN8v_expf(_mm256_loadu_ps(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

__attribute__((target("avx2"))) void mvec_exp_avx2(const double* x, double* y, int64_t n) {
  const int64_t whole = n - n % 4;
  int64_t i = 0;
  for (; i < whole; i += 4) _mm256_storeu_pd(y + i, _ZGVdN4v_exp(_mm256_loadu_pd(x + i)));
  for (; i < n; ++i) y[i] = std::exp(x[i]);
}

template <typename T>
void BM_mvec_exp(benchmark::State& state) {
  std::vector<T> x(kN), y(kN);
  fill_values(x.data(), kN);
  const bool avx512 = __builtin_cpu_supports("avx512f");
  measure(state, [&] {
    if (avx512) {
      mvec_exp_avx512(x.data(), y.data(), kN);
    } else {
      mvec_exp_avx2(x.data(), y.data(), kN);
    }
    benchmark::ClobberMemory();
  });
  state.SetItemsProcessed(state.iterations() * kN);
  state.SetLabel(avx512 ? "AVX-512" : "AVX2");
}

bool register_limits() {
  const auto limit = [](const std::string& name, auto run, auto... args) {
    benchmark::RegisterBenchmark(("limit/" + name).c_str(), run, args...)
        ->Unit(benchmark::kMicrosecond);
  };
  limit("memcpy_1e6", BM_memcpy, kN);
  limit("memcpy_1.6e7", BM_memcpy, k16M);
  limit("triad_1.6e7", BM_triad, k16M);
  limit("read_sum_1e6", BM_read_sum, kN);
  limit("read_sum_4096x4096", BM_read_sum, kSide * kSide);
  limit("mvec_expf_1e6", BM_mvec_exp<float>);
  limit("mvec_exp_1e6", BM_mvec_exp<double>);
  return true;
}
[[maybe_unused]] const bool registered = register_limits();

}  // namespace
}  // namespace bp_bench
