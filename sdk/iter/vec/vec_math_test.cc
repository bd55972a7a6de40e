#include "sdk/iter/vec/vec_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace {

// Distance in units in the last place of T between `got` and the exact value `want`.
template <typename T>
double ulps(T got, long double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  const T w = static_cast<T>(want);  // inf where T overflows
  if (std::isinf(w) || std::isinf(got)) return got == w ? 0 : 1e9;
  const long double ulp =
      std::nextafter(std::fabs(w), std::numeric_limits<T>::infinity()) - std::fabs(w);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

// Inputs: a sweep over [-lo, hi] plus special values.
template <typename T>
std::vector<T> inputs(T lo, T hi) {
  std::vector<T> x;
  for (int i = 0; i <= 4000; ++i) x.push_back(lo + (hi - lo) * static_cast<T>(i) / 4000);
  for (T v : {T(0), T(-0.0), T(1e-30), T(-1e-30), T(0.5), T(-0.5), T(1), T(-1),
              std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
              std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::denorm_min()})
    x.push_back(v);
  while (x.size() % 16 != 0) x.push_back(T(0.25));
  return x;
}

// y = vec(x) on vectors of kBytes tagged kIsa. always_inline, as `vec` must be: dispatch_cpu
// inlines it into the function compiled for kIsa, where tagged vectors call SLEEF directly.
template <typename T, int kBytes, VecIsa kIsa, typename VecFn>
[[gnu::always_inline]] inline void apply_vec(const VecFn& vec, const std::vector<T>& x,
                                             std::vector<T>& y) {
  using Vec = Vectorized<T, kBytes, kIsa>;
  for (size_t i = 0; i < x.size(); i += Vec::size()) vec(Vec::loadu(&x[i])).store(&y[i]);
}

// Runs vec(x) for every width and ISA, untagged (16 bytes: SLEEF directly; 32, 64: through the
// tables) and tagged with the ISA of the dispatch_cpu path (SLEEF directly), against ref (long
// double) within `max_ulps`, and checks NaN, inf and -0.0 as std::.
template <typename T, typename VecFn, typename Ref>
void check(const char* name, const VecFn& vec, Ref ref, T lo, T hi, double max_ulps) {
  const std::vector<T> x = inputs(lo, hi);
  std::vector<T> y(x.size());
  const auto expect_close = [&](const char* how) {
    for (size_t i = 0; i < x.size(); ++i) {
      const long double want = ref(static_cast<long double>(x[i]));
      EXPECT_LE(ulps<T>(y[i], want), max_ulps) << name << "(" << x[i] << ") = " << y[i] << ", want "
                                               << static_cast<double>(want) << " (" << how << ")";
      if (want == 0 && y[i] == 0) {
        EXPECT_EQ(std::signbit(y[i]), std::signbit(static_cast<T>(want)))
            << name << "(" << x[i] << ") (" << how << ")";
      }
    }
  };
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    const std::string isa(cpu_capability_name(set_cpu_capability(c)));
    apply_vec<T, 16, VecIsa::kAny>(vec, x, y);
    expect_close(("16 bytes, " + isa).c_str());
    apply_vec<T, 32, VecIsa::kAny>(vec, x, y);
    expect_close(("32 bytes, " + isa).c_str());
    apply_vec<T, 64, VecIsa::kAny>(vec, x, y);
    expect_close(("64 bytes, " + isa).c_str());
    int tagged_bytes = 0;
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      constexpr VecIsa kIsa = decltype(width)::isa;
      if constexpr (kIsa != VecIsa::kAny) {
        apply_vec<T, 32, kIsa>(vec, x, y);
        tagged_bytes = 32;
      }
    });
    if (tagged_bytes != 0) expect_close(("32 bytes tagged, " + isa).c_str());
    tagged_bytes = 0;
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      if constexpr (decltype(width)::isa == VecIsa::kAvx512) {
        apply_vec<T, 64, VecIsa::kAvx512>(vec, x, y);
        tagged_bytes = 64;
      }
    });
    if (tagged_bytes != 0) expect_close(("64 bytes tagged, " + isa).c_str());
  }
  set_cpu_capability(CpuCapability::kAvx512);
}

#define BP_CHECK_BOTH(fn, lo, hi, bound)                                          \
  check<float>(                                                                   \
      #fn, [](auto v) __attribute__((always_inline)) { return vec_math::fn(v); }, \
      [](long double v) { return std::fn(v); }, float(lo), float(hi), bound);     \
  check<double>(                                                                  \
      #fn, [](auto v) __attribute__((always_inline)) { return vec_math::fn(v); }, \
      [](long double v) { return std::fn(v); }, double(lo), double(hi), bound)

