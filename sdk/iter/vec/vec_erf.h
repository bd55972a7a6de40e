// erf of float vectors, inline: erf in every lane, within 1.1 ulp, as straight-line vector code
// (no call, no per-lane loop), for the erf op and gelu.
//
//   using Vec = Vectorized<float, width>;   // inside a dispatch_cpu body (cpu_capability.h)
//   Vec y = vec_math::erf_float(Vec::loadu(x + i));
//
// vec_math::erf (SLEEF's u10, <= 1.0 ulp) is an out-of-line call, 4-5x slower on 32-byte
// vectors. With 64-byte vectors erf_float makes no vector comparisons, so a functor that calls it
// may declare kWideVectors and run 64-byte vectors on the AVX-512 path (loops.h): 1.5x faster
// still. Measurements, against libtorch's erf and gelu too: docs/design/iter.md ("Inline erf").
//
// Method (the one of ARM's optimized-routines erff; the coefficients are our own, fitted by
// tools/fit/erf_float.py, which prints the numbers below and explains the fits). For a = |x|:
//   a <  0.921875:  erf(a) = a + a P(a^2);
//   a >= 0.921875:  erf(a) = 1 - 2^(z - 2), z = Z(min(a, 4) - 0.921875) ~ log2(erfc(a)) + 2,
//                   2^z = 2^n E(z - n) with n = round(z);
// P, Z and E polynomials of degree 6; the sign of x put back. Every lane computes both forms.
// 2^z is computed here, not with Vectorized's exp(): z stays in [-24, 2], so nothing needs
// clamping, and the scaling by 2^n folds into the final 1 - ...; with exp() erf_float took twice
// the time, at 1.02 ulp instead of 0.86 with FMA.
//
// Accuracy: at most 1.1 ulp from the exact erf, measured over every float (vec_erf_test's
// DISABLED_EveryFloatIsWithinTheBound): 0.86 ulp where the ISA has FMA (the AVX2 and AVX-512
// paths), 1.09 without (SSE2), both just below 0.92, in the first form; SLEEF's erf: 1.0. The
// ISAs may differ in the last bit (FMA), and so may a vector and a scalar std::erf tail. Every
// width gives the same bits on one ISA.
//
// Special values: erf(+-0) = +-0, erf(+-inf) = +-1, NaN gives NaN; subnormal x gives
// x * 2/sqrt(pi), rounded (not flushed to zero). erf_float(-x) is -erf_float(x), bit for bit.
//
// Thread safety: a pure function.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_ERF_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_ERF_H_

#include <bit>
#include <cstdint>
#include <limits>

#include "sdk/iter/vec/float_vector.h"

namespace bp::vec_math {

// erf(x) in every lane (see the file comment).
template <FloatVector V>
[[gnu::always_inline]] inline V erf_float(V x) {
  using Raw = typename V::Raw;
  using Int = decltype(Raw{} < Raw{});  // int32 lanes, as many
  // Vectors wider than 32 bytes make no comparisons: GCC would turn them into scalar code
  // (cpu_capability.h). There the clamp and the choice of form are integer arithmetic on the
  // bits (non-negative floats order as their bits do), with the same results.
  constexpr bool kNoComparisons = sizeof(Raw) > 32;
  constexpr float kSmall = 0.921875f;  // where the two forms meet; erfc(kSmall) = 0.19
  constexpr int32_t kSmallBits = std::bit_cast<int32_t>(kSmall);
  constexpr int32_t kFourBits = std::bit_cast<int32_t>(4.0f);
  constexpr int32_t kInfBits = std::bit_cast<int32_t>(std::numeric_limits<float>::infinity());
  constexpr float kShifter = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  constexpr int32_t kShifterBits = std::bit_cast<int32_t>(kShifter);

  Raw raw;
  x.store(&raw);
  const Int bits = std::bit_cast<Int>(raw);
  const Int abs_bits = bits & 0x7fffffff;
  const Raw a = std::bit_cast<Raw>(abs_bits);

  // a + a P(a^2).
  const Raw t = a * a;
  Raw p = Raw{} + 8.358835476e-05f;
  p = p * t - 8.137391414e-04f;
  p = p * t + 5.200235173e-03f;
  p = p * t - 2.685887739e-02f;
  p = p * t + 1.128368005e-01f;
  p = p * t - 3.761263192e-01f;
  p = p * t + 1.283791661e-01f;
  const Raw small = a + a * p;

  // 1 - 2^(z - 2). a is clamped to 4 (inf and NaN too): 1 - erfc(4) rounds to 1, as erf does
  // from 3.92 on.
  Int clamped_bits;
  if constexpr (kNoComparisons) {
    const Int over = abs_bits - kFourBits;
    clamped_bits = kFourBits + (over & (over >> 31));
  } else {
    clamped_bits = abs_bits < kFourBits ? abs_bits : Int{} + kFourBits;
  }
  const Raw r = std::bit_cast<Raw>(clamped_bits) - kSmall;
  Raw z = Raw{} + 2.830427838e-04f;
  z = z * r - 2.828643192e-03f;
  z = z * r + 1.543604955e-02f;
  z = z * r - 6.458096951e-02f;
  z = z * r - 1.201764107e+00f;
  z = z * r - 3.618296385e+00f;
  z = z * r - 3.783720732e-01f;
  // n = round(z) lands in the low bits of `shifted`; f = z - n, in [-0.5, 0.5], is exact.
  const Raw shifted = z + kShifter;
  const Raw f = z - (shifted - kShifter);
  Raw e = Raw{} + 1.532647148e-04f;
  e = e * f + 1.339080627e-03f;
  e = e * f + 9.618505836e-03f;
  e = e * f + 5.550359935e-02f;
  e = e * f + 2.402264774e-01f;
  e = e * f + 6.931471825e-01f;
  e = e * f + 1.0f;
  // 2^(n - 2), built in the exponent field; n is in [-24, 2], so it is a normal float.
  const Int scale_bits = (std::bit_cast<Int>(shifted) - (kShifterBits + 2 - 127)) << 23;
  const Raw big = 1.0f - e * std::bit_cast<Raw>(scale_bits);

  // The first form below kSmall and for NaN, which it propagates.
  Raw result;
  if constexpr (kNoComparisons) {
    const Int first = ((abs_bits - kSmallBits) | (kInfBits - abs_bits)) >> 31;
    result = std::bit_cast<Raw>((std::bit_cast<Int>(small) & first) |
                                (std::bit_cast<Int>(big) & ~first));
  } else {
    result = a >= kSmall ? big : small;
  }
  return V::from_raw(std::bit_cast<Raw>(std::bit_cast<Int>(result) ^ (bits ^ abs_bits)));
}

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_ERF_H_
