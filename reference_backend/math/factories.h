// Scalar math of the range factories linspace and logspace: element `index` of `steps`, by PyTorch
// 1.13's CPU formulas, shared by the CPU backend (reference_backend/cpu/linspace.cc) and the CUDA
// jit (the plugin's linspace / logspace computations). Portable source: see primitives.h.
//
// Both count the first half of the range up from start and the second half down from end, so
// both ends are exact: with step = (end - start) / (steps - 1), element i is start + step * i for
// i < steps / 2, else end - step * (steps - 1 - i). steps >= 2 (steps 0 and 1 are the callers':
// nothing, or a fill).
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_FACTORIES_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_FACTORIES_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// linspace in C, the type it is computed in: the output dtype itself for floating and complex
// outputs (float16 and bfloat16 round after every operation, as c10::Half does, and the index
// converts to C first), double for integral outputs (PyTorch's double step; start and end are
// the output dtype's values, converted). The caller converts the result to the output dtype.
template <typename C>
C linspace_element(C start, C end, int64_t steps, int64_t index) {
  const C step = (end - start) / (steps - 1);
  if (index < steps / 2) return start + step * index;
  return end - step * (steps - index - 1);
}

// logspace: base to the power of linspace's value, for start and end in the output dtype T.
// Real T: the step is the difference in T's arithmetic (bfloat16 rounds; int32 and int64 wrap)
// in double, the exponent and the power are double (C's pow), and the result converts to T as
// PyTorch's store does (out of range: implementation-defined). Complex T: all in T (the step by
// 1.13's complex division, the index as a complex number, std::pow of complex numbers).
template <typename T>
T logspace_element(T start, T end, double base, int64_t steps, int64_t index) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    // c10::complex's division in 1.13, (a c + b d) / (c c + d d) and (b c - a d) / (c c + d d),
    // by the complex number steps - 1 (not the Smith division of bp::complex's operator/).
    const R c = static_cast<R>(steps - 1), d = R(0);
    const T difference = end - start;
    const R denominator = c * c + d * d;
    const T step((difference.real() * c + difference.imag() * d) / denominator,
                 (difference.imag() * c - difference.real() * d) / denominator);
    const T exponent = index < steps / 2 ? start + step * T(static_cast<R>(index))
                                         : end - step * T(static_cast<R>(steps - index - 1));
    return pow(T(static_cast<R>(base)), exponent);
  } else {
    const double step = static_cast<double>(end - start) / static_cast<double>(steps - 1);
    const double exponent = index < steps / 2 ? start + step * static_cast<double>(index)
                                              : end - step * static_cast<double>(steps - index - 1);
    return static_cast<T>(pow(base, exponent));
  }
}

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_FACTORIES_H_
