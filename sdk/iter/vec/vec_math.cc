#include "sdk/iter/vec/vec_math.h"

#include <cmath>
#include <cstring>
#include <limits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace bp::vec_math_detail {
namespace {

template <typename T>
T std_function(Function fn, T x) {
  switch (fn) {
    case k_asinh:
      return std::asinh(x);
    case k_acosh:
      return std::acosh(x);
    case k_sinh:
      return std::sinh(x);
    case k_cosh:
      return std::cosh(x);
    default:
      return std::log1p(x);
  }
}

template <typename T>
T std_function(BinaryFunction fn, T a, T b) {
  switch (fn) {
    default:
      return std::fmod(a, b);
  }
}

template <typename T>
void repair(Function fn, const T* in, T* out, int lanes) {
  const T limit = domain_limit<T>(fn);
  for (int k = 0; k < lanes; ++k) {
    if (!(std::fabs(in[k]) <= limit)) out[k] = std_function(fn, in[k]);
  }
}

#if defined(__x86_64__)

#define BP_SSE2(name, ulp)                                                                         \
  void name##_f_sse2(const float* in, float* out, int64_t n) {                                     \
    for (int64_t i = 0; i < n; i += 4) {                                                           \
      const __m128 x = _mm_loadu_ps(in + i);                                                       \
      float copy[4];                                                                               \
      if constexpr (domain_limit<float>(k_##name) != 0) _mm_storeu_ps(copy, x);                    \
      _mm_storeu_ps(out + i,                                                                       \
                    reinterpret_cast<__m128>(BP_VEC_MATH_PICK(name)(reinterpret_cast<F4>(x))));    \
      if constexpr (domain_limit<float>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 4);  \
    }                                                                                              \
  }                                                                                                \
  void name##_d_sse2(const double* in, double* out, int64_t n) {                                   \
    for (int64_t i = 0; i < n; i += 2) {                                                           \
      const __m128d x = _mm_loadu_pd(in + i);                                                      \
      double copy[2];                                                                              \
      if constexpr (domain_limit<double>(k_##name) != 0) _mm_storeu_pd(copy, x);                   \
      _mm_storeu_pd(out + i,                                                                       \
                    reinterpret_cast<__m128d>(BP_VEC_MATH_PICK(name)(reinterpret_cast<D2>(x))));   \
      if constexpr (domain_limit<double>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 2); \
    }                                                                                              \
  }
#define BP_AVX2(name, ulp)                                                                         \
  [[gnu::target("avx2,fma")]] void name##_f_avx2(const float* in, float* out, int64_t n) {         \
    for (int64_t i = 0; i < n; i += 8) {                                                           \
      const __m256 x = _mm256_loadu_ps(in + i);                                                    \
      float copy[8];                                                                               \
      if constexpr (domain_limit<float>(k_##name) != 0) _mm256_storeu_ps(copy, x);                 \
      _mm256_storeu_ps(out + i,                                                                    \
                       reinterpret_cast<__m256>(BP_VEC_MATH_PICK(name)(reinterpret_cast<F8>(x)))); \
      if constexpr (domain_limit<float>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 8);  \
    }                                                                                              \
  }                                                                                                \
  [[gnu::target("avx2,fma")]] void name##_d_avx2(const double* in, double* out, int64_t n) {       \
    for (int64_t i = 0; i < n; i += 4) {                                                           \
      const __m256d x = _mm256_loadu_pd(in + i);                                                   \
      double copy[4];                                                                              \
      if constexpr (domain_limit<double>(k_##name) != 0) _mm256_storeu_pd(copy, x);                \
      _mm256_storeu_pd(                                                                            \
          out + i, reinterpret_cast<__m256d>(BP_VEC_MATH_PICK(name)(reinterpret_cast<D4>(x))));    \
      if constexpr (domain_limit<double>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 4); \
    }                                                                                              \
  }
#define BP_AVX512(name, ulp)                                                                       \
  [[gnu::target("avx512f")]] void name##_f_avx512(const float* in, float* out, int64_t n) {        \
    for (int64_t i = 0; i < n; i += 16) {                                                          \
      const __m512 x = _mm512_loadu_ps(in + i);                                                    \
      float copy[16];                                                                              \
      if constexpr (domain_limit<float>(k_##name) != 0) _mm512_storeu_ps(copy, x);                 \
      _mm512_storeu_ps(                                                                            \
          out + i, reinterpret_cast<__m512>(BP_VEC_MATH_PICK(name)(reinterpret_cast<F16>(x))));    \
      if constexpr (domain_limit<float>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 16); \
    }                                                                                              \
  }                                                                                                \
  [[gnu::target("avx512f")]] void name##_d_avx512(const double* in, double* out, int64_t n) {      \
    for (int64_t i = 0; i < n; i += 8) {                                                           \
      const __m512d x = _mm512_loadu_pd(in + i);                                                   \
      double copy[8];                                                                              \
      if constexpr (domain_limit<double>(k_##name) != 0) _mm512_storeu_pd(copy, x);                \
      _mm512_storeu_pd(                                                                            \
          out + i, reinterpret_cast<__m512d>(BP_VEC_MATH_PICK(name)(reinterpret_cast<D8>(x))));    \
      if constexpr (domain_limit<double>(k_##name) != 0) repair_lanes(k_##name, copy, out + i, 8); \
    }                                                                                              \
  }

BP_VEC_MATH_FUNCTIONS(BP_SSE2)
BP_VEC_MATH_FUNCTIONS(BP_AVX2)
BP_VEC_MATH_FUNCTIONS(BP_AVX512)
#undef BP_SSE2
#undef BP_AVX2
#undef BP_AVX512

// out[0..n) = fn(a[0..n), b[0..n)) with SLEEF's function for vectors V (always inlined into the
// functions below, compiled for V's ISA, so that the vectors pass in registers).
// Vectors with a lane that is not finite take std::'s values (see checks_result).
template <BinaryFunction kFn, typename V, V (*fn)(V, V), typename T>
[[gnu::always_inline]] inline void binary_loop(const T* a, const T* b, T* out, int64_t n) {
  using Vec = Vectorized<T, sizeof(V)>;
  for (int64_t i = 0; i < n; i += Vec::size()) {
    const Vec x = Vec::loadu(a + i), y = Vec::loadu(b + i);
    const Vec r = Vec::from_raw(reinterpret_cast<typename Vec::Raw>(
        fn(reinterpret_cast<V>(x.raw()), reinterpret_cast<V>(y.raw()))));
    if (__builtin_expect(any_lane_beyond(r, std::numeric_limits<T>::max()), 0)) {
      repair_lanes(kFn, a + i, b + i, out + i, Vec::size());  // out may be a or b
    } else {
      r.store(out + i);
    }
  }
}

#define BP_BINARY(name, ulp)                                                                     \
  void name##_f_sse2(const float* a, const float* b, float* out, int64_t n) {                    \
    binary_loop<k_##name, F4, sleef::name>(a, b, out, n);                                        \
  }                                                                                              \
  void name##_d_sse2(const double* a, const double* b, double* out, int64_t n) {                 \
    binary_loop<k_##name, D2, sleef::name>(a, b, out, n);                                        \
  }                                                                                              \
  [[gnu::target("avx2,fma")]] void name##_f_avx2(const float* a, const float* b, float* out,     \
                                                 int64_t n) {                                    \
    binary_loop<k_##name, F8, sleef::name>(a, b, out, n);                                        \
  }                                                                                              \
  [[gnu::target("avx2,fma")]] void name##_d_avx2(const double* a, const double* b, double* out,  \
                                                 int64_t n) {                                    \
    binary_loop<k_##name, D4, sleef::name>(a, b, out, n);                                        \
  }                                                                                              \
  [[gnu::target("avx512f")]] void name##_f_avx512(const float* a, const float* b, float* out,    \
                                                  int64_t n) {                                   \
    binary_loop<k_##name, F16, sleef::name>(a, b, out, n);                                       \
  }                                                                                              \
  [[gnu::target("avx512f")]] void name##_d_avx512(const double* a, const double* b, double* out, \
                                                  int64_t n) {                                   \
    binary_loop<k_##name, D8, sleef::name>(a, b, out, n);                                        \
  }
BP_VEC_MATH_BINARY_FUNCTIONS(BP_BINARY)
#undef BP_BINARY

#else  // no SLEEF build for this architecture here: std:: per element

#define BP_STD(name, ulp)                                        \
  void name##_f_sse2(const float* in, float* out, int64_t n) {   \
    for (int64_t i = 0; i < n; ++i) out[i] = std::name(in[i]);   \
  }                                                              \
  void name##_d_sse2(const double* in, double* out, int64_t n) { \
    for (int64_t i = 0; i < n; ++i) out[i] = std::name(in[i]);   \
  }
BP_VEC_MATH_FUNCTIONS(BP_STD)
#undef BP_STD
#define BP_STD2(name, ulp)                                                       \
  void name##_f_sse2(const float* a, const float* b, float* out, int64_t n) {    \
    for (int64_t i = 0; i < n; ++i) out[i] = std::name(a[i], b[i]);              \
  }                                                                              \
  void name##_d_sse2(const double* a, const double* b, double* out, int64_t n) { \
    for (int64_t i = 0; i < n; ++i) out[i] = std::name(a[i], b[i]);              \
  }
