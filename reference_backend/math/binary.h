// Scalar math of binary pointwise ops (add, sub, mul, ...): one functor per op, shared by the
// CPU backend and the CUDA jit. See primitives.h for what this code may use.
//
// A functor's call operator takes the op's tensor inputs, then the Scalar arguments named in its
// declaration (`math: Add(alpha)`), all in the op's compute type T (float for float16 and
// bfloat16 tensors), and returns T (or bool for predicates). kVectorized marks bodies that also
// compile for Vectorized<T>.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_BINARY_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_BINARY_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// ---- Integer division and powers ------------------------------------------------------------
// Plain code (host and NVRTC alike). Divisors are never 0 here: the CPU kernels raise
// PyTorch's "ZeroDivisionError" before computing. A divisor of -1 negates instead of dividing,
// so that the minimum divided by -1 wraps to itself instead of trapping.
namespace detail {

// a / b rounded toward zero (C's division).
template <typename T>
T div_trunc_integer(T a, T b) {
  if constexpr (is_signed_v<T>) {
    if (b == T(-1)) return T(T(0) - a);
  }
  return T(a / b);
}

// a - b * floor(a / b): the remainder with the sign of b (Python's %).
template <typename T>
T remainder_integer(T a, T b) {
  if constexpr (is_signed_v<T>) {
    if (b == T(-1)) return T(0);
    const T r = T(a % b);
    return (r != 0 && (r < 0) != (b < 0)) ? T(r + b) : r;
  } else {
    return T(a % b);
  }
}

// base^exponent by squaring, wrapping on overflow. A negative exponent gives 1 / base^-exponent
// truncated toward zero: 1 for base 1, +-1 for base -1, else 0 (PyTorch's powi).
template <typename T>
T pow_integer(T base, T exponent) {
  if constexpr (is_signed_v<T>) {
    if (exponent < 0) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return exponent % 2 != 0 ? T(-1) : T(1);
      return T(0);
    }
  }
  T result = T(1);
  while (exponent != 0) {
    if ((exponent & 1) != 0) result = T(result * base);
    exponent = T(exponent / 2);
    base = T(base * base);
  }
  return result;
}

}  // namespace detail

// ---- Arithmetic -----------------------------------------------------------------------------

// add: self + alpha * other (bool: logical or).
struct Add {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other, T alpha) const {
    return self + alpha * other;
  }
};

// sub: self - alpha * other.
struct Sub {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other, T alpha) const {
    return self - alpha * other;
  }
};

// mul: self * other (bool: logical and).
struct Mul {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_bool_v<T>) {
      return self && other;
    } else {
      return self * other;
    }
  }
};

// div (true division; integer inputs were promoted to a floating type). IEEE results for
// division by zero; complex: Smith's algorithm.
struct Div {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    return self / other;
  }
};

// div(rounding_mode='trunc'): the quotient rounded toward zero. Without branches, so that
// vectors run it: floating types (trunc is inline on vectors) and 32- and 64-bit integers
// (Vectorized divides those in float or double, exactly; a divisor of -1 negates, as
// div_trunc_integer); 8- and 16-bit integers divide one by one, as DivFloor's.
struct DivTrunc {
  static constexpr bool kVectorized = true;
  template <typename T>
  static constexpr bool kVectorizedFor = is_floating_v<T> || sizeof(T) >= 4;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_integral_v<T> && !is_signed_v<T>) {
      return T(self / other);
    } else if constexpr (is_integral_v<T>) {
      return select(other == T(-1), T(T(0) - self), T(self / select(other == T(-1), T(1), other)));
    } else {
      return trunc(self / other);
    }
  }
};

