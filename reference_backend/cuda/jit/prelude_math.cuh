// Device prelude: the functions of reference_backend/math/primitives.h for NVRTC.
//
// The math functors (reference_backend/math/*.h) call these unqualified from namespace bp::math
// with their compute type T: float, double, an integer type, bool or bp::complex<float/double>.
// As on the host, each returns T: floats and doubles use CUDA's libdevice functions (expf, exp),
// integers go through double (what std::exp(int) does on the host), complex values use the
// formulas below (C99 Annex G's special cases where they matter; c10::complex's algorithms for
// log1p and expm1).
//
// The set is wider than primitives.h today so that functors being written compile on the device
// too; a function added to primitives.h must exist here with the same meaning, which
// //reference_backend/cuda:prelude_test checks (every primitive compiles for float and double)
// along with the NVRTC compile of every op. The portable scalar layer (sdk/core/portable: element
// types, casts; reference_backend/math/traits.h) comes first in every program.
namespace bp {
namespace jit {

// ---- Real functions by name, for float and double -----------------------------------------------

#define BP_JIT_REAL_1(name, float_fn, double_fn)                 \
  BP_INLINE float real_##name(float x) { return ::float_fn(x); } \
  BP_INLINE double real_##name(double x) { return ::double_fn(x); }
#define BP_JIT_REAL_2(name, float_fn, double_fn)                             \
  BP_INLINE float real_##name(float x, float y) { return ::float_fn(x, y); } \
  BP_INLINE double real_##name(double x, double y) { return ::double_fn(x, y); }

BP_JIT_REAL_1(exp, expf, exp)
BP_JIT_REAL_1(exp2, exp2f, exp2)
BP_JIT_REAL_1(expm1, expm1f, expm1)
BP_JIT_REAL_1(log, logf, log)
BP_JIT_REAL_1(log2, log2f, log2)
BP_JIT_REAL_1(log10, log10f, log10)
BP_JIT_REAL_1(log1p, log1pf, log1p)
BP_JIT_REAL_1(sqrt, sqrtf, sqrt)
BP_JIT_REAL_1(rsqrt, rsqrtf, rsqrt)
BP_JIT_REAL_1(cbrt, cbrtf, cbrt)
BP_JIT_REAL_1(sin, sinf, sin)
BP_JIT_REAL_1(cos, cosf, cos)
BP_JIT_REAL_1(tan, tanf, tan)
BP_JIT_REAL_1(asin, asinf, asin)
BP_JIT_REAL_1(acos, acosf, acos)
BP_JIT_REAL_1(atan, atanf, atan)
BP_JIT_REAL_1(sinh, sinhf, sinh)
BP_JIT_REAL_1(cosh, coshf, cosh)
BP_JIT_REAL_1(tanh, tanhf, tanh)
BP_JIT_REAL_1(asinh, asinhf, asinh)
BP_JIT_REAL_1(acosh, acoshf, acosh)
BP_JIT_REAL_1(atanh, atanhf, atanh)
BP_JIT_REAL_1(erf, erff, erf)
BP_JIT_REAL_1(erfc, erfcf, erfc)
BP_JIT_REAL_1(erfinv, erfinvf, erfinv)
BP_JIT_REAL_1(lgamma, lgammaf, lgamma)
BP_JIT_REAL_1(tgamma, tgammaf, tgamma)
BP_JIT_REAL_1(ceil, ceilf, ceil)
BP_JIT_REAL_1(floor, floorf, floor)
BP_JIT_REAL_1(trunc, truncf, trunc)
BP_JIT_REAL_1(round, roundf, round)
BP_JIT_REAL_1(nearbyint, nearbyintf, nearbyint)
BP_JIT_REAL_1(rint, rintf, rint)
BP_JIT_REAL_1(abs, fabsf, fabs)
BP_JIT_REAL_2(pow, powf, pow)
BP_JIT_REAL_2(atan2, atan2f, atan2)
BP_JIT_REAL_2(fmod, fmodf, fmod)
BP_JIT_REAL_2(remainder, remainderf, remainder)
BP_JIT_REAL_2(copysign, copysignf, copysign)
BP_JIT_REAL_2(hypot, hypotf, hypot)
BP_JIT_REAL_2(fmax, fmaxf, fmax)
BP_JIT_REAL_2(fmin, fminf, fmin)
BP_JIT_REAL_2(nextafter, nextafterf, nextafter)

#undef BP_JIT_REAL_1
#undef BP_JIT_REAL_2

template <typename T>
BP_INLINE bool real_isnan(T x) {
  return x != x;
}
template <typename T>
BP_INLINE bool real_isinf(T x) {
  return x == math::infinity<T>() || x == -math::infinity<T>();
}

// ---- Complex functions --------------------------------------------------------------------------

template <typename T>
BP_INLINE T complex_abs(complex<T> z) {
  return real_hypot(z.real(), z.imag());
}

// C's cexp (C99 Annex G) as the host's std::exp computes it (glibc's __cexp, whose choices the
// standard leaves open are taken too), so that both backends give the same special values:
//   x + 0i:            e^x + 0i (the zero's sign kept), also for x = +-inf and NaN + 0i
//   +-inf + iy:        inf cis(y) / +0 cis(y) for finite y != 0
//   +inf + i(inf|NaN): inf + i NaN;  -inf + i(inf|NaN): 0 + 0i, the zero with y's sign
//   finite x + i(inf|NaN), NaN + iy (y != 0): NaN + i NaN
// A finite x above t (88 for float, 709 for double), where e^x overflows but e^x cos y may not,
// folds e^t into cos y and sin y first (up to twice; beyond 3t the result overflows), as glibc.
template <typename T>
BP_INLINE complex<T> complex_exp(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T inf = math::infinity<T>();
  const bool y_finite = !real_isinf(y) && !real_isnan(y);
  if (real_isnan(x)) return complex<T>(x, y == T(0) ? y : math::quiet_nan<T>());
  if (real_isinf(x)) {
    const T value = x > T(0) ? inf : T(0);
    if (y == T(0)) return complex<T>(value, y);
    if (y_finite) {
      return complex<T>(real_copysign(value, real_cos(y)), real_copysign(value, real_sin(y)));
    }
    return x > T(0) ? complex<T>(inf, y - y) : complex<T>(T(0), real_copysign(T(0), y));
  }
  if (!y_finite) return complex<T>(math::quiet_nan<T>(), math::quiet_nan<T>());
  if (y == T(0)) return complex<T>(real_exp(x), y);
  T c = real_cos(y), s = real_sin(y), r = x;
  T t, largest;
  if constexpr (portable::is_same_v<T, float>) {
    t = 88.0f;
    largest = 3.40282347e+38f;
  } else {
    t = 709.0;
    largest = 1.7976931348623157e+308;
  }
  for (int i = 0; i < 2 && r > t; ++i) {
    const T e_t = real_exp(t);
    r -= t;
    c *= e_t;
    s *= e_t;
  }
  if (r > t) return complex<T>(largest * c, largest * s);  // overflows to +-inf
  const T e = real_exp(r);
  return complex<T>(e * c, e * s);
}

template <typename T>
BP_INLINE complex<T> complex_log(complex<T> z) {
  return complex<T>(real_log(complex_abs(z)), real_atan2(z.imag(), z.real()));
}

template <typename T>
BP_INLINE complex<T> complex_log2(complex<T> z) {
  return complex_log(z) / T(0.6931471805599453094);
}

template <typename T>
BP_INLINE complex<T> complex_log10(complex<T> z) {
  return complex_log(z) / T(2.3025850929940456840);
}

// c10::complex's log1p: accurate for small |z|.
template <typename T>
BP_INLINE complex<T> complex_log1p(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T theta = real_atan2(y, x + T(1));
  if (complex_abs(z) < T(0.5)) {
    const T r = x * (T(2) + x) + y * y;
    if (r == T(0)) return complex<T>(x, theta);
    return complex<T>(T(0.5) * real_log1p(r), theta);
  }
  return complex<T>(real_log(real_hypot(x + T(1), y)), theta);
}

// c10::complex's expm1: accurate for small |z|.
template <typename T>
BP_INLINE complex<T> complex_expm1(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T a = real_sin(y / T(2));
  return complex<T>(real_expm1(x) * real_cos(y) - T(2) * a * a, real_exp(x) * real_sin(y));
}

// The principal square root, branch cut along the negative real axis (Kahan's method).
template <typename T>
BP_INLINE complex<T> complex_sqrt(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  if (real_isinf(y)) return complex<T>(math::infinity<T>(), y);
  if (real_isnan(x)) return complex<T>(x, x);
  if (real_isinf(x)) {
    if (x > T(0)) return complex<T>(x, real_isnan(y) ? y : real_copysign(T(0), y));
    return complex<T>(real_isnan(y) ? real_abs(y) : T(0), real_copysign(-x, y));
  }
  const T t = real_sqrt((real_abs(x) + real_hypot(x, y)) / T(2));
  if (x >= T(0)) return complex<T>(t, y / (T(2) * t));
  return complex<T>(real_abs(y) / (T(2) * t), real_copysign(t, y));
}

template <typename T>
BP_INLINE complex<T> complex_rsqrt(complex<T> z) {
  return complex<T>(T(1)) / complex_sqrt(z);
}

template <typename T>
BP_INLINE complex<T> complex_sinh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (y == T(0)) return complex<T>(real_sinh(x), y);
  return complex<T>(real_sinh(x) * real_cos(y), real_cosh(x) * real_sin(y));
}

template <typename T>
BP_INLINE complex<T> complex_cosh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (y == T(0)) return complex<T>(real_cosh(x), x == T(0) ? T(0) : real_sinh(x) * y);
  return complex<T>(real_cosh(x) * real_cos(y), real_sinh(x) * real_sin(y));
}