// libmvec's stated bound, for the functions it computes on some widths (vec_math.h); SLEEF's
// 1 ulp (erfc: 1.5) for the others.
constexpr double kMvecUlps = 4.0;

TEST(VecMath, ExponentialsAndLogarithmsAreWithinTheirBounds) {
  BP_CHECK_BOTH(exp, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(exp2, -140, 140, kMvecUlps);
  BP_CHECK_BOTH(expm1, -20, 20, kMvecUlps);
  BP_CHECK_BOTH(log, -1, 1e6, kMvecUlps);
  BP_CHECK_BOTH(log2, -1, 1e6, kMvecUlps);
  BP_CHECK_BOTH(log10, -1, 1e6, kMvecUlps);
  BP_CHECK_BOTH(log1p, -2, 1e3, kMvecUlps);
  BP_CHECK_BOTH(sqrt, -1, 1e6, 0.5);
}

TEST(VecMath, TrigonometricAndHyperbolicFunctionsAreWithinTheirBounds) {
  BP_CHECK_BOTH(sin, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(cos, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(tan, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(asin, -1.5, 1.5, kMvecUlps);
  BP_CHECK_BOTH(acos, -1.5, 1.5, kMvecUlps);
  BP_CHECK_BOTH(atan, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(sinh, -80, 80, kMvecUlps);
  BP_CHECK_BOTH(cosh, -80, 80, kMvecUlps);
  BP_CHECK_BOTH(tanh, -20, 20, kMvecUlps);
  BP_CHECK_BOTH(asinh, -100, 100, kMvecUlps);
  BP_CHECK_BOTH(acosh, 0, 100, kMvecUlps);
  BP_CHECK_BOTH(atanh, -1.5, 1.5, kMvecUlps);
}

TEST(VecMath, ErrorFunctionsAndLgammaAreWithinTheirBounds) {
  BP_CHECK_BOTH(erf, -6, 6, kMvecUlps);
  BP_CHECK_BOTH(erfc, -6, 10, kMvecUlps);
  BP_CHECK_BOTH(lgamma, 0.01, 100, 1.0);
}

// SLEEF's sinh, cosh, asinh, acosh and log1p overflow where the result is still finite (past
// its documented domain); vec_math computes those lanes with std::, whose bound holds there.
TEST(VecMath, LanesBeyondSleefsDomainKeepTheBound) {
  const auto vsinh = [](auto v) __attribute__((always_inline)) { return vec_math::sinh(v); };
  const auto vcosh = [](auto v) __attribute__((always_inline)) { return vec_math::cosh(v); };
  const auto vasinh = [](auto v) __attribute__((always_inline)) { return vec_math::asinh(v); };
  const auto vacosh = [](auto v) __attribute__((always_inline)) { return vec_math::acosh(v); };
  const auto vlog1p = [](auto v) __attribute__((always_inline)) { return vec_math::log1p(v); };
  const auto rsinh = [](long double v) { return std::sinh(v); };
  const auto rcosh = [](long double v) { return std::cosh(v); };
  const auto rasinh = [](long double v) { return std::asinh(v); };
  const auto racosh = [](long double v) { return std::acosh(v); };
  const auto rlog1p = [](long double v) { return std::log1p(v); };
  // Past 88 (708): glibc's sinh and cosh (the scalar path's too), within 1.6 (1.1) ulp there;
  // below, libmvec's on 32- and 64-byte vectors.
  check<float>("sinh", vsinh, rsinh, -89.4f, 89.4f, kMvecUlps);
  check<float>("cosh", vcosh, rcosh, -89.4f, 89.4f, kMvecUlps);
  check<double>("sinh", vsinh, rsinh, -710.4, 710.4, kMvecUlps);
  check<double>("cosh", vcosh, rcosh, -710.4, 710.4, kMvecUlps);
  check<float>("asinh", vasinh, rasinh, -3e38f, 3e38f, kMvecUlps);
  check<float>("acosh", vacosh, racosh, 1e18f, 3e38f, kMvecUlps);
  check<double>("asinh", vasinh, rasinh, -1e300, 1e300, kMvecUlps);
  check<double>("acosh", vacosh, racosh, 1e150, 1e300, kMvecUlps);
  check<float>("log1p", vlog1p, rlog1p, 1e36f, 3e38f, kMvecUlps);
  check<double>("log1p", vlog1p, rlog1p, 1e305, 1e308, kMvecUlps);
}

// Every 997th float (4.3 million, all binades, both signs; NaNs and infinities included).
std::vector<float> sampled_floats() {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 997) {
    float f;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, sizeof f);
    x.push_back(f);
  }
  for (float v : {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity()})
    x.push_back(v);
  while (x.size() % 16 != 0) x.push_back(0.25f);
  return x;
}

// The largest error of vec (on 64-byte vectors tagged for AVX-512, as the AVX-512 loops run
// it, or untagged: through vec_math's tables) against ref over x; NaN must give NaN.
template <VecIsa kIsa, typename VecFn, typename Ref>
double worst_ulps_on_avx512(const std::vector<float>& x, const VecFn& vec, const Ref& ref,
                            float* worst_x) {
  std::vector<float> y(x.size());
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    if constexpr (decltype(width)::isa == VecIsa::kAvx512) apply_vec<float, 64, kIsa>(vec, x, y);
  });
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double e = ulps<float>(y[i], ref(static_cast<long double>(x[i])));
    if (e > worst) {
      worst = e;
      *worst_x = x[i];
    }
  }
  return worst;
}

