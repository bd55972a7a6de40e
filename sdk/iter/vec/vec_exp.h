// exp and tanh of float vectors, inline: e^x and tanh(x) in every lane, as straight-line vector
// code (no call, no per-lane loop, no vector comparison), for the float vectors that math::exp
// and math::tanh compute (reference_backend/math/primitives.h): exp, sigmoid, silu, softmax, tanh,
// gelu's tanh form, ...
//
//   using Vec = Vectorized<float, width>;   // inside a dispatch_cpu body (cpu_capability.h)
//   Vec y = vec_math::tanh_float(Vec::loadu(x + i));
//
// Neither makes vector comparisons, so both run at every width, 64-byte vectors on the AVX-512
// path included (functors that call them may declare kWideVectors: loops.h). Against SLEEF's
// (vec_math::exp and tanh, out of line), from vec_inline_math_bench: tanh_float takes 0.4x its
// time at every width; exp_float 0.9x on 32-byte vectors, but 1.2x on 64-byte ones, where
// SLEEF's AVX-512 code scales by 2^n in one instruction (vscalefps) that generic vector code
// cannot name: primitives.h keeps SLEEF's exp there. libmvec's AVX2 expf took 0.65x exp_float's
// time on Zen 3, so primitives.h calls it on the AVX2 path too; exp_float serves the other widths.
//
// exp: e^x = 2^n e^r with n = round(x / ln2) and r = x - n ln2 in [-ln2/2, ln2/2] (Cody-Waite:
// ln2 in two parts, the first exact in n ln2; r as a float and what its rounding lost); e^r = 1 + q
// with q = r + r^2 P(r), P the Taylor polynomial of degree 5 (truncation error 5e-9, 0.04 ulp);
// the result 2^n1 (1 + q) 2^n2, where the first product is one rounding (an FMA where the ISA has
// it) and n = n1 + n2 keeps both factors normal floats, so results in the subnormal range are
// rounded once and those past FLT_MAX overflow to inf. |x| is clamped to 104 first (e^-104 rounds
// to 0, e^104 overflows), on the bits: integer arithmetic instead of comparisons.
//
// tanh: for |x| < 1, x + x^3 P(x^2) with P of degree 6 (fitted for the least maximum relative
// error: tools/fit/tanh_float.py); from 1 on, 1 - 2 / (e^2|x| + 1) with x's sign. Every lane
// computes both forms.
//
// Accuracy, measured over every float (vec_exp_test's DISABLED_EveryFloat* tests): exp within
// 0.93 ulp of the exact result (0.92 with FMA, on the AVX2 and AVX-512 paths; 0.94 without, on
// SSE2), tanh within 1.1 (0.95 with FMA, 1.08 without); SLEEF's: 1.0 for both. vec_exp_test checks
// 1.0 and 1.2. The ISAs may differ in the last bit, and so may a vector and a scalar std:: tail
// of the same loop; every width gives the same bits on one ISA.
//
// Special values: e^-inf = 0, e^inf = inf, NaN gives NaN; e^+-0 = 1, and e^x = 1 for subnormal x.
// tanh(+-0) = +-0, tanh(+-inf) = +-1, NaN gives NaN; tanh(x) = x for subnormal x.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_EXP_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_EXP_H_

#include <bit>
#include <cstdint>
#include <limits>

#include "sdk/iter/vec/float_vector.h"