// Kahan's algorithm (as in FreeBSD's ctanh): no overflow for large |Re z|.
template <typename T>
BP_INLINE complex<T> complex_tanh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (real_isnan(x)) return complex<T>(x, y == T(0) ? y : x);
  if (real_isinf(x)) {
    const T one = real_copysign(T(1), x);
    if (real_isinf(y) || real_isnan(y)) return complex<T>(one, real_copysign(T(0), y));
    return complex<T>(one, real_copysign(T(0), real_sin(y) * real_cos(y)));
  }
  // glibc's ctanh (the host's std::tanh) for an infinite or NaN y: NaN + NaN i, or x + NaN i
  // for x = +-0 (C11).
  if (real_isinf(y) || real_isnan(y)) {
    return complex<T>(x == T(0) ? x : math::quiet_nan<T>(), math::quiet_nan<T>());
  }
  if (y == T(0)) return complex<T>(real_tanh(x), y);
  if (real_abs(x) >= T(22)) {
    const T e = real_exp(-real_abs(x));
    return complex<T>(real_copysign(T(1), x), T(4) * real_sin(y) * real_cos(y) * e * e);
  }
  const T t = real_tan(y);
  const T beta = T(1) + t * t;
  const T s = real_sinh(x);
  const T rho = real_sqrt(T(1) + s * s);
  const T denom = T(1) + beta * s * s;
  return complex<T>(beta * rho * s / denom, t / denom);
}