// Our own AVX-512 code (vec_math_avx512.cc) for float exp and sigmoid on 64-byte vectors, against
// the bounds vec_math.h states: exp 0.9 ulp (SLEEF's is 1.0), sigmoid 2.8.
TEST(VecMath, OwnAvx512ExpAndSigmoidAreWithinTheirBounds) {
  if (set_cpu_capability(CpuCapability::kAvx512) != CpuCapability::kAvx512) {
    GTEST_SKIP() << "this CPU has no AVX-512: the code under test cannot run here";
  }
  const std::vector<float> x = sampled_floats();
  const auto vexp = [](auto v) __attribute__((always_inline)) { return vec_math::exp(v); };
  const auto rexp = [](long double v) { return std::exp(v); };
  float at = 0;
  EXPECT_LE(worst_ulps_on_avx512<VecIsa::kAvx512>(x, vexp, rexp, &at), 0.9) << "exp at " << at;
  EXPECT_LE(worst_ulps_on_avx512<VecIsa::kAny>(x, vexp, rexp, &at), 0.9) << "exp at " << at;
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // vec_math::sigmoid exists where vectors call our code directly (not in sanitizer builds).
  const auto vsigmoid = [](auto v) __attribute__((always_inline)) { return vec_math::sigmoid(v); };
  const auto rsigmoid = [](long double v) { return 1 / (1 + std::exp(-v)); };
  EXPECT_LE(worst_ulps_on_avx512<VecIsa::kAvx512>(x, vsigmoid, rsigmoid, &at), 2.8)
      << "sigmoid at " << at;
  // The ends and the special values exactly.
  const std::vector<float> special = {0.0f,
                                      -0.0f,
                                      std::numeric_limits<float>::infinity(),
                                      -std::numeric_limits<float>::infinity(),
                                      200.0f,
                                      -200.0f,
                                      88.0f,
                                      -88.0f,
                                      1e-30f,
                                      -1e-30f,
                                      std::numeric_limits<float>::quiet_NaN(),
                                      20.0f,
                                      -20.0f,
                                      1.0f,
                                      -1.0f,
                                      0.5f};
  std::vector<float> y(special.size());
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    if constexpr (decltype(width)::isa == VecIsa::kAvx512) {
      apply_vec<float, 64, VecIsa::kAvx512>(vsigmoid, special, y);
    }
  });
  EXPECT_EQ(y[0], 0.5f);
  EXPECT_EQ(y[1], 0.5f);
  EXPECT_EQ(y[2], 1.0f);
  EXPECT_EQ(y[3], 0.0f);
  EXPECT_EQ(y[4], 1.0f);
  EXPECT_EQ(y[5], 0.0f);  // e^-200 rounds to 0
  EXPECT_EQ(y[6], 1.0f);
  EXPECT_NEAR(y[7], 6.0546014e-39f, 1e-44f);  // subnormal, where 1 / (1 + e^88) loses digits
  EXPECT_EQ(y[8], 0.5f);
  EXPECT_EQ(y[9], 0.5f);
  EXPECT_TRUE(std::isnan(y[10]));
#endif
}

