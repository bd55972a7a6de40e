// Scalar math of unary pointwise ops (neg, exp, ...): one functor per op, shared by the CPU
// backend and the CUDA jit. Conventions as in binary.h.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// neg: -x (unsigned integers wrap, and so does the minimum of a signed type).
struct Neg {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return -x;
  }
};

// abs: |x|. Complex: the magnitude, a real number (so abs of complex64 is float32). Integers:
// the minimum wraps to itself, as in PyTorch.
struct Abs {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T x) const {
    return abs(x);
  }
};

// exp: e^x. Complex: C99's cexp, special values included (std::exp on the host), as PyTorch's
// CPU kernel since pytorch#140358 (1.13's vectorised kernel gave exp(inf+0j) = inf+nanj).
struct Exp {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;  // no comparisons: see loops.h
  template <typename T>
  T operator()(T x) const {
    return exp(x);
  }
};

// log: the natural logarithm (complex: the principal branch).
struct Log {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return log(x);
  }
};

// sqrt: the square root (sqrt(-0.0) is -0.0; complex: the principal root).
struct Sqrt {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return sqrt(x);
  }
};

struct Sin {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return sin(x);
  }
};

struct Tanh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T x) const {
    return tanh(x);
  }
};

// sigmoid: 1 / (1 + e^-x) (the primitive: one pass on the CPU's 64-byte float vectors).
struct Sigmoid {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return sigmoid(x);
  }
};

// erf: the error function (real types only).
struct Erf {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return erf(x);
  }
};

// ceil: the smallest integer not less than x; integers are their own ceiling.
struct Ceil {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_integral_v<T>) {
      return x;
    } else {
      return ceil(x);
    }
  }
};

// reciprocal: 1 / x (complex: Smith's division, as c10::complex since PyTorch 2.0, so 1 / 0 is
// (inf, nan); 1.13's plain formula gave nan+nanj).
struct Reciprocal {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return T(1) / x;
  }
};

// isnan: whether x is NaN (complex: either part; integers and bool: never).
struct IsNan {
  template <typename T>
  bool operator()(T x) const {
    return !(x == x);
  }
};

// logical_not: whether x is zero (complex: both parts).
struct LogicalNot {
  template <typename T>
  bool operator()(T x) const {
    return x == T(0);
  }
};

// bitwise_not: ~x (bool: not).
struct BitwiseNot {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_bool_v<T>) {
      return !x;
    } else {
      return T(~x);
    }
  }
};

// nan_to_num: NaN, +inf and -inf replaced by the given values (for complex, in each part);
// integers and bool unchanged. The replacements come in the real type of T (the CPU kernel
// works out PyTorch's dtype-dependent defaults: 0, the dtype's largest and lowest values).
struct NanToNum {
  template <typename T>
  T operator()(T x, real_t<T> nan, real_t<T> posinf, real_t<T> neginf) const {
    if constexpr (is_complex_v<T>) {
      return T(replace(x.real(), nan, posinf, neginf), replace(x.imag(), nan, posinf, neginf));
    } else if constexpr (is_floating_v<T>) {
      return replace(x, nan, posinf, neginf);
    } else {
      return x;
    }
  }

 private:
  template <typename R>
  static R replace(R x, R nan, R posinf, R neginf) {
    if (x != x) return nan;
    if (x == infinity<R>()) return posinf;
    if (x == -infinity<R>()) return neginf;
    return x;
  }
};

// ---- Elementary functions: the primitive of the same name ----------------------------------
// exp2: 2^x.
struct Exp2 {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return exp2(x);
  }
};

// expm1: e^x - 1, accurate near 0.
struct Expm1 {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return expm1(x);
  }
};

// log2: the base-2 logarithm (complex: log(z) / log(2)).
struct Log2 {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return log2(x);
  }
};

// log10: the base-10 logarithm (complex: the principal branch).
struct Log10 {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return log10(x);
  }
};

// log1p: log(1 + x), accurate near 0.
struct Log1p {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return log1p(x);
  }
};

// rsqrt: 1 / sqrt(x) (rsqrt(-0.0) is -inf; complex: 1 / the principal root).
struct Rsqrt {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return rsqrt(x);
  }
};

struct Cos {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return cos(x);
  }
};

struct Tan {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return tan(x);
  }
};

struct Asin {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return asin(x);
  }
};

struct Acos {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return acos(x);
  }
};

struct Atan {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return atan(x);
  }
};

struct Sinh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return sinh(x);
  }
};

struct Cosh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return cosh(x);
  }
};

struct Asinh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return asinh(x);
  }
};

struct Acosh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return acosh(x);
  }
};

struct Atanh {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return atanh(x);
  }
};