BP_VEC_MATH_BINARY_FUNCTIONS(BP_STD2)
#undef BP_STD2

#endif

}  // namespace

void repair_lanes(Function fn, const float* in, float* out, int lanes) {
  repair(fn, in, out, lanes);
}
void repair_lanes(Function fn, const double* in, double* out, int lanes) {
  repair(fn, in, out, lanes);
}
void repair_lanes(BinaryFunction fn, const float* a, const float* b, float* out, int lanes) {
  for (int k = 0; k < lanes; ++k) out[k] = std_function(fn, a[k], b[k]);
}
void repair_lanes(BinaryFunction fn, const double* a, const double* b, double* out, int lanes) {
  for (int k = 0; k < lanes; ++k) out[k] = std_function(fn, a[k], b[k]);
}

#define BP_F(name, isa) name##_f_##isa,
#define BP_D(name, isa) name##_d_##isa,
#define BP_F_SSE2(name, ulp) BP_F(name, sse2)
#define BP_D_SSE2(name, ulp) BP_D(name, sse2)
#if defined(__x86_64__)
#define BP_F_AVX2(name, ulp) BP_F(name, avx2)
#define BP_D_AVX2(name, ulp) BP_D(name, avx2)
#define BP_F_AVX512(name, ulp) BP_F(name, avx512)
#define BP_D_AVX512(name, ulp) BP_D(name, avx512)
#else
#define BP_F_AVX2 BP_F_SSE2
#define BP_D_AVX2 BP_D_SSE2
#define BP_F_AVX512 BP_F_SSE2
#define BP_D_AVX512 BP_D_SSE2
#endif