// sin(z) = sin x cosh y + i cos x sinh y, as the host's std::sin (glibc's csin) computes it,
// special values included (C99 Annex G through csin(z) = -i csinh(iz), with glibc's signs):
//   +-0 + i(+-inf): z itself;  finite x + i(+-inf): inf sign(sin x) + i inf sign(cos x) sign(y)
//   +-inf or NaN + i(+-inf): NaN + i inf;  x + i NaN: NaN + i NaN, or x + i NaN for x = +-0
//   +-inf or NaN + iy: NaN + i NaN, or NaN + iy for y = +-0
// For |y| above t (88 for float, 709 for double) cosh y and sinh y are e^|y| / 2, with e^t
// folded into sin x and cos x first (up to twice), so that results that fit do not overflow.
template <typename T>
BP_INLINE complex<T> complex_sin(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T inf = math::infinity<T>();
  const bool x_finite = !real_isinf(x) && !real_isnan(x);
  if (real_isinf(y)) {
    if (x == T(0)) return z;
    if (x_finite) {
      return complex<T>(real_copysign(inf, real_sin(x)), real_copysign(inf, real_cos(x) * y));
    }
    return complex<T>(x - x, inf);
  }
  if (real_isnan(y)) return complex<T>(x == T(0) ? x : math::quiet_nan<T>(), y);
  if (!x_finite) return complex<T>(x - x, y == T(0) ? y : math::quiet_nan<T>());
  T s = real_sin(x), c = real_cos(x);
  T t, largest;
  if constexpr (portable::is_same_v<T, float>) {
    t = 88.0f;
    largest = 3.40282347e+38f;
  } else {
    t = 709.0;
    largest = 1.7976931348623157e+308;
  }
  if (real_abs(y) <= t) return complex<T>(real_cosh(y) * s, real_sinh(y) * c);
  const T e_t = real_exp(t);
  T r = real_abs(y) - t;
  s *= e_t / T(2);
  c *= (y < T(0) ? -e_t : e_t) / T(2);
  if (r > t) {
    r -= t;
    s *= e_t;
    c *= e_t;
  }
  if (r > t) return complex<T>(largest * s, largest * c);  // overflows to +-inf
  const T e = real_exp(r);
  return complex<T>(e * s, e * c);
}