// erfc: 1 - erf(x), accurate where erf(x) is near 1 (real types only).
struct Erfc {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return erfc(x);
  }
};

// ---- Parameterised, rounding and sign functions ---------------------------------------------

// logit: log(x / (1 - x)). With eps >= 0, x is first clamped to [eps, 1 - eps] (NaN stays NaN);
// a negative eps (what None stands for) clamps nothing, as PyTorch's logit kernel.
struct Logit {
  template <typename T>
  T operator()(T x, T eps) const {
    if (eps >= T(0)) {
      const T hi = T(1) - eps;
      x = x < eps ? eps : (x > hi ? hi : x);
    }
    return log(x / (T(1) - x));
  }
};

// deg2rad / rad2deg: x times pi/180 (180/pi) in the compute type, as PyTorch's mul by the double
// constant (integers compute in float).
struct Deg2Rad {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return x * T(0.017453292519943295769236907684886127134428718885417);
  }
};
struct Rad2Deg {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return x * T(57.295779513082320876798154814105170332405472466564);
  }
};

// floor / trunc / round: integers are their own (PyTorch copies them). round: to the nearest
// integer, ties to even.
struct Floor {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_integral_v<T>) {
      return x;
    } else {
      return floor(x);
    }
  }
};
struct Trunc {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_integral_v<T>) {
      return x;
    } else {
      return trunc(x);
    }
  }
};
struct Round {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_integral_v<T>) {
      return x;
    } else {
      return nearbyint(x);
    }
  }
};

// round(decimals=d): x scaled by 10^d, rounded (ties to even) and scaled back; a negative d
// divides first, as PyTorch (10^|d| computed in double, then taken in the compute type).
struct RoundDecimals {
  template <typename T>
  T operator()(T x, T decimals) const {
    const bool negative = decimals < T(0);
    const T ten_pow = T(pow(10.0, double(negative ? -decimals : decimals)));
    return negative ? nearbyint(x / ten_pow) * ten_pow : nearbyint(x * ten_pow) / ten_pow;
  }
};

// frac: x - trunc(x) (frac(+-inf) is NaN, frac(-0.0) is 0.0).
struct Frac {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return x - trunc(x);
  }
};

// sign: 1, 0 or -1 (0 for NaN and both zeros); bool and unsigned values: 0 < x.
struct Sign {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_bool_v<T>) {
      return x;
    } else if constexpr (!is_signed_v<T>) {
      return T(T(0) < x);
    } else {
      return T(int(T(0) < x) - int(x < T(0)));
    }
  }
};

// sgn: sign for real types; complex: z / |z|, and 0 for 0.
struct Sgn {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_complex_v<T>) {
      if (x == T(0)) return T(0);
      return x / T(abs(x));
    } else {
      return Sign{}(x);
    }
  }
};

// angle: the argument of a complex number (atan2(imag, real), of the real type); for real x, pi
// when x < 0, NaN for NaN, else 0.
struct Angle {
  template <typename T>
  auto operator()(T x) const {
    if constexpr (is_complex_v<T>) {
      return atan2(x.imag(), x.real());
    } else {
      if (x != x) return x;
      return x < T(0) ? T(3.14159265358979323846264338327950288) : T(0);
    }
  }
};

// conj_physical: the complex conjugate; real values are their own.
struct ConjPhysical {
  template <typename T>
  T operator()(T x) const {
    if constexpr (is_complex_v<T>) {
      return T(x.real(), -x.imag());
    } else {
      return x;
    }
  }
};

// ---- Classification: bool results -------------------------------------------------------------

// isinf / isfinite: complex values by their parts (isinf: either infinite; isfinite: both
// finite); integers and bool are finite.
struct IsInf {
  template <typename T>
  bool operator()(T x) const {
    if constexpr (is_complex_v<T>) {
      return isinf(x.real()) || isinf(x.imag());
    } else {
      return isinf(x);
    }
  }
};
struct IsFinite {
  template <typename T>
  bool operator()(T x) const {
    if constexpr (is_complex_v<T>) {
      return isfinite(x.real()) && isfinite(x.imag());
    } else {
      return isfinite(x);
    }
  }
};
// isposinf / isneginf: x is +inf (-inf); never for integers and bool.
struct IsPosInf {
  template <typename T>
  bool operator()(T x) const {
    return is_floating_v<T> && x == infinity<T>();
  }
};
struct IsNegInf {
  template <typename T>
  bool operator()(T x) const {
    return is_floating_v<T> && x == -infinity<T>();
  }
};
// signbit: whether the sign bit is set (-0.0 and negative NaNs too); integers: x < 0.
struct SignBit {
  template <typename T>
  bool operator()(T x) const {
    return signbit(x);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_