// Pairs for the binary functions: every pair of special and ordinary values of both signs
// (zeros, subnormals, the extremes, infinities, NaN; ratios from 1e-45 to 1e45 and beyond),
// then pseudo-random pairs of every magnitude.
template <typename T>
void binary_inputs(std::vector<T>& a, std::vector<T>& b) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {
      T(0),         T(0.5),        T(1),           T(1.5),          T(2),        T(3),
      T(7.25),      T(10),         T(1e-3),        T(0.1),          T(1e6),      T(16777217),
      T(1e15),      T(1e30),       T(1e-30),       L::denorm_min(), L::min(),    L::max(),
      L::epsilon(), L::infinity(), L::quiet_NaN(), T(3e38),         T(1.0000001)};
  const size_t n = v.size();
  for (size_t k = 0; k < n; ++k) v.push_back(-v[k]);
  for (T x : v) {
    for (T y : v) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  uint64_t state = 42;
  const auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 11;
  };
  for (int i = 0; i < 100000; ++i) {
    // A mantissa in [1, 2) times a power of two: mostly in [-60, 60], a quarter over the whole
    // range (subnormals, overflow to inf), random signs.
    const auto random_value = [&] {
      const T m = T(1) + static_cast<T>(next() % (1u << 20)) / T(1u << 20);
      const int range = next() % 4 == 0 ? (sizeof(T) == 4 ? 300 : 2200) : 120;
      const T x = std::ldexp(m, static_cast<int>(next() % (range + 1)) - range / 2);
      return next() % 2 != 0 ? -x : x;
    };
    a.push_back(random_value());
    b.push_back(random_value());
  }
  while (a.size() % 16 != 0) {
    a.push_back(T(1));
    b.push_back(T(1));
  }
}

template <typename T, int kBytes, VecIsa kIsa, typename VecFn>
[[gnu::always_inline]] inline void apply_vec2(const VecFn& vec, const std::vector<T>& a,
                                              const std::vector<T>& b, std::vector<T>& y) {
  using Vec = Vectorized<T, kBytes, kIsa>;
  for (size_t i = 0; i < a.size(); i += Vec::size()) {
    vec(Vec::loadu(&a[i]), Vec::loadu(&b[i])).store(&y[i]);
  }
}

// vec(a, b) for every width and ISA (as check), bit for bit ref(a, b) (NaN: any NaN).
template <typename T, typename VecFn, typename Ref>
void check_exact2(const char* name, const VecFn& vec, Ref ref) {
  std::vector<T> a, b;
  binary_inputs(a, b);
  std::vector<T> y(a.size());
  const auto expect_exact = [&](const std::string& how) {
    int failures = 0;
    for (size_t i = 0; i < a.size() && failures < 20; ++i) {
      const T want = ref(a[i], b[i]);
      const bool same =
          std::isnan(want) ? std::isnan(y[i]) : std::memcmp(&want, &y[i], sizeof(T)) == 0;
      if (!same) ++failures;
      EXPECT_TRUE(same) << name << "(" << a[i] << ", " << b[i] << ") = " << y[i] << ", want "
                        << want << " (" << how << ")";
    }
  };
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    const std::string isa(cpu_capability_name(set_cpu_capability(c)));
    apply_vec2<T, 16, VecIsa::kAny>(vec, a, b, y);
    expect_exact("16 bytes, " + isa);
    apply_vec2<T, 32, VecIsa::kAny>(vec, a, b, y);
    expect_exact("32 bytes, " + isa);
    apply_vec2<T, 64, VecIsa::kAny>(vec, a, b, y);
    expect_exact("64 bytes, " + isa);
    int tagged_bytes = 0;
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      constexpr VecIsa kIsa = decltype(width)::isa;
      if constexpr (kIsa != VecIsa::kAny) {
        apply_vec2<T, 32, kIsa>(vec, a, b, y);
        tagged_bytes = 32;
      }
    });
    if (tagged_bytes != 0) expect_exact("32 bytes tagged, " + isa);
    tagged_bytes = 0;
    dispatch_cpu([&](auto width) __attribute__((always_inline)) {
      if constexpr (decltype(width)::isa == VecIsa::kAvx512) {
        apply_vec2<T, 64, VecIsa::kAvx512>(vec, a, b, y);
        tagged_bytes = 64;
      }
    });
    if (tagged_bytes != 0) expect_exact("64 bytes tagged, " + isa);
  }
  set_cpu_capability(CpuCapability::kAvx512);
}

TEST(VecMath, FmodIsExactlyStdFmod) {
  const auto vfmod = [](auto x, auto y) __attribute__((always_inline)) {
    return vec_math::fmod(x, y);
  };
  check_exact2<float>("fmod", vfmod, [](float x, float y) { return std::fmod(x, y); });
  check_exact2<double>("fmod", vfmod, [](double x, double y) { return std::fmod(x, y); });
}

}  // namespace
}  // namespace bp