constinit const Table kSse2 = {{BP_VEC_MATH_FUNCTIONS(BP_F_SSE2)},
                               {BP_VEC_MATH_FUNCTIONS(BP_D_SSE2)},
                               {BP_VEC_MATH_BINARY_FUNCTIONS(BP_F_SSE2)},
                               {BP_VEC_MATH_BINARY_FUNCTIONS(BP_D_SSE2)}};
constinit const Table kAvx2 = {{BP_VEC_MATH_FUNCTIONS(BP_F_AVX2)},
                               {BP_VEC_MATH_FUNCTIONS(BP_D_AVX2)},
                               {BP_VEC_MATH_BINARY_FUNCTIONS(BP_F_AVX2)},
                               {BP_VEC_MATH_BINARY_FUNCTIONS(BP_D_AVX2)}};
// Not in the header: reached through widest_table only.
constinit const Table kAvx512 = {{BP_VEC_MATH_FUNCTIONS(BP_F_AVX512)},
                                 {BP_VEC_MATH_FUNCTIONS(BP_D_AVX512)},
                                 {BP_VEC_MATH_BINARY_FUNCTIONS(BP_F_AVX512)},
                                 {BP_VEC_MATH_BINARY_FUNCTIONS(BP_D_AVX512)}};

constinit const Table* wide_table = &kSse2;
constinit const Table* widest_table = &kSse2;

namespace {
[[maybe_unused]] const bool tables_set = [] {
  const CpuCapability c = detected_cpu_capability();
  if (c != CpuCapability::kDefault) wide_table = widest_table = &kAvx2;
  if (c == CpuCapability::kAvx512) widest_table = &kAvx512;
  return true;
}();
}  // namespace

}  // namespace bp::vec_math_detail
