// Test helpers for the inline float functions (vec_erf.h, vec_exp.h): errors in ulps, and a run
// of a function over many floats on every ISA this CPU has and every vector width.
//
//   struct ExpFloat {
//     template <typename V>
//     [[gnu::always_inline]] V operator()(V x) const { return vec_math::exp_float(x); }
//   };
//   on_every_isa_and_width<ExpFloat>(x, [&](const std::vector<float>& y, CpuCapability isa,
//                                           int width) { ... });
#ifndef BACKPLANE_SDK_ITER_VEC_FLOAT_FUNCTION_TESTING_H_
#define BACKPLANE_SDK_ITER_VEC_FLOAT_FUNCTION_TESTING_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::float_testing {

// The spacing of floats in the binade of `want` (2^-149 below FLT_MIN): errors are measured in
// these units, stricter than the gap above float(want) where want rounds up to a power of 2, as
// erf does to 1.
template <typename Real>
Real ulp_at(Real want) {
  int exponent = 0;
  std::frexp(want, &exponent);  // |want| = m 2^exponent, m in [0.5, 1)
  return std::ldexp(Real(1), std::max(exponent - 24, -149));
}

// |got - want| in units of ulp (ulp_at(want)); NaN only matches NaN, 0 only 0 (either sign), inf
// only the same inf.
template <typename Real>
double ulps(float got, Real want, Real ulp) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : 1e9;
  if (want == 0 || std::isinf(want)) return got == want ? 0 : 1e9;
  return static_cast<double>(std::fabs(static_cast<Real>(got) - want) / ulp);
}

// Function over x[0, n) into y, n a multiple of 16, with kBytes-wide vectors.
template <typename Function, int kBytes>
[[gnu::always_inline]] inline void apply_all(const float* x, float* y, size_t n) {
  using Vec = Vectorized<float, kBytes>;
  for (size_t i = 0; i < n; i += Vec::size()) Function()(Vec::loadu(x + i)).store(y + i);
}

// Calls check(y, isa, width) with y = Function()(x) computed by each ISA this CPU runs (through
// dispatch_cpu, so compiled for it) with each vector width. x.size() must be a multiple of 16.
template <typename Function, typename Check>
void on_every_isa_and_width(const std::vector<float>& x, const Check& check) {
  std::vector<float> y(x.size());
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int width : {16, 32, 64}) {
      dispatch_cpu([&]() __attribute__((always_inline)) {
        if (width == 16) apply_all<Function, 16>(x.data(), y.data(), x.size());
        if (width == 32) apply_all<Function, 32>(x.data(), y.data(), x.size());
        if (width == 64) apply_all<Function, 64>(x.data(), y.data(), x.size());
      });
      check(y, c, width);
    }
  }
  set_cpu_capability(detected);
}

inline std::string where(CpuCapability isa, int width) {
  return std::string(cpu_capability_name(isa)) + ", " + std::to_string(width) + " bytes";
}

// Appends `fill` to x up to a multiple of 16 elements.
inline void pad(std::vector<float>& x, float fill = 0.5f) {
  while (x.size() % 16 != 0) x.push_back(fill);
}

// The largest error seen and where.
struct Worst {
  double ulps = 0;
  float x = 0;
};

inline void print(const std::map<std::string, Worst>& worst) {
  for (const auto& [name, w] : worst) {
    std::printf("%-20s max error %.3f ulp at %.9g\n", name.c_str(), w.ulps, w.x);
  }
}

// Function of x (padded) at 32 and 64 bytes gives the bits it gives at 16, on every ISA
// (Function::kName names it in failures).
template <typename Function>
void expect_the_same_bits_at_every_width(std::vector<float> x) {
  pad(x);
  std::vector<float> narrowest;
  on_every_isa_and_width<Function>(
      x, [&](const std::vector<float>& y, CpuCapability isa, int width) {
        if (width == 16) {
          narrowest = y;
          return;
        }
        int failures = 0;
        for (size_t i = 0; i < x.size(); ++i) {
          if (std::bit_cast<uint32_t>(y[i]) != std::bit_cast<uint32_t>(narrowest[i]) &&
              ++failures <= 10) {
            ADD_FAILURE() << where(isa, width) << ": " << Function::kName << "(" << x[i]
                          << ") = " << y[i] << ", with 16 bytes " << narrowest[i];
          }
        }
      });
}

// 0, -0, inf, -inf, NaN, -NaN, the smallest subnormal and the largest float of both signs (in
// that order), then `last`, padded: the special values' inputs.
inline std::vector<float> special_floats(float last) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float denorm = std::numeric_limits<float>::denorm_min();
  const float max = std::numeric_limits<float>::max();
  std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, -nan, denorm, -denorm, max, -max, last};
  pad(x);
  return x;
}

}  // namespace bp::float_testing

#endif  // BACKPLANE_SDK_ITER_VEC_FLOAT_FUNCTION_TESTING_H_
