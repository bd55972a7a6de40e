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
  T operator()(T x) const {
    return tanh(x);
  }
};

// sigmoid: 1 / (1 + e^-x).
struct Sigmoid {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;
  template <typename T>
  T operator()(T x) const {
    return T(1) / (T(1) + exp(-x));
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

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_
