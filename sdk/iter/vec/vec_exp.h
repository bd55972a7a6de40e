// exp, tanh and sigmoid of float vectors, inline: e^x, tanh(x) and 1 / (1 + e^-x) in every lane, as
// straight-line vector code (no call, no per-lane loop), for the float vectors that math::exp,
// math::tanh and math::sigmoid compute (reference_backend/math/primitives.h): exp, sigmoid, silu,
// softmax, tanh, gelu's tanh form, ...
//
//   using Vec = Vectorized<float, width>;   // inside a dispatch_cpu body (cpu_capability.h)
//   Vec y = vec_math::tanh_float(Vec::loadu(x + i));
//
// exp_float and tanh_float make no vector comparisons, so both run at every width, 64-byte vectors
// on the AVX-512 path included (functors that call them may declare kWideVectors: loops.h).
// sigmoid_float compares (a clamp, and an integer maximum): for 16- and 32-byte vectors, which
// stay vector operations wherever the body is compiled (cpu_capability.h); the AVX-512 path's
// 64-byte vectors take vec_math::sigmoid. Against SLEEF's (vec_math::exp and tanh, out of line),
// from vec_inline_math_bench: tanh_float takes 0.4x its time at every width; exp_float 0.9x on
// 32-byte vectors, but 1.2x on 64-byte ones, where SLEEF's AVX-512 code scales by 2^n in one
// instruction (vscalefps) that generic vector code cannot name: primitives.h keeps SLEEF's exp
// there. libmvec's AVX2 expf took 0.65x exp_float's time on Zen 3, so primitives.h calls it on the
// AVX2 path too; exp_float serves the other widths. sigmoid_float on Zen 3's AVX2 path, 1e6
// floats: 0.75x the time of 1 / (1 + libmvec's e^-x), and as fast as libmvec's exp alone (its
// out-of-line form, like vec_math::sigmoid's, took 1.3x: the call breaks up the overlap of
// consecutive vectors' long dependency chains).
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
// sigmoid: with e = e^-|x| in (0, 1], 1 / (1 + e) for x >= 0 and e / (1 + e) below, so that
// nothing overflows; one division. e = 2^n e^r as in exp, with e^r = 1 + r + r^2 P(r), P of
// degree 4 fitted for the least relative error (kExpFit, as the AVX-512 exp's), and 2^n one
// multiplication by a scale made from n's bits. There is no subnormal scale: where n < -126 (x
// below -87.68) the scale is 0, and so is the result, as PyTorch's 1 / (1 + e^-x) is 0 from
// -88.72 on; from -87.68 to -87.34 results are subnormal, rounded once.
//
// Accuracy, measured over every float (vec_exp_test's DISABLED_EveryFloat* tests): exp within
// 0.93 ulp of the exact result (0.92 with FMA, on the AVX2 and AVX-512 paths; 0.94 without, on
// SSE2), tanh within 1.1 (0.95 with FMA, 1.08 without); SLEEF's: 1.0 for both. sigmoid within
// 2.4 (every float with FMA; every 199th without, the same). vec_exp_test checks 1.0, 1.2 and 3.0.
// The ISAs may differ in the last bit, and so may a vector and a scalar std:: tail of the same
// loop; every width gives the same bits on one ISA.
//
// Special values: e^-inf = 0, e^inf = inf, NaN gives NaN; e^+-0 = 1, and e^x = 1 for subnormal x.
// tanh(+-0) = +-0, tanh(+-inf) = +-1, NaN gives NaN; tanh(x) = x for subnormal x. sigmoid(+-0) =
// 0.5, sigmoid(inf) = 1, sigmoid(-inf) = +0, NaN gives NaN.
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

// e^r = 1 + r + r^2 P(r) for r in [-ln2/2, ln2/2], P of degree 4 fitted for the least relative
// error (tools/fit/exp_float.py: 3.1e-9), highest coefficient first: sigmoid_float's, and the
// AVX-512 exp's (vec_math_avx512.cc).
inline constexpr float kExpFit[5] = {1.381830196e-03f, 8.368532173e-03f, 4.166829214e-02f,
                                     1.666652262e-01f, 4.999999404e-01f};
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kLn2High = 0.693145751953125f;  // 15 bits: n kLn2High is exact
inline constexpr float kLn2Low = 1.428606765330187045e-06f;
inline constexpr float kShifter = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
inline constexpr int32_t kShifterBits = std::bit_cast<int32_t>(kShifter);

// exp_float on the raw vector.
template <typename Raw>
[[gnu::always_inline]] inline Raw exp_raw(Raw raw) {
  using Int = decltype(Raw{} < Raw{});  // int32 lanes, as many
  constexpr int32_t kClampBits = std::bit_cast<int32_t>(104.0f);
  constexpr int32_t kInfBits = std::bit_cast<int32_t>(std::numeric_limits<float>::infinity());

  const Int bits = std::bit_cast<Int>(raw);
  const Int abs_bits = bits & 0x7fffffff;
  // min(|x|, 104) with x's sign (NaN too, which is put back at the end); non-negative floats
  // order as their bits do.
  const Int over = abs_bits - kClampBits;
  const Raw clamped = std::bit_cast<Raw>((kClampBits + (over & (over >> 31))) | (bits ^ abs_bits));

  // n = round(x / ln2) lands in the low bits of `shifted`; r = x - n ln2.
  const Raw shifted = clamped * kLog2e + kShifter;
  const Raw n = shifted - kShifter;
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

// 1 / (1 + e^-x) in every lane (see the file comment).
template <FloatVector V>
[[gnu::always_inline]] inline V sigmoid_float(V x) {
  using Raw = typename V::Raw;
  using Int = decltype(Raw{} < Raw{});
  using namespace vec_exp_detail;
  Raw raw;
  x.store(&raw);
  const Int bits = std::bit_cast<Int>(raw);
  const Int negative = bits >> 31;  // every bit set where the sign bit is (-0.0 and -NaN too)
  // a = -|x|, clamped to -104 (NaN compares false and stays NaN), so that n stays within the
  // shifter's low bits.
  const Raw a = std::bit_cast<Raw>(bits | std::numeric_limits<int32_t>::min());
  const Raw c = a < -104.0f ? Raw{} - 104.0f : a;
  const Raw shifted = c * kLog2e + kShifter;
  const Raw n = shifted - kShifter;
  const Raw r = (c - n * kLn2High) - n * kLn2Low;
  Raw p = Raw{} + kExpFit[0];
  p = p * r + kExpFit[1];
  p = p * r + kExpFit[2];
  p = p * r + kExpFit[3];
  p = p * r + kExpFit[4];
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // 2^n from n's bits; 0 for n < -126 (no subnormal scale), which flushes e to 0 there.
  const Int biased = (std::bit_cast<Int>(shifted) - kShifterBits) + 127;
  const Raw e = p * std::bit_cast<Raw>((biased < 0 ? Int{} : biased) << 23);
  const Int one = std::bit_cast<Int>(Raw{} + 1.0f);
  const Raw numerator = std::bit_cast<Raw>((std::bit_cast<Int>(e) & negative) | (one & ~negative));
  return V::from_raw(numerator / (e + 1.0f));
}

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_EXP_H_
