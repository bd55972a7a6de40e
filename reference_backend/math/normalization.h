// Scalar math of normalisations along a dim (softmax, log_softmax), written once for the CPU
// backend (reference_backend/cpu/along_dim.h) and the CUDA jit (jit/along_dim.cuh).
//
// A normalisation is a reduction feeding a pointwise pass. For each line along the dim, in the
// compute type T (float for float16 / bfloat16):
//   max = the largest element (math::Max: NaN if any element is NaN);
//   sum = the sum of term(x, max) over the line;
//   out = apply(x, max, sum) for each element (or of_term(term(x, max), 1 / sum), where the
//   normalisation has of_term: softmax).
// As PyTorch's kernels, nothing guards infinities: a line holding +inf, or only -inf, gives NaN
// (inf - inf).
//
// Thread safety: pure functions of their arguments.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_NORMALIZATION_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_NORMALIZATION_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// softmax: exp(x - max) * (1 / sum(exp(x - max))).
struct Softmax {
  template <typename T>
  T term(T x, T max) const {
    return exp(x - max);
  }
  template <typename T>
  T apply(T x, T max, T sum) const {
    return of_term(term(x, max), T(1) / sum);
  }
  // The result from the element's term and 1 / sum (a backend that keeps the terms skips a
  // second exp, and multiplies by the reciprocal, as PyTorch's vectorised softmax does).
  template <typename T>
  T of_term(T term, T inverse_sum) const {
    return term * inverse_sum;
  }
};

// log_softmax: (x - max) - log(sum(exp(x - max))).
struct LogSoftmax {
  template <typename T>
  T term(T x, T max) const {
    return exp(x - max);
  }
  template <typename T>
  T apply(T x, T max, T sum) const {
    return (x - max) - log(sum);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_NORMALIZATION_H_
