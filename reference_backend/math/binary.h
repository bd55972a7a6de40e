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
    return self * other;
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_BINARY_H_
