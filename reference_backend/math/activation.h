// Scalar math of activation functions (relu, silu, elu, ...): one functor per op, shared by the
// CPU backend and the CUDA jit. Conventions as in binary.h: the Scalar arguments of the
// declaration (`math: Elu(alpha, scale, input_scale)`) come after the input, in the compute type.
// The formulas and their special values are PyTorch's (aten/src/ATen/native/cpu/Activation.cpp):
// branches are written with select() so that the same body runs on Vectorized<T>, as PyTorch's
// blendv does.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_ACTIVATION_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_ACTIVATION_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// relu: clamp_min(x, 0): NaN stays NaN and -0.0 stays -0.0 (maximum keeps its first argument of
// equal values).
struct Relu {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return maximum(x, T(0));
  }
};

// silu: x * sigmoid(x), written x / (1 + e^-x) (complex too).
struct Silu {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return x / (T(1) + exp(-x));
  }
};

// mish: x * tanh(softplus(x)) = x * tanh(log(1 + e^x)).
struct Mish {
  static constexpr bool kVectorized = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T x) const {
    return x * tanh(log1p(exp(x)));
  }
};

// elu: x <= 0 ? (e^(x * input_scale) - 1) * alpha * scale : x * scale. NaN takes the first
// branch (NaN either way).
struct Elu {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x, T alpha, T scale, T input_scale) const {
    return select(x > T(0), x * scale, (exp(x * input_scale) - T(1)) * (alpha * scale));
  }
};

// leaky_relu: x > 0 ? x : x * negative_slope.
struct LeakyRelu {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x, T negative_slope) const {
    return select(x > T(0), x, x * negative_slope);
  }
};

// hardtanh: clamp(x, min_val, max_val) = min(max(x, min_val), max_val): max_val when
// min_val > max_val; NaN stays NaN. Integers too (the bounds come as integers).
struct Hardtanh {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x, T min_val, T max_val) const {
    return minimum(maximum(x, min_val), max_val);
  }
};

// threshold: value where x <= threshold, else x (NaN stays NaN). Integers take both numbers as
// integers (truncated, as PyTorch's to<scalar_t>).
struct Threshold {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x, T threshold, T value) const {
    return select(x <= threshold, value, x);
  }
};

// hardsigmoid: min(max(x + 3, 0), 6) / 6.
struct Hardsigmoid {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return minimum(maximum(x + T(3), T(0)), T(6)) / T(6);
  }
};

// hardswish: x * min(max(x + 3, 0), 6) / 6, multiplied before the division as PyTorch.
struct Hardswish {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x) const {
    return x * minimum(maximum(x + T(3), T(0)), T(6)) / T(6);
  }
};

// softplus: log(1 + e^(x * beta)) / beta, or x itself where x * beta > threshold.
struct Softplus {
  static constexpr bool kVectorized = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T x, T beta, T threshold) const {
    return select(x * beta > threshold, x, log1p(exp(x * beta)) / beta);
  }
};

// gelu: x * Phi(x) = x / 2 * (1 + erf(x / sqrt 2)) for approximate 'none' (0), or
// x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) for 'tanh' (1), as PyTorch's kernel.
// `approximate` is an int, so vector loops get it as a scalar and evaluate one form only.
struct Gelu {
  static constexpr bool kVectorized = true;
  static constexpr bool kWideVectors = true;  // no comparisons on T (erf, tanh: none either)
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T x, int approximate) const {
    // approximate is the same for every lane, and a constant in the CPU backend's loops
    // (pointwise.h's MathChoice): one form is evaluated, and the other is not compiled in.
    const T f = approximate == 1 ? tanh(T(0.79788456080286535588) * (x + T(0.044715) * (x * x * x)))
                                 : erf(x * T(0.70710678118654752440));
    // x (1/2 + f/2): PyTorch's x/2 (1 + f), bit for bit (the halvings are exact, so each form
    // rounds the same product once), in 2 operations instead of 3; -0.0 stays (x/2 + x/2 f
    // would lose it).
    return x * (T(0.5) + T(0.5) * f);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_ACTIVATION_H_
