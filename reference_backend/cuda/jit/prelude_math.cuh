// Device prelude: the functions of reference_backend/math/primitives.h for NVRTC.
//
// The math functors (reference_backend/math/*.h) call these unqualified from namespace bp::math
// with their compute type T: float, double, an integer type, bool or bp::complex<float/double>.
// As on the host, each returns T: floats and doubles use CUDA's libdevice functions (expf, exp),
// integers go through double (what std::exp(int) does on the host), complex values use the
// algorithms of the host's std:: functions (glibc's C99 Annex G functions, libgcc's complex
// division), so that both backends give the same infinities, NaNs and signed zeros, part by part;
// log1p and expm1 are c10::complex's.
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

// The limits of float and double that the complex functions need (numeric_limits for the device).
template <typename T>
struct RealLimits;
template <>
struct RealLimits<float> {
  static constexpr float epsilon = 1.1920928955078125e-7f;  // 2^-23
  static constexpr float min = 1.17549435082228751e-38f;    // the smallest normal value
  static constexpr float max = 3.40282346638528860e+38f;
  // (max exponent - 1) ln 2, truncated: e^t is finite, e^(2t) overflows.
  static constexpr float exp_threshold = 88.0f;
};
template <>
struct RealLimits<double> {
  static constexpr double epsilon = 2.220446049250313080847e-16;  // 2^-52
  static constexpr double min = 2.2250738585072013831e-308;
  static constexpr double max = 1.7976931348623157081e+308;
  static constexpr double exp_threshold = 709.0;
};

template <typename T>
BP_INLINE bool real_isfinite(T x) {
  return !real_isnan(x) && !real_isinf(x);
}

// e^r (a + ib) f without overflowing where the result fits: for r above t (88 for float, 709 for
// double), where e^r overflows but e^r a may not, e^t f is folded into a and b first (then e^t,
// up to twice in all; beyond 3t the result overflows), as glibc's cexp, csin, csinh and ccosh
// do (f = 1/2 for the hyperbolic functions, folded in so that a subnormal a does not vanish).
template <typename T>
BP_INLINE complex<T> exp_times(T r, T a, T b, T f = T(1)) {
  const T t = RealLimits<T>::exp_threshold;
  if (r > t) {
    const T e_t = real_exp(t);
    for (int i = 0; i < 2 && r > t; ++i) {
      r -= t;
      a *= e_t * f;
      b *= e_t * f;
      f = T(1);
    }
    if (r > t) return complex<T>(RealLimits<T>::max * a, RealLimits<T>::max * b);  // +-inf
  }
  const T e = real_exp(r) * f;
  return complex<T>(e * a, e * b);
}

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
// A large finite x goes through exp_times, as glibc.
template <typename T>
BP_INLINE complex<T> complex_exp(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T inf = math::infinity<T>();
  if (real_isnan(x)) return complex<T>(x, y == T(0) ? y : math::quiet_nan<T>());
  if (real_isinf(x)) {
    const T value = x > T(0) ? inf : T(0);
    if (y == T(0)) return complex<T>(value, y);
    if (real_isfinite(y)) {
      return complex<T>(real_copysign(value, real_cos(y)), real_copysign(value, real_sin(y)));
    }
    return x > T(0) ? complex<T>(inf, y - y) : complex<T>(T(0), real_copysign(T(0), y));
  }
  if (!real_isfinite(y)) return complex<T>(math::quiet_nan<T>(), math::quiet_nan<T>());
  if (y == T(0)) return complex<T>(real_exp(x), y);
  return exp_times(x, real_cos(y), real_sin(y));
}

