// Scalar math of unary pointwise ops (neg, exp, ...): one functor per op, shared by the CPU
// backend and the CUDA jit. Conventions as in binary.h.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// neg: -x (unsigned integers wrap).
struct Neg {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return -x;
  }
};

// exp: e^x.
struct Exp {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return exp(x);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_UNARY_H_