// div(rounding_mode='floor'): the quotient rounded toward negative infinity, as Python's //
// (for floating types the exact floor of the real quotient, computed from fmod; division by
// zero gives the IEEE quotient; a zero result has the sign of self / other).
// Written without branches (floating types: PyTorch's vectorised formula, div_floor_kernel, with
// one division), so that the same body runs on vectors, lane for lane the scalar's result: for
// floating types (fmod from SLEEF, exact) and for 32- and 64-bit integers (Vectorized divides
// those in float or double, exactly); 8- and 16-bit integers divide one by one (kVectorizedFor:
// Vectorized would divide those a lane at a time). Integers inline here, not in a detail::
// helper: a function that takes vectors must be inlined into the ISA-specific loop (pointwise.h's
// VectorBody). Float and double vectors whose every lane allows it take one division instead
// (floor_divide_by_division_applies: the same results, 2.6x faster); the operator is large enough
// that GCC would not inline it by itself (BP_MATH_ALWAYS_INLINE).
struct DivFloor {
  static constexpr bool kVectorized = true;
  template <typename T>
  static constexpr bool kVectorizedFor = is_floating_v<T> || sizeof(T) >= 4;
  // 64-byte vectors on AVX-512 for floating types: SLEEF's 16-lane fmod, and GCC keeps these
  // comparisons as mask compares there; 2.4x slower for integers (measured: pointwise.h).
  template <typename T>
  static constexpr bool kWideVectorsFor = is_floating_v<T>;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T self, T other) const {
    if constexpr (is_integral_v<T> && !is_signed_v<T>) {
      return T(self / other);
    } else if constexpr (is_integral_v<T>) {
      // The truncated quotient (a divisor of -1 negates, see above), less 1 where the remainder
      // is not 0 and its sign is not other's.
      const T quotient =
          select(other == T(-1), T(T(0) - self), T(self / select(other == T(-1), T(1), other)));
      const T rest = T(self - quotient * other);
      return select(rest != T(0), select((rest ^ other) < T(0), T(quotient - T(1)), quotient),
                    quotient);
    } else {
      if (floor_divide_by_division_applies(self, other)) {
        return floor_divide_by_division(self, other);
      }
      const T mod = fmod(self, other);
      // One division (the slowest step): where other is 0 it is self / other, the result there.
      const T quotient = select(other == T(0), self, self - mod) / other;
      // Less 1 where mod is not 0 and its sign is not other's (other's sign bit: where other is
      // -0.0 the result is chosen below, where mod or other is NaN every step gives NaN).
      const T adjusted = select(copysign(mod, other) != mod, quotient - T(1), quotient);
      const T floored = floor(adjusted);
      const T rounded = select(adjusted - floored > T(0.5), floored + T(1), floored);
      // A zero with the sign of self / other (never NaN where adjusted is 0): the signs' product.
      const T zero = copysign(T(0), self) * copysign(T(1), other);
      const T result = select(adjusted == T(0), zero, rounded);
      return select(other == T(0), quotient, result);
    }
  }
};

// remainder: self - other * floor(self / other), with the sign of other (Python's %). Floating:
// from fmod, so exact; a zero remainder keeps fmod's sign (remainder(-0.0, 1) is -0.0).
// Floating: without branches, so that vectors run it (primitives.h's fmod, 64-byte vectors on
// AVX-512 as DivFloor's); a mod of the sign opposite other's (copysign changes it) gains other.
struct Remainder {
  static constexpr bool kVectorized = true;
  template <typename T>
  static constexpr bool kVectorizedFor = is_floating_v<T>;
  template <typename T>
  static constexpr bool kWideVectorsFor = is_floating_v<T>;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T self, T other) const {
    if constexpr (is_integral_v<T>) {
      return detail::remainder_integer(self, other);
    } else {
      const T mod = fmod(self, other);
      return select(copysign(mod, other) != mod, mod + other, mod);
    }
  }
};

// pow(Tensor, Tensor): self^exponent. Integers: by squaring (negative exponents: see
// pow_integer); floating and complex: C's pow.
struct Pow {
  template <typename T>
  T operator()(T self, T exponent) const {
    if constexpr (is_integral_v<T>) {
      return detail::pow_integer(self, exponent);
    } else {
      return pow(self, exponent);
    }
  }
};

// pow(Tensor, Scalar): as Pow, with PyTorch's exact forms for common exponents: 0 gives 1 (also
// for NaN), 1 the base, 2, 3 and -2 products, 0.5 sqrt (so (-0.0)^0.5 is -0.0 and (-inf)^0.5 is
// NaN), -0.5 and -1 reciprocals. bool: only False (1) and True (the base) reach here.
struct PowTensorScalar {
  template <typename T>
  T operator()(T self, T exponent) const {
    if constexpr (is_bool_v<T>) {
      return exponent ? self : true;
    } else if constexpr (is_integral_v<T>) {
      return detail::pow_integer(self, exponent);
    } else {
      if (exponent == T(0)) return T(1);
      if (exponent == T(1)) return self;
      if (exponent == T(2)) return self * self;
      if (exponent == T(3)) return self * self * self;
      if (exponent == T(-2)) return T(1) / (self * self);
      if (exponent == T(0.5)) return sqrt(self);
      if (exponent == T(-0.5)) return T(1) / sqrt(self);
      if (exponent == T(-1)) return T(1) / self;
      return pow(self, exponent);
    }
  }
};

// atan2(self, other): the angle of the point (other, self), in [-pi, pi].
struct Atan2 {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    return atan2(self, other);
  }
};

// hypot(self, other): the length of the hypotenuse, sqrt(self^2 + other^2).
struct Hypot {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    return hypot(self, other);
  }
};