// C's clog: log|z| + i arg z, |z| scaled where it would overflow or lose its precision to
// underflow. Special values follow from log and atan2: -inf + i arg for +-0, inf + i NaN for
// an infinite part and a NaN one.
template <typename T>
BP_INLINE complex<T> complex_log(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T theta = real_atan2(y, x);
  const T ax = real_abs(x), ay = real_abs(y);
  if (real_isfinite(x) && real_isfinite(y)) {
    if (ax > RealLimits<T>::max / T(4) || ay > RealLimits<T>::max / T(4)) {
      return complex<T>(real_log(real_hypot(x / T(4), y / T(4))) + T(1.3862943611198906188), theta);
    }
    if (ax < T(4) * RealLimits<T>::min && ay < T(4) * RealLimits<T>::min &&
        (x != T(0) || y != T(0))) {
      const T s = T(1) / RealLimits<T>::epsilon;  // a power of two: the scaling is exact
      return complex<T>(real_log(real_hypot(x * s, y * s)) - real_log(s), theta);
    }
  }
  return complex<T>(real_log(real_hypot(x, y)), theta);
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

// The principal square root, branch cut along the negative real axis (Kahan's method), with the
// special values of C's csqrt. Parts near the largest value are scaled down by 4, parts near the
// smallest normal one up by 1 / epsilon^2, so that neither |x| + |z| overflows nor its half
// loses precision to underflow.
template <typename T>
BP_INLINE complex<T> complex_sqrt(complex<T> z) {
  T x = z.real(), y = z.imag();
  if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
  if (real_isinf(y)) return complex<T>(math::infinity<T>(), y);
  if (real_isnan(x)) return complex<T>(x, x);
  if (real_isinf(x)) {
    if (x > T(0)) return complex<T>(x, real_isnan(y) ? y : real_copysign(T(0), y));
    return complex<T>(real_isnan(y) ? real_abs(y) : T(0), real_copysign(-x, y));
  }
  T unscale = T(1);
  if (real_abs(x) > RealLimits<T>::max / T(4) || real_abs(y) > RealLimits<T>::max / T(4)) {
    x /= T(4);
    y /= T(4);
    unscale = T(2);
  } else if (real_abs(x) < T(4) * RealLimits<T>::min && real_abs(y) < T(4) * RealLimits<T>::min) {
    const T s = T(1) / RealLimits<T>::epsilon;  // a power of two: the scaling is exact
    x *= s * s;
    y *= s * s;
    unscale = RealLimits<T>::epsilon;
  }
  const T t = real_sqrt((real_abs(x) + real_hypot(x, y)) / T(2));
  if (x >= T(0)) return complex<T>(t * unscale, y / (T(2) * t) * unscale);
  return complex<T>(real_abs(y) / (T(2) * t) * unscale, real_copysign(t * unscale, y));
}

// z / w as C's complex `/`: libgcc's __divsc3 / __divdc3 (GCC 12), which the host's
// std::complex division calls, so that zeros' signs and the underflow of tiny quotients match.
// float: the plain formula in double. double: Smith's method with libgcc's scaling (by 1/2 near
// the largest value, by 1/epsilon for tiny operands) and its other order for a subnormal ratio.
// Then, where both parts come out NaN, the infinities and zeros C99 Annex G recovers: x / 0 is
// inf (x != 0), an infinite z over a finite w is infinite, a finite z over an infinite w is zero.
template <typename T>
BP_INLINE complex<T> complex_div_c99(complex<T> z, complex<T> w) {
  T a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  T x, y;
  if constexpr (portable::is_same_v<T, float>) {
    const double aa = a, bb = b, cc = c, dd = d;
    const double denom = cc * cc + dd * dd;
    x = static_cast<float>((aa * cc + bb * dd) / denom);
    y = static_cast<float>((bb * cc - aa * dd) / denom);
  } else {
    const T big = RealLimits<T>::max / T(2), min = RealLimits<T>::min;
    const T eps = RealLimits<T>::epsilon, max2 = big * eps;
    const bool c_larger = !(real_abs(c) < real_abs(d));
    const T larger = c_larger ? real_abs(c) : real_abs(d);
    T scale = T(1);
    if (larger >= big) scale = T(0.5);
    if (larger < eps) {
      scale *= T(1) / eps;
    } else if ((real_abs(a) < min && real_abs(b) < max2 && larger < max2) ||
               (real_abs(b) < min && real_abs(a) < max2 && larger < max2)) {
      scale *= T(1) / eps;
    }
    a *= scale;
    b *= scale;
    c *= scale;
    d *= scale;
    if (c_larger) {
      const T ratio = d / c, denom = d * ratio + c;
      if (real_abs(ratio) > min) {
        x = (b * ratio + a) / denom;
        y = (b - a * ratio) / denom;
      } else {
        x = (a + d * (b / c)) / denom;
        y = (b - d * (a / c)) / denom;
      }
    } else {
      const T ratio = c / d, denom = c * ratio + d;
      if (real_abs(ratio) > min) {
        x = (a * ratio + b) / denom;
        y = (b * ratio - a) / denom;
      } else {
        x = (c * (a / d) + b) / denom;
        y = (c * (b / d) - a) / denom;
      }
    }
  }
  if (!real_isnan(x) || !real_isnan(y)) return complex<T>(x, y);
  const T inf = math::infinity<T>();
  if (c == T(0) && d == T(0) && (!real_isnan(a) || !real_isnan(b))) {
    return complex<T>(real_copysign(inf, c) * a, real_copysign(inf, c) * b);
  }
  if ((real_isinf(a) || real_isinf(b)) && real_isfinite(c) && real_isfinite(d)) {
    a = real_copysign(real_isinf(a) ? T(1) : T(0), a);
    b = real_copysign(real_isinf(b) ? T(1) : T(0), b);
    return complex<T>(inf * (a * c + b * d), inf * (b * c - a * d));
  }
  if ((real_isinf(c) || real_isinf(d)) && real_isfinite(a) && real_isfinite(b)) {
    c = real_copysign(real_isinf(c) ? T(1) : T(0), c);
    d = real_copysign(real_isinf(d) ? T(1) : T(0), d);
    return complex<T>(T(0) * (a * c + b * d), T(0) * (b * c - a * d));
  }
  return complex<T>(x, y);
}

// 1 / sqrt(z) with C's complex division, as the host computes it: rsqrt(+-0) is inf + i NaN,
// rsqrt(x + i inf) is 0 - 0i.
template <typename T>
BP_INLINE complex<T> complex_rsqrt(complex<T> z) {
  return complex_div_c99(complex<T>(T(1)), complex_sqrt(z));
}

// sinh(z) = sinh x cos y + i cosh x sin y, as glibc's csinh (the host's std::sinh), special
// values included (C99 Annex G, with glibc's choices):
//   +-0 + i(inf|NaN): +-0 + i NaN;  other finite x + i(inf|NaN): NaN + i NaN
//   +-inf + iy: +-inf cis(y) for finite y != 0, +-inf + iy for y = +-0, +inf + i NaN otherwise
//   NaN + iy: NaN + iy for y = +-0, NaN + i NaN otherwise
// A large |x| goes through exp_times.
template <typename T>
BP_INLINE complex<T> complex_sinh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T sign = real_copysign(T(1), x), inf = math::infinity<T>();
  if (real_isnan(x)) return complex<T>(x, y == T(0) ? y : math::quiet_nan<T>());
  if (real_isinf(x)) {
    if (y == T(0)) return z;
    if (!real_isfinite(y)) return complex<T>(inf, y - y);
    return complex<T>(real_copysign(inf, real_cos(y)) * sign, real_copysign(inf, real_sin(y)));
  }
  if (!real_isfinite(y)) {
    if (x == T(0)) return complex<T>(x, y - y);
    return complex<T>(math::quiet_nan<T>(), math::quiet_nan<T>());
  }
  const T ax = real_abs(x), c = real_cos(y) * sign, s = real_sin(y);
  if (ax > RealLimits<T>::exp_threshold) return exp_times(ax, c, s, T(0.5));
  return complex<T>(real_sinh(ax) * c, real_cosh(ax) * s);
}

