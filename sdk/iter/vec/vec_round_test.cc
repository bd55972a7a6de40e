#include "sdk/iter/vec/vec_round.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp {
namespace {

// Values where rounding goes wrong if it is done carelessly: signed zeros, halves (ties), the
// neighbours of the halves, the edge of the integers (2^23 for float, 2^52 for double), the
// extremes, NaN and the infinities; then both signs, a fine grid and random magnitudes.
template <typename T>
std::vector<T> hard_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> x = {T(0),
                      T(0.25),
                      T(0.5),
                      T(0.75),
                      T(1),
                      T(1.5),
                      T(2.5),
                      T(3),
                      std::nextafter(T(0.5), T(0)),
                      std::nextafter(T(0.5), T(1)),
                      std::nextafter(T(1.5), T(0)),
                      std::nextafter(T(2.5), T(3)),
                      T(1e-30),
                      T(123.456),
                      L::epsilon(),
                      L::min(),
                      L::denorm_min(),
                      L::max(),
                      L::infinity(),
                      L::quiet_NaN(),
                      T(4194303.5),
                      T(4194304.5),
                      T(8388607.5),
                      T(8388608),
                      T(8388609),
                      T(16777215),
                      T(2251799813685247.5),
                      T(4503599627370495.5),
                      T(4503599627370496.0),
                      T(1e300)};
  const size_t n = x.size();
  for (size_t k = 0; k < n; ++k) x.push_back(-x[k]);
  for (T v = T(-50); v < T(50); v += T(0.0625)) x.push_back(v);
  for (T v = T(-3); v < T(3); v += T(1e-3)) x.push_back(v);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-10, sizeof(T) == 4 ? 26 : 55);
  std::bernoulli_distribution negative(0.5);
  for (int k = 0; k < 4000; ++k) {
    const T v = static_cast<T>(std::exp2(exponent(rng)));
    x.push_back(negative(rng) ? -v : v);
  }
  return x;
}

bool same_bits(double a, double b) {
  return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, sizeof(a)) == 0;
}
bool same_bits(float a, float b) {
  return std::isnan(a) ? std::isnan(b) : std::memcmp(&a, &b, sizeof(a)) == 0;
}

// Every lane of floor, ceil, trunc, nearbyint and copysign of Vec against std::'s, bit for bit.
template <typename Vec>
[[gnu::always_inline]] inline void expect_std_results(const std::string& what) {
  using T = typename Vec::value_type;
  constexpr int kLanes = Vec::size();
  std::vector<T> x = hard_values<T>();
  while (x.size() % kLanes != 0) x.push_back(T(0.5));
  int wrong = 0;
  for (size_t i = 0; i < x.size(); i += kLanes) {
    const Vec v = Vec::loadu(&x[i]);
    // The signs of a vector further on, so that every lane meets both signs.
    const Vec sign = Vec::loadu(&x[(i * 7 + kLanes) % x.size() / kLanes * kLanes]);
    const Vec got[5] = {vec_math::floor(v), vec_math::ceil(v), vec_math::trunc(v),
                        vec_math::nearbyint(v), copysign(v, sign)};
    for (int lane = 0; lane < kLanes; ++lane) {
      const T a = x[i + lane], b = sign[lane];
      const T want[5] = {std::floor(a), std::ceil(a), std::trunc(a), std::nearbyint(a),
                         std::copysign(a, b)};
      static const char* const kNames[5] = {"floor", "ceil", "trunc", "nearbyint", "copysign"};
      for (int f = 0; f < 5; ++f) {
        if (same_bits(got[f][lane], want[f]) || ++wrong > 10) continue;
        ADD_FAILURE() << what << ": " << kNames[f] << "(" << a << (f == 4 ? ", " : "")
                      << (f == 4 ? std::to_string(b) : "") << ") = " << got[f][lane] << ", want "
                      << want[f];
      }
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

// Both kinds of vector on every ISA this CPU runs: ISA-tagged ones (the rounding instructions on
// the AVX2 and AVX-512 paths: 16 and 32 bytes, and 64 on AVX-512) and kAny ones (the portable
// steps), in float and double.
TEST(VecRound, FloorCeilTruncNearbyintAndCopysignAreStdsBitForBit) {
  const CpuCapability detected = detected_cpu_capability();
  int paths = 0;
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    const std::string isa(cpu_capability_name(c));
    dispatch_cpu([&](auto isa_width) __attribute__((always_inline)) {
      constexpr VecIsa kIsa = decltype(isa_width)::isa;
      constexpr int kWidth = decltype(isa_width)::value;
      expect_std_results<Vectorized<float, kWidth>>(isa + " float, portable");
      expect_std_results<Vectorized<double, kWidth>>(isa + " double, portable");
      expect_std_results<Vectorized<float, 16, kIsa>>(isa + " float, 16 bytes");
      expect_std_results<Vectorized<double, 16, kIsa>>(isa + " double, 16 bytes");
      expect_std_results<Vectorized<float, kWidth, kIsa>>(isa + " float");
      expect_std_results<Vectorized<double, kWidth, kIsa>>(isa + " double");
      if constexpr (kIsa == VecIsa::kAvx512) {
        expect_std_results<Vectorized<float, 64, kIsa>>(isa + " float, 64 bytes");
        expect_std_results<Vectorized<double, 64, kIsa>>(isa + " double, 64 bytes");
      }
      ++paths;
    });
  }
  set_cpu_capability(detected);
  EXPECT_GE(paths, 1);
}

}  // namespace
}  // namespace bp