namespace bp::vec_math {

namespace vec_exp_detail {

// exp_float on the raw vector.
template <typename Raw>
[[gnu::always_inline]] inline Raw exp_raw(Raw raw) {
  using Int = decltype(Raw{} < Raw{});  // int32 lanes, as many
  constexpr int32_t kClampBits = std::bit_cast<int32_t>(104.0f);
  constexpr int32_t kInfBits = std::bit_cast<int32_t>(std::numeric_limits<float>::infinity());
  constexpr float kShifter = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  constexpr int32_t kShifterBits = std::bit_cast<int32_t>(kShifter);

  const Int bits = std::bit_cast<Int>(raw);
  const Int abs_bits = bits & 0x7fffffff;
  // min(|x|, 104) with x's sign (NaN too, which is put back at the end); non-negative floats
  // order as their bits do.
  const Int over = abs_bits - kClampBits;
  const Raw clamped = std::bit_cast<Raw>((kClampBits + (over & (over >> 31))) | (bits ^ abs_bits));

  // n = round(x / ln2) lands in the low bits of `shifted`; r = x - n ln2.
  const Raw shifted = clamped * 1.44269504088896341f + kShifter;
  const Raw n = shifted - kShifter;
  constexpr float kLn2High = 0.693145751953125f;  // 15 bits: n kLn2High is exact
  constexpr float kLn2Low = 1.428606765330187045e-06f;
  const Raw t = clamped - n * kLn2High;
  const Raw r = t - n * kLn2Low;
  // What rounding r lost (all of it with FMA): added to q, it takes the largest error from 1.03
  // ulp to 0.92.
  const Raw r_low = (t - r) - n * kLn2Low;
  Raw p = Raw{} + 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  const Raw q = r + ((r * r) * p + r_low);

  // n in [-150, 150] split as n1 = min(max(n, -100), 127) and n2 = n - n1 in [-50, 23].
  const Int ni = std::bit_cast<Int>(shifted) - kShifterBits;
  const Int above = ni + 100;
  const Int n1_low = (above & ~(above >> 31)) - 100;
  const Int below = n1_low - 127;
  const Int n1 = 127 + (below & (below >> 31));
  const Raw scale1 = std::bit_cast<Raw>((n1 + 127) << 23);
  const Raw scale2 = std::bit_cast<Raw>((ni - n1 + 127) << 23);
  const Raw result = (q * scale1 + scale1) * scale2;

  // NaN in, a quiet NaN out.
  const Int nan = (kInfBits - abs_bits) >> 31;
  return std::bit_cast<Raw>(std::bit_cast<Int>(result) | (nan & 0x7fc00000));
}

}  // namespace vec_exp_detail

// e^x in every lane (see the file comment).
template <FloatVector V>
[[gnu::always_inline]] inline V exp_float(V x) {
  typename V::Raw raw;
  x.store(&raw);
  return V::from_raw(vec_exp_detail::exp_raw(raw));
}

// tanh(x) in every lane (see the file comment).
template <FloatVector V>
[[gnu::always_inline]] inline V tanh_float(V x) {
  using Raw = typename V::Raw;
  using Int = decltype(Raw{} < Raw{});
  constexpr int32_t kOneBits = std::bit_cast<int32_t>(1.0f);
  Raw raw;
  x.store(&raw);
  const Int bits = std::bit_cast<Int>(raw);
  const Int abs_bits = bits & 0x7fffffff;
  const Int sign = bits ^ abs_bits;
  const Raw a = std::bit_cast<Raw>(abs_bits);

  // x + x^3 P(x^2).
  const Raw z = raw * raw;
  Raw p = Raw{} - 3.583944344e-04f;
  p = p * z + 2.301222179e-03f;
  p = p * z - 7.946009748e-03f;
  p = p * z + 2.148667537e-02f;
  p = p * z - 5.387984589e-02f;
  p = p * z + 1.333234608e-01f;
  p = p * z - 3.333329558e-01f;
  const Raw small = (p * z) * raw + raw;

  // 1 - 2 / (e^2a + 1), with x's sign: 1 from a = 9.01 on (inf from 44.4), NaN for NaN.
  const Raw big = 1.0f - 2.0f / (vec_exp_detail::exp_raw(a + a) + 1.0f);
  const Int big_bits = std::bit_cast<Int>(big) | sign;

  // The first form below 1, with x's sign put back for -0.0 (x + x (x^2 P) is +0.0 there).
  const Int first = (abs_bits - kOneBits) >> 31;
  const Int small_bits = std::bit_cast<Int>(small) | sign;
  return V::from_raw(std::bit_cast<Raw>((small_bits & first) | (big_bits & ~first)));
}

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_EXP_H_