// maximum: the larger value, NaN if either is NaN; of equal values self (torch.maximum(0.0, -0.0)
// is 0.0, torch.maximum(-0.0, 0.0) is -0.0: PyTorch's scalar loop, std::max); bool: or.
struct Maximum {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    return maximum(self, other);
  }
};

// The smaller value, NaN if either is NaN; of equal values self, as Maximum; bool: and.
struct Minimum {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    return minimum(self, other);
  }
};

// fmax: the larger value, ignoring a NaN operand (NaN only when both are); of equal values self,
// as C's fmax on the host (torch.fmax(0.0, -0.0) is 0.0); integers: maximum; bool: or.
struct Fmax {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_floating_v<T>) {
      return select(other != other, self, select(self != self, other, maximum(self, other)));
    } else {
      return maximum(self, other);
    }
  }
};

// fmin: the smaller value, ignoring a NaN operand; of equal values self; bool: and.
struct Fmin {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_floating_v<T>) {
      return select(other != other, self, select(self != self, other, minimum(self, other)));
    } else {
      return minimum(self, other);
    }
  }
};

// fmod: self - other * trunc(self / other), with the sign of self (C's fmod and %; exact).
// Integer divisors are never 0 (the CPU kernel raises "ZeroDivisionError" first); -1 gives 0
// without dividing, so the minimum of a signed type does not trap.
struct Fmod {
  static constexpr bool kVectorized = true;
  template <typename T>
  static constexpr bool kVectorizedFor = is_floating_v<T>;
  template <typename T>
  static constexpr bool kWideVectorsFor = is_floating_v<T>;  // as Remainder
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T self, T other) const {
    if constexpr (is_integral_v<T>) {
      if constexpr (is_signed_v<T>) {
        if (other == T(-1)) return T(0);
      }
      return T(self % other);
    } else {
      return fmod(self, other);
    }
  }
};

// copysign: |self| with the sign bit of other (-0.0 and -NaN count as negative).
struct Copysign {
  template <typename T>
  T operator()(T self, T other) const {
    return copysign(self, other);
  }
};

// logaddexp: log(e^self + e^other) as max + log1p(e^-|self - other|), PyTorch's formula; equal
// infinities give themselves (inf - inf would be NaN). NaN in, NaN out.
struct LogAddExp {
  static constexpr bool kVectorized = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T self, T other) const {
    const T d = self - other;
    const T general = maximum(self, other) + log1p(exp(minimum(d, -d)));  // -|d|
    const T z = self - self;  // NaN for infinite (and NaN) self
    return select(self == other, select(z != z, self, general), general);
  }
};

// logaddexp2: log2(2^self + 2^other) as max + log2(1 + 2^-|self - other|), PyTorch's formula
// (so logaddexp2(a, a) is a + 1 exactly); equal infinities give themselves, as LogAddExp.
struct LogAddExp2 {
  static constexpr bool kVectorized = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T self, T other) const {
    const T d = self - other;
    const T general = maximum(self, other) + log2(T(1) + exp2(minimum(d, -d)));
    const T z = self - self;  // NaN for infinite (and NaN) self
    return select(self == other, select(z != z, self, general), general);
  }
};

// gcd: the greatest common divisor, non-negative except that the minimum of a signed type has
// no positive counterpart (gcd(INT64_MIN, 0) is INT64_MIN, as in PyTorch); gcd(0, 0) is 0.
struct Gcd {
  template <typename T>
  T operator()(T self, T other) const {
    T a = self;
    T b = other;
    if constexpr (is_signed_v<T>) {
      a = a < 0 ? T(T(0) - a) : a;
      b = b < 0 ? T(T(0) - b) : b;
    }
    while (a != 0) {
      const T next = T(b % a);
      b = a;
      a = next;
    }
    return b;
  }
};

// lcm: |self / gcd * other|, 0 when either is 0 (PyTorch's `g == 0 ? 0 : abs(a / g * b)`).
// Types narrower than int32 compute the quotient, the product and its magnitude in int32 (C++'s
// promotion in PyTorch's kernel), then wrap to the type; int32 and int64 wrap in their own width.
// The minimum of int32 / int64 over a gcd of -1 (gcd's result for the minimum and an odd number,
// lcm(INT32_MIN, 5)) wraps to itself, as int8's and int16's minimum does: PyTorch 1.13 divides
// there and dies of SIGFPE (docs/pytorch_parity.md, lcm-minimum).
struct Lcm {
  template <typename T>
  T operator()(T self, T other) const {
    const T g = Gcd{}(self, other);
    if (g == T(0)) return T(0);
    if constexpr (sizeof(T) < 4) {
      const int32_t product = int32_t(self) / int32_t(g) * int32_t(other);
      return T(product < 0 ? -product : product);
    } else {
      const T product = T(detail::div_trunc_integer(self, g) * other);
      return product < T(0) ? T(T(0) - product) : product;
    }
  }
};