// cos(z) = cosh(iz), tan(z) = -i tanh(iz).
template <typename T>
BP_INLINE complex<T> complex_cos(complex<T> z) {
  return complex_cosh(complex<T>(-z.imag(), z.real()));
}

template <typename T>
BP_INLINE complex<T> complex_tan(complex<T> z) {
  const complex<T> w = complex_tanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}

template <typename T>
BP_INLINE complex<T> complex_asinh(complex<T> z) {
  return complex_log(z + complex_sqrt(z * z + T(1)));
}

template <typename T>
BP_INLINE complex<T> complex_acosh(complex<T> z) {
  return complex_log(z + complex_sqrt(z + T(1)) * complex_sqrt(z - T(1)));
}

template <typename T>
BP_INLINE complex<T> complex_atanh(complex<T> z) {
  return (complex_log1p(z) - complex_log1p(-z)) * T(0.5);
}

// asin(z) = -i asinh(iz), atan(z) = -i atanh(iz), acos(z) = pi/2 - asin(z).
template <typename T>
BP_INLINE complex<T> complex_asin(complex<T> z) {
  const complex<T> w = complex_asinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}

template <typename T>
BP_INLINE complex<T> complex_acos(complex<T> z) {
  const complex<T> w = complex_asin(z);
  return complex<T>(T(1.5707963267948966192) - w.real(), -w.imag());
}

template <typename T>
BP_INLINE complex<T> complex_atan(complex<T> z) {
  const complex<T> w = complex_atanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}

// For complex_mul_c99: an infinite operand (p, q) becomes a box of +-1 and +-0 (signs kept), the
// other operand's (r, s) NaN parts +-0.
template <typename T>
BP_INLINE void c99_box_infinite(T& p, T& q, T& r, T& s) {
  p = real_copysign(real_isinf(p) ? T(1) : T(0), p);
  q = real_copysign(real_isinf(q) ? T(1) : T(0), q);
  if (real_isnan(r)) r = real_copysign(T(0), r);
  if (real_isnan(s)) s = real_copysign(T(0), s);
}

// z * w as C's complex `*` (C99 Annex G's _Cmultd, libgcc's __muldc3): the plain formula,
// recomputed when both parts come out NaN while an operand or a partial product is infinite, so
// that an infinite product stays infinite: (inf + NaN i) * 2 is inf + NaN i, not NaN + NaN i.
template <typename T>
BP_INLINE complex<T> complex_mul_c99(complex<T> z, complex<T> w) {
  T a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  const T x = ac - bd, y = ad + bc;
  if (!real_isnan(x) || !real_isnan(y)) return complex<T>(x, y);
  bool recalc = false;
  if (real_isinf(a) || real_isinf(b)) {
    c99_box_infinite(a, b, c, d);
    recalc = true;
  }
  if (real_isinf(c) || real_isinf(d)) {
    c99_box_infinite(c, d, a, b);
    recalc = true;
  }
  if (!recalc && (real_isinf(ac) || real_isinf(bd) || real_isinf(ad) || real_isinf(bc))) {
    if (real_isnan(a)) a = real_copysign(T(0), a);
    if (real_isnan(b)) b = real_copysign(T(0), b);
    if (real_isnan(c)) c = real_copysign(T(0), c);
    if (real_isnan(d)) d = real_copysign(T(0), d);
    recalc = true;
  }
  if (!recalc) return complex<T>(x, y);
  const T inf = math::infinity<T>();
  return complex<T>(inf * (a * c - b * d), inf * (a * d + b * c));
}

