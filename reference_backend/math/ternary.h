// Scalar math of ternary and masked pointwise ops (where, clamp, lerp, addcmul, addcdiv,
// masked_fill): one functor per op, shared by the CPU backend and the CUDA jit. Conventions as in
// binary.h.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_TERNARY_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_TERNARY_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// where: self where the condition holds, else other. The condition is read as bool (declared
// `condition=bool`) and arrives as 0 / 1 of T, on vectors too.
struct Where {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T condition, T self, T other) const {
    return select(condition == T(0), other, self);
  }
};

// clamp with a lower bound only: the larger of self and min, NaN if either is NaN. A bound equal
// to self leaves self (PyTorch's std::max(self, min); maximum gives its first argument on equal
// values), so the sign of a zero self stays: clamp(-0.0, min=0.0) is -0.0.
struct ClampMin {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T min) const {
    return maximum(self, min);
  }
};

// clamp with an upper bound only: the smaller of self and max, as ClampMin.
struct ClampMax {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T max) const {
    return minimum(self, max);
  }
};

// clamp: min(max(self, min), max) with ClampMin and ClampMax (NaN-propagating: a NaN bound gives
// NaN, as in PyTorch; bounds equal to self leave self); when min > max the result is max. The
// bounds are tensors (clamp.Tensor) or Scalars (clamp).
struct Clamp {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T min, T max) const {
    return ClampMax{}(ClampMin{}(self, min), max);
  }
};

// lerp: self + weight * (end - self), written from end for |weight| >= 0.5 so that weight 1
// gives exactly end (PyTorch's formula since 2.0: 1.13's CPU kernel compared the signed weight, so
// lerp(0, inf, -0.5) was -inf there and is NaN here).
struct Lerp {
  template <typename T>
  T operator()(T self, T end, T weight) const {
    bool small;
    if constexpr (is_complex_v<T>) {
      small = weight.real() * weight.real() + weight.imag() * weight.imag() < real_t<T>(0.25);
    } else {
      small = abs(weight) < T(0.5);
    }
    return small ? self + weight * (end - self) : end - (end - self) * (T(1) - weight);
  }
};

// addcmul: self + value * tensor1 * tensor2.
struct Addcmul {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T tensor1, T tensor2, T value) const {
    return self + value * tensor1 * tensor2;
  }
};

// addcdiv: self + value * tensor1 / tensor2, the product divided (PyTorch's order, both loops).
struct Addcdiv {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T self, T tensor1, T tensor2, T value) const {
    return self + value * tensor1 / tensor2;
  }
};

// masked_fill: value where the mask is set, else self. The mask is read as bool (declared
// `mask=bool`) and arrives as 0 / 1 of T, on vectors too.
struct MaskedFill {
  static constexpr bool kVectorized = true;
  // The result is self wherever the mask (input 1) is clear: in place, the CPU loops write only
  // where it is set (sdk/iter/loops.h).
  static constexpr int kKeptWhereClear = 1;
  template <typename T>
  T operator()(T self, T mask, T value) const {
    return select(mask == T(0), self, value);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_TERNARY_H_