// cosh(z) = cosh x cos y + i sinh x sin y, as glibc's ccosh (the host's std::cosh):
//   finite x + i(inf|NaN): NaN + 0i for x = +-0, NaN + i NaN otherwise
//   +-inf + iy: inf sign(cos y) + i inf sign(sin y) sign(x) for finite y != 0, inf + i y sign(x)
//   for y = +-0, inf + i NaN otherwise
//   NaN + iy: NaN + iy for y = +-0, NaN + i NaN otherwise
// A large |x| goes through exp_times.
template <typename T>
BP_INLINE complex<T> complex_cosh(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T sign = real_copysign(T(1), x), inf = math::infinity<T>();
  if (real_isnan(x)) return complex<T>(math::quiet_nan<T>(), y == T(0) ? y : math::quiet_nan<T>());
  if (real_isinf(x)) {
    if (y == T(0)) return complex<T>(inf, y * sign);
    if (!real_isfinite(y)) return complex<T>(inf, y - y);
    return complex<T>(real_copysign(inf, real_cos(y)), real_copysign(inf, real_sin(y)) * sign);
  }
  if (!real_isfinite(y)) return complex<T>(y - y, x == T(0) ? T(0) : math::quiet_nan<T>());
  const T ax = real_abs(x), c = real_cos(y), s = real_sin(y) * sign;
  if (ax > RealLimits<T>::exp_threshold) return exp_times(ax, c, s, T(0.5));
  return complex<T>(real_cosh(ax) * c, real_sinh(ax) * s);
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
// A large |y| goes through exp_times.
template <typename T>
BP_INLINE complex<T> complex_sin(complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T inf = math::infinity<T>();
  if (real_isinf(y)) {
    if (x == T(0)) return z;
    if (real_isfinite(x)) {
      return complex<T>(real_copysign(inf, real_sin(x)), real_copysign(inf, real_cos(x) * y));
    }
    return complex<T>(x - x, inf);
  }
  if (real_isnan(y)) return complex<T>(x == T(0) ? x : math::quiet_nan<T>(), y);
  if (!real_isfinite(x)) return complex<T>(x - x, y == T(0) ? y : math::quiet_nan<T>());
  const T s = real_sin(x), c = real_cos(x), ay = real_abs(y);
  if (ay <= RealLimits<T>::exp_threshold) return complex<T>(real_cosh(y) * s, real_sinh(y) * c);
  return exp_times(ay, s, y < T(0) ? -c : c, T(0.5));
}

// cos(z) = cosh(iz), tan(z) = -i tanh(iz), as glibc's ccos and ctan compute them.
template <typename T>
BP_INLINE complex<T> complex_cos(complex<T> z) {
  return complex_cosh(complex<T>(-z.imag(), z.real()));
}

template <typename T>
BP_INLINE complex<T> complex_tan(complex<T> z) {
  const complex<T> w = complex_tanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}

// asinh(z) = log(z + sqrt(1 + z^2)) for finite z != 0, as glibc's __kernel_casinh computes it
// (the first quadrant, then the signs of z): log(2z) where z^2 would overflow, and forms without
// cancellation near the branch points +-i and near the axes. With `adjusted` the imaginary part
// is pi/2 minus asinh's, for acos and acosh: then the argument is i times theirs and the sign of
// its real part (the original imaginary part) picks the branch.
template <typename T>
BP_INLINE complex<T> asinh_kernel(complex<T> z, bool adjusted) {
  const T eps = RealLimits<T>::epsilon, ln2 = T(0.6931471805599453094);
  const T rx = real_abs(z.real()), ix = real_abs(z.imag());
  const T sy = z.imag();  // its sign picks acos's branch
  T re, im;
  if (rx >= T(1) / eps || ix >= T(1) / eps) {
    // z + sqrt(1 + z^2) is 2z to working precision.
    const complex<T> l = adjusted ? complex_log(complex<T>(real_copysign(ix, sy), rx))
                                  : complex_log(complex<T>(rx, ix));
    re = l.real() + ln2;
    im = l.imag();
  } else if (rx >= T(0.5) && ix < eps / T(8)) {
    const T s = real_hypot(T(1), rx);
    re = real_log(rx + s);
    im = adjusted ? real_atan2(s, sy) : real_atan2(ix, s);
  } else if (rx < eps / T(8) && ix >= T(1.5)) {
    const T s = real_sqrt((ix + T(1)) * (ix - T(1)));
    re = real_log(ix + s);
    im = adjusted ? real_atan2(rx, real_copysign(s, sy)) : real_atan2(s, rx);
  } else if (ix > T(1) && ix < T(1.5) && rx < T(0.5)) {
    const T ix2m1 = (ix + T(1)) * (ix - T(1));
    if (rx < eps * eps) {
      const T s = real_sqrt(ix2m1);
      re = real_log1p(T(2) * (ix2m1 + ix * s)) / T(2);
      im = adjusted ? real_atan2(rx, real_copysign(s, sy)) : real_atan2(s, rx);
    } else {
      const T rx2 = rx * rx, f = rx2 * (T(2) + rx2 + T(2) * ix * ix);
      const T dp = real_sqrt(ix2m1 * ix2m1 + f) + ix2m1;
      const T r1 = real_sqrt((f / dp + rx2) / T(2)), r2 = rx * ix / r1;
      re = real_log1p(rx2 + dp + T(2) * (rx * r1 + ix * r2)) / T(2);
      im =
          adjusted ? real_atan2(rx + r1, real_copysign(ix + r2, sy)) : real_atan2(ix + r2, rx + r1);
    }
  } else if (ix == T(1) && rx < T(0.5)) {
    if (rx < eps / T(8)) {
      const T s = real_sqrt(rx);
      re = real_log1p(T(2) * (rx + s)) / T(2);
      im = adjusted ? real_atan2(s, real_copysign(T(1), sy)) : real_atan2(T(1), s);
    } else {
      const T d = rx * real_sqrt(T(4) + rx * rx);
      const T s1 = real_sqrt((d + rx * rx) / T(2)), s2 = real_sqrt((d - rx * rx) / T(2));
      re = real_log1p(rx * rx + d + T(2) * (rx * s1 + s2)) / T(2);
      im = adjusted ? real_atan2(rx + s1, real_copysign(T(1) + s2, sy))
                    : real_atan2(T(1) + s2, rx + s1);
    }
  } else if (ix < T(1) && rx < T(0.5)) {
    if (ix < eps) {
      const T s = real_hypot(T(1), rx);
      re = real_log1p(T(2) * rx * (rx + s)) / T(2);
      im = adjusted ? real_atan2(s, sy) : real_atan2(ix, s);
    } else if (rx < eps * eps) {
      const T s = real_sqrt((T(1) + ix) * (T(1) - ix));
      re = real_log1p(T(2) * rx / s) / T(2);
      im = adjusted ? real_atan2(s, sy) : real_atan2(ix, s);
    } else {
      const T one_m_ix2 = (T(1) + ix) * (T(1) - ix), rx2 = rx * rx;
      const T f = rx2 * (T(2) + rx2 + T(2) * ix * ix);
      const T dp = real_sqrt(one_m_ix2 * one_m_ix2 + f) + one_m_ix2;
      const T r1 = real_sqrt((dp + rx2) / T(2)), r2 = rx * ix / r1;
      re = real_log1p(rx2 + f / dp + T(2) * (rx * r1 + ix * r2)) / T(2);
      im =
          adjusted ? real_atan2(rx + r1, real_copysign(ix + r2, sy)) : real_atan2(ix + r2, rx + r1);
    }
  } else {
    complex<T> w = complex_sqrt(complex<T>((rx - ix) * (rx + ix) + T(1), T(2) * rx * ix));
    w = complex<T>(w.real() + rx, w.imag() + ix);
    const complex<T> l =
        complex_log(adjusted ? complex<T>(real_copysign(w.imag(), sy), w.real()) : w);
    re = l.real();
    im = l.imag();
  }
  return complex<T>(real_copysign(re, z.real()), adjusted ? real_abs(im) : real_copysign(im, sy));
}

// asinh(z), as glibc's casinh (the host's std::asinh), special values included:
//   x + i(+-inf): +-inf (x's sign) + i(+-pi/2, +-pi/4 for an infinite x), NaN + i inf: inf + NaN i
//   +-inf + iy (finite y): +-inf + 0i with y's sign;  NaN + i(+-0): NaN + i(+-0)
//   any other NaN part: NaN + i NaN;  +-0 + i(+-0): z itself
template <typename T>
BP_INLINE complex<T> complex_asinh(complex<T> z) {
  const T x = z.real(), y = z.imag(), inf = math::infinity<T>(), nan = math::quiet_nan<T>();
  if (real_isinf(y)) {
    if (real_isnan(x)) return complex<T>(real_copysign(inf, x), nan);
    const T angle = real_isinf(x) ? T(0.78539816339744830962) : T(1.5707963267948966192);
    return complex<T>(real_copysign(inf, x), real_copysign(angle, y));
  }
  if (real_isinf(x)) return complex<T>(x, real_isnan(y) ? nan : real_copysign(T(0), y));
  if (real_isnan(x)) return complex<T>(x, y == T(0) ? y : nan);
  if (real_isnan(y)) return complex<T>(nan, nan);
  if (x == T(0) && y == T(0)) return z;
  return asinh_kernel(z, false);
}

// acosh(z), as glibc's cacosh (the host's std::acosh), special values included:
//   x + i(+-inf): inf + i(+-pi/2; +-pi/4 for x = +inf, +-3pi/4 for x = -inf), NaN + i inf: inf + i
//   NaN +inf + iy (finite y): inf + 0i, -inf + iy: inf + i pi, with y's sign; +-inf + i NaN: inf +
//   i NaN
//   +-0 + i NaN: NaN + i pi/2;  other NaN parts: NaN + i NaN;  +-0 + i(+-0): 0 + i(+-pi/2)
template <typename T>
BP_INLINE complex<T> complex_acosh(complex<T> z) {
  const T x = z.real(), y = z.imag(), inf = math::infinity<T>(), nan = math::quiet_nan<T>();
  const T pi = T(3.1415926535897932385), pi_2 = T(1.5707963267948966192);
  if (real_isinf(y)) {
    if (real_isnan(x)) return complex<T>(inf, nan);
    const T angle = !real_isinf(x) ? pi_2
                    : x < T(0)     ? pi - T(0.78539816339744830962)
                                   : T(0.78539816339744830962);
    return complex<T>(inf, real_copysign(angle, y));
  }
  if (real_isinf(x)) {
    if (real_isnan(y)) return complex<T>(inf, nan);
    return complex<T>(inf, real_copysign(x < T(0) ? pi : T(0), y));
  }
  if (real_isnan(x) || real_isnan(y)) return complex<T>(nan, x == T(0) ? pi_2 : nan);
  if (x == T(0) && y == T(0)) return complex<T>(T(0), real_copysign(pi_2, y));
  const complex<T> w = asinh_kernel(complex<T>(-y, x), true);
  if (real_copysign(T(1), y) < T(0)) return complex<T>(w.real(), -w.imag());
  return complex<T>(-w.real(), w.imag());
}

// -(x^2 + y^2 - 1) for 0 <= y <= x, the denominator of atanh's imaginary part.
template <typename T>
BP_INLINE T atanh_denominator(T x, T y) {
  const T eps = RealLimits<T>::epsilon;
  if (y < eps / T(2)) {
    const T d = (T(1) - x) * (T(1) + x);
    return d == T(0) ? T(0) : d;  // +0, never -0
  }
  if (x >= T(1)) return (T(1) - x) * (T(1) + x) - y * y;
  // Near the unit circle: (x - 1)(x + 1) is exact enough, y^2 added last.
  if (x >= T(0.75) || y >= T(0.5)) return -((x - T(1)) * (x + T(1)) + y * y);
  return (T(1) - x) * (T(1) + x) - y * y;
}

// atanh(z) = (log(1 + z) - log(1 - z)) / 2, as glibc's catanh (the host's std::atanh):
//   x + i(+-inf), +-inf + iy, +-0 + iy (y not NaN): +-0 (x's sign) + i(+-pi/2) (y's sign)
//   +-inf or +-0 + i NaN: +-0 + i NaN;  other NaN parts: NaN + i NaN;  +-0 + i(+-0): z itself
// Finite values: 1/z-like forms past 16 / epsilon, and log1p where the quotient is near 1.
template <typename T>
BP_INLINE complex<T> complex_atanh(complex<T> z) {
  const T x = z.real(), y = z.imag(), nan = math::quiet_nan<T>();
  const T eps = RealLimits<T>::epsilon, pi_2 = T(1.5707963267948966192);
  if (real_isinf(y)) return complex<T>(real_copysign(T(0), x), real_copysign(pi_2, y));
  if (real_isinf(x) || real_isnan(x) || real_isnan(y)) {
    if (real_isinf(x) || x == T(0)) {
      return complex<T>(real_copysign(T(0), x), real_isnan(y) ? nan : real_copysign(pi_2, y));
    }
    return complex<T>(nan, nan);
  }
  if (x == T(0) && y == T(0)) return z;
  const T ax = real_abs(x), ay = real_abs(y);
  if (ax >= T(16) / eps || ay >= T(16) / eps) {
    T re;
    if (ay <= T(1)) {
      re = T(1) / x;
    } else if (ax <= T(1)) {
      re = x / y / y;
    } else {
      const T h = real_hypot(x / T(2), y / T(2));
      re = x / h / h / T(4);
    }
    return complex<T>(re, real_copysign(pi_2, y));
  }
  T re;
  if (ax == T(1) && ay < eps * eps) {
    re = real_copysign(T(0.5), x) * (T(0.6931471805599453094) - real_log(ay));
  } else {
    const T y2 = ay >= eps * eps ? y * y : T(0);
    const T num = y2 + (T(1) + x) * (T(1) + x), den = y2 + (T(1) - x) * (T(1) - x);
    const T f = num / den;
    re = f < T(0.5) ? T(0.25) * real_log(f) : T(0.25) * real_log1p(T(4) * x / den);
  }
  const T den = ax < ay ? atanh_denominator(ay, ax) : atanh_denominator(ax, ay);
  return complex<T>(re, T(0.5) * real_atan2(T(2) * y, den));
}

// asin(z) = -i asinh(iz) and atan(z) = -i atanh(iz), exactly as glibc's casin and catan
// (special values included). acos(z) as glibc's cacos: pi/2 - asin(z) for special values and
// zeros (a zero real part is +0), otherwise from asinh_kernel's adjusted form.
template <typename T>
BP_INLINE complex<T> complex_asin(complex<T> z) {
  const complex<T> w = complex_asinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}

template <typename T>
BP_INLINE complex<T> complex_acos(complex<T> z) {
  const T x = z.real(), y = z.imag();
  if (!real_isfinite(x) || !real_isfinite(y) || (x == T(0) && y == T(0))) {
    const complex<T> w = complex_asin(z);
    const T re = T(1.5707963267948966192) - w.real();
    return complex<T>(re == T(0) ? T(0) : re, -w.imag());
  }
  const complex<T> w = asinh_kernel(complex<T>(-y, x), true);
  return complex<T>(w.imag(), w.real());
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

// sigmoid: 1 / (1 + e^-x), as the host computes it for scalars.
template <typename T>
BP_INLINE T sigmoid(T x) {
  return T(1) / (T(1) + exp(-x));
}

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

// The host's faster path for floor division of vectors (primitives.h): none here, the caller
// takes the general steps.
template <typename T>
BP_INLINE bool floor_divide_by_division_applies(T, T) {
  return false;
}
template <typename T>
BP_INLINE T floor_divide_by_division(T a, T b) {
  return floor(a / b);  // not called: see floor_divide_by_division_applies
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