// C's cpow, which the host's std::pow uses (glibc): exp(exponent * log(base)) with C's complex
// product and no special case (so 0^0 is NaN, as on the host).
template <typename T>
BP_INLINE complex<T> complex_pow(complex<T> base, complex<T> exponent) {
  return complex_exp(complex_mul_c99(exponent, complex_log(base)));
}

template <typename T>
BP_INLINE bool complex_isnan(complex<T> z) {
  return real_isnan(z.real()) || real_isnan(z.imag());
}

}  // namespace jit

// ---- The primitives, for every compute type -----------------------------------------------------

namespace math {

// T name(T): real types directly, complex ones through complex_<name>, integers through double.
#define BP_JIT_PRIMITIVE_1(name)                                                     \
  template <typename T>                                                              \
  BP_INLINE T name(T x) {                                                            \
    if constexpr (portable::is_same_v<T, float> || portable::is_same_v<T, double>) { \
      return jit::real_##name(x);                                                    \
    } else if constexpr (is_complex_v<T>) {                                          \
      return jit::complex_##name(x);                                                 \
    } else {                                                                         \
      return static_cast<T>(jit::real_##name(static_cast<double>(x)));               \
    }                                                                                \
  }
// T name(T) without a complex form.
#define BP_JIT_REAL_PRIMITIVE_1(name)                                                \
  template <typename T>                                                              \
  BP_INLINE T name(T x) {                                                            \
    if constexpr (portable::is_same_v<T, float> || portable::is_same_v<T, double>) { \
      return jit::real_##name(x);                                                    \
    } else {                                                                         \
      static_assert(!is_complex_v<T>, #name " has no complex form");                 \
      return static_cast<T>(jit::real_##name(static_cast<double>(x)));               \
    }                                                                                \
  }
// T name(T, T): real types only (pow also for complex).
#define BP_JIT_PRIMITIVE_2(name)                                                               \
  template <typename T>                                                                        \
  BP_INLINE T name(T x, T y) {                                                                 \
    if constexpr (portable::is_same_v<T, float> || portable::is_same_v<T, double>) {           \
      return jit::real_##name(x, y);                                                           \
    } else {                                                                                   \
      static_assert(!is_complex_v<T>, #name " has no complex form");                           \
      return static_cast<T>(jit::real_##name(static_cast<double>(x), static_cast<double>(y))); \
    }                                                                                          \
  }

BP_JIT_PRIMITIVE_1(exp)
BP_JIT_PRIMITIVE_1(expm1)
BP_JIT_PRIMITIVE_1(log)
BP_JIT_PRIMITIVE_1(log2)
BP_JIT_PRIMITIVE_1(log10)
BP_JIT_PRIMITIVE_1(log1p)
BP_JIT_PRIMITIVE_1(sqrt)
BP_JIT_PRIMITIVE_1(rsqrt)
BP_JIT_PRIMITIVE_1(sin)
BP_JIT_PRIMITIVE_1(cos)
BP_JIT_PRIMITIVE_1(tan)
BP_JIT_PRIMITIVE_1(asin)
BP_JIT_PRIMITIVE_1(acos)
BP_JIT_PRIMITIVE_1(atan)
BP_JIT_PRIMITIVE_1(sinh)
BP_JIT_PRIMITIVE_1(cosh)
BP_JIT_PRIMITIVE_1(tanh)
BP_JIT_PRIMITIVE_1(asinh)
BP_JIT_PRIMITIVE_1(acosh)
BP_JIT_PRIMITIVE_1(atanh)
BP_JIT_REAL_PRIMITIVE_1(exp2)
BP_JIT_REAL_PRIMITIVE_1(cbrt)
BP_JIT_REAL_PRIMITIVE_1(erf)
BP_JIT_REAL_PRIMITIVE_1(erfc)
BP_JIT_REAL_PRIMITIVE_1(erfinv)
BP_JIT_REAL_PRIMITIVE_1(lgamma)
BP_JIT_REAL_PRIMITIVE_1(tgamma)
BP_JIT_REAL_PRIMITIVE_1(ceil)
BP_JIT_REAL_PRIMITIVE_1(floor)
BP_JIT_REAL_PRIMITIVE_1(trunc)
BP_JIT_REAL_PRIMITIVE_1(round)
BP_JIT_REAL_PRIMITIVE_1(nearbyint)
BP_JIT_REAL_PRIMITIVE_1(rint)
BP_JIT_PRIMITIVE_2(atan2)
BP_JIT_PRIMITIVE_2(fmod)
BP_JIT_PRIMITIVE_2(remainder)
BP_JIT_PRIMITIVE_2(copysign)
BP_JIT_PRIMITIVE_2(hypot)
BP_JIT_PRIMITIVE_2(fmax)
BP_JIT_PRIMITIVE_2(fmin)
BP_JIT_PRIMITIVE_2(nextafter)

#undef BP_JIT_PRIMITIVE_1
#undef BP_JIT_REAL_PRIMITIVE_1
#undef BP_JIT_PRIMITIVE_2

// pow(T, T): reals through libdevice, complex values as exp(y log x), integers through double.
template <typename T>
BP_INLINE T pow(T x, T y) {
  if constexpr (portable::is_same_v<T, float> || portable::is_same_v<T, double>) {
    return jit::real_pow(x, y);
  } else if constexpr (is_complex_v<T>) {
    return jit::complex_pow(x, y);
  } else {
    return static_cast<T>(jit::real_pow(static_cast<double>(x), static_cast<double>(y)));
  }
}

// abs(T): |x|. Floating: the sign bit cleared; signed integers: the minimum wraps to itself;
// unsigned values and bool are their own. Complex: the magnitude, of the real type (hypot).
template <typename T>
BP_INLINE auto abs(T x) {
  if constexpr (portable::is_same_v<T, float> || portable::is_same_v<T, double>) {
    return jit::real_abs(x);
  } else if constexpr (is_complex_v<T>) {
    return jit::complex_abs(x);
  } else if constexpr (is_signed_v<T>) {
    return x < T(0) ? T(T(0) - x) : x;
  } else {
    return x;
  }
}

// The larger (smaller) of a and b; NaN when either is NaN (a + b keeps the NaN operand's
// payload); a when they compare equal (maximum(0.0, -0.0) is 0.0, maximum(-0.0, 0.0) is -0.0),
// as std::max (std::min) and on the host. bool: or (and).
template <typename T>
BP_INLINE T maximum(T a, T b) {
  if constexpr (is_bool_v<T>) {
    return a || b;
  } else if constexpr (is_floating_v<T>) {
    return a != a || b != b ? a + b : (a < b ? b : a);
  } else {
    return a < b ? b : a;
  }
}
template <typename T>
BP_INLINE T minimum(T a, T b) {
  if constexpr (is_bool_v<T>) {
    return a && b;
  } else if constexpr (is_floating_v<T>) {
    return a != a || b != b ? a + b : (b < a ? b : a);
  } else {
    return b < a ? b : a;
  }
}

// select(condition, a, b): a where the condition holds, else b (both evaluated).
template <typename T>
BP_INLINE T select(bool condition, T a, T b) {
  return condition ? a : b;
}

// Classification: false for integers and bool, as std::isnan(int) is.
template <typename T>
BP_INLINE bool isnan(T x) {
  if constexpr (is_complex_v<T>) {
    return jit::complex_isnan(x);
  } else if constexpr (is_floating_v<T>) {
    return jit::real_isnan(x);
  } else {
    return false;
  }
}
template <typename T>
BP_INLINE bool isinf(T x) {
  if constexpr (is_floating_v<T>) {
    return jit::real_isinf(x);
  } else {
    static_assert(!is_complex_v<T>, "isinf has no complex form");
    return false;
  }
}
template <typename T>
BP_INLINE bool isfinite(T x) {
  if constexpr (is_floating_v<T>) {
    return !jit::real_isnan(x) && !jit::real_isinf(x);
  } else {
    static_assert(!is_complex_v<T>, "isfinite has no complex form");
    return true;
  }
}
template <typename T>
BP_INLINE bool signbit(T x) {
  if constexpr (portable::is_same_v<T, float>) {
    return (portable::bit_cast<uint32_t>(x) >> 31) != 0;
  } else if constexpr (portable::is_same_v<T, double>) {
    return (__builtin_bit_cast(uint64_t, x) >> 63) != 0;
  } else {
    static_assert(!is_complex_v<T>, "signbit has no complex form");
    return x < T(0);
  }
}

}  // namespace math
}  // namespace bp
