// Backplane's own AVX-512F code for vec_math's float exp and sigmoid on 64-byte vectors (see
// vec_math.h, namespace own): written with the instructions generic vector code cannot name
// (vscalefps scales by 2^n and so overflows to inf and rounds into the subnormals by itself;
// vrndscaleps rounds; vrcp14ps starts the reciprocal), so each is straight-line code with no
// comparison beyond sigmoid's sign test. Out of line and called by value, as SLEEF's and
// libmvec's functions are: the caller passes the vector in a zmm register.
//
// Measured on Zen 4, 1e6 floats in [-5, 5), one thread, out of place (2026-11-28; docs/design/
// iter.md): exp 0.8x SLEEF's u10 time and 0.6-0.8x libmvec's; sigmoid 0.7x of 1 / (1 + SLEEF's
// exp), and 0.9x libmvec's bare exp loop.
#include "sdk/iter/vec/vec_exp.h"
#include "sdk/iter/vec/vec_math.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

// GCC 12's intrinsics start their results from _mm512_undefined_ps() (`__m512 __Y = __Y;`), which
// -Wuninitialized reports once inlined here; every lane is written.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace bp::vec_math_detail::own {
namespace {

// e^x for x in [-104, 89] (NaN passes through): e^x = 2^n e^r with n = round(x / ln2) and
// r = x - n ln2 in [-ln2/2, ln2/2] (Cody-Waite, both FMAs: ln2 in two parts); e^r = 1 + r +
// r^2 P(r), P of degree 4 fitted for the least relative error (tools/fit/exp_float.py: 3.1e-9),
// in Horner form to the end (6 FMAs); vscalefps multiplies by 2^n, rounding once, to 0 below
// e^-104 and to inf above FLT_MAX. 0.89 ulp at most over every float (measured once;
// vec_math_test checks a sample).
[[gnu::target("avx512f"), gnu::always_inline]] inline __m512 exp_in_range(__m512 x) {
  using namespace ::bp::vec_math::vec_exp_detail;
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kLog2e)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2High), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Low), r);
  __m512 p = _mm512_set1_ps(kExpFit[0]);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpFit[1]));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpFit[2]));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpFit[3]));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kExpFit[4]));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

// max(lo, x) and min(hi, x) with x second: vmaxps / vminps return their second operand when
// either is NaN, so NaN lanes stay NaN.
[[gnu::target("avx512f"), gnu::always_inline]] inline __m512 at_least(float lo, __m512 x) {
  return _mm512_max_ps(_mm512_set1_ps(lo), x);
}
[[gnu::target("avx512f"), gnu::always_inline]] inline __m512 at_most(float hi, __m512 x) {
  return _mm512_min_ps(_mm512_set1_ps(hi), x);
}

}  // namespace

[[gnu::target("avx512f")]] F16 exp(F16 v) {
  // e^-104 rounds to 0 and e^89 overflows: clamping there keeps r finite for +-inf.
  const __m512 x = at_most(89.0f, at_least(-104.0f, reinterpret_cast<__m512>(v)));
  return reinterpret_cast<F16>(exp_in_range(x));
}

[[gnu::target("avx512f")]] F16 sigmoid(F16 v) {
  // With e = e^-|x| in (0, 1] and d = 1 + e in (1, 2]: 1 / d for x >= 0, e / d below, so that
  // nothing overflows and tiny results keep their digits (PyTorch's 1 / (1 + e^-x) gives 0 below
  // -88.7). 1 / d from vrcp14ps (14 bits) and one Newton step. 2.8 ulp at most over every float
  // (measured once; vec_math_test checks a sample).
  const __m512 x = reinterpret_cast<__m512>(v);
  // -|x| as min(-x, x), x second so that NaN stays NaN; float ops only (an integer OR of the
  // sign bit measured 5% slower: the domain crossing).
  const __m512 minus_abs = _mm512_min_ps(_mm512_sub_ps(_mm512_setzero_ps(), x), x);
  const __m512 e = exp_in_range(at_least(-104.0f, minus_abs));
  const __m512 d = _mm512_add_ps(e, _mm512_set1_ps(1.0f));
  __m512 y = _mm512_rcp14_ps(d);
  y = _mm512_fmadd_ps(_mm512_fnmadd_ps(d, y, _mm512_set1_ps(1.0f)), y, y);
  const __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  return reinterpret_cast<F16>(_mm512_mask_mul_ps(y, negative, e, y));
}

}  // namespace bp::vec_math_detail::own

#endif  // defined(__x86_64__)