// heaviside(self, values): 0 where self < 0, values where self == 0, 1 where self > 0; NaN gives
// 0 (PyTorch's `a == 0 ? b : a > 0`); bool: true where self is, else values.
struct Heaviside {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T values) const {
    if constexpr (is_bool_v<T>) {
      return self ? true : values;
    } else {
      return select(self == T(0), values, select(self > T(0), T(1), T(0)));
    }
  }
};

// nextafter: the representable value after self in the direction of other (C's nextafter).
struct Nextafter {
  template <typename T>
  T operator()(T self, T other) const {
    return nextafter(self, other);
  }
};

// polar(abs, angle): abs cos(angle) + i abs sin(angle), a complex number of the parts' type
// (PyTorch's `complex<T>(a * cos(b), a * sin(b))`).
struct Polar {
  template <typename T>
  complex<T> operator()(T abs, T angle) const {
    return complex<T>(abs * cos(angle), abs * sin(angle));
  }
};

// complex(real, imag): real + i imag.
struct Complex {
  template <typename T>
  complex<T> operator()(T real, T imag) const {
    return complex<T>(real, imag);
  }
};

// ---- Comparisons and logic (results are bool) ---------------------------------------------
// The comparisons are kVectorized: on a Vectorized<T> they give the lanes' mask (every bit set
// where the comparison holds), which the CPU's loops store as bool, or as 1 / 0 of T when the
// output has the inputs' dtype (pointwise.h). Complex values compare for (in)equality only.

struct Eq {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self == other;
  }
};

struct Ne {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self != other;
  }
};

struct Lt {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self < other;
  }
};

struct Le {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self <= other;
  }
};

struct Gt {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self > other;
  }
};

struct Ge {
  static constexpr bool kVectorized = true;
  template <typename T>
  auto operator()(T self, T other) const {
    return self >= other;
  }
};

// logical_and: whether both are non-zero.
struct LogicalAnd {
  template <typename T>
  bool operator()(T self, T other) const {
    return !(self == T(0)) && !(other == T(0));
  }
};

// logical_or: whether either is non-zero.
struct LogicalOr {
  template <typename T>
  bool operator()(T self, T other) const {
    return !(self == T(0)) || !(other == T(0));
  }
};

// logical_xor: whether exactly one is non-zero.
struct LogicalXor {
  template <typename T>
  bool operator()(T self, T other) const {
    return (self == T(0)) != (other == T(0));
  }
};

// ---- Bitwise ops (integers and bool) ----------------------------------------------------------

// bitwise_and: self & other (bool: and).
struct BitwiseAnd {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_bool_v<T>) {
      return self && other;
    } else {
      return T(self & other);
    }
  }
};

// bitwise_or: self | other (bool: or).
struct BitwiseOr {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_bool_v<T>) {
      return self || other;
    } else {
      return T(self | other);
    }
  }
};

// bitwise_xor: self ^ other (bool: not equal).
struct BitwiseXor {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (is_bool_v<T>) {
      return self != other;
    } else {
      return T(self ^ other);
    }
  }
};

// Shifts, as PyTorch 1.13's CPU kernels compute them on x86 (`a << b` in C++, whose result for
// amounts outside [0, width) the hardware decides): the amount is taken modulo 32, or 64 for
// int64 (so -1 is 31, and 33 is 1), and types narrower than 32 bits shift as 32-bit integers, so
// their bits beyond the type's are dropped (int8(1) << 8 is 0) and their right shifts fill with
// the sign (int8(-128) >> 20 is -1). Written out, so the CUDA plugin computes the same (PTX
// clamps amounts instead of taking them modulo).
struct BitwiseLeftShift {
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (sizeof(T) == 8) {
      return T(static_cast<uint64_t>(self) << (static_cast<uint64_t>(other) & 63u));
    } else {
      return T(static_cast<uint32_t>(self) << (static_cast<uint32_t>(other) & 31u));
    }
  }
};

struct BitwiseRightShift {
  template <typename T>
  T operator()(T self, T other) const {
    if constexpr (sizeof(T) == 8) {
      return T(self >> (static_cast<uint64_t>(other) & 63u));
    } else if constexpr (is_signed_v<T>) {
      return T(static_cast<int32_t>(self) >> (static_cast<uint32_t>(other) & 31u));
    } else {
      return T(static_cast<uint32_t>(self) >> (static_cast<uint32_t>(other) & 31u));
    }
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_BINARY_H_
