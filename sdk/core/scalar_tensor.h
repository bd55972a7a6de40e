// Zero-dim CPU tensors holding one number.
//
//   Tensor two = wrapped_scalar_tensor(Scalar(2));   // int64, is_wrapped_number()
//   add(x, two);                                     // promotes as add(x, 2) would
//   Tensor h = scalar_tensor(Scalar(0.5), ScalarType::kFloat16);
//
// Scalar overloads of ops (add.Scalar, eq.Scalar, ...) wrap their Scalar this way and call the
// Tensor overload; type promotion then treats the operand as a number (promotion.h).
//
// Thread safety: safe to call from any thread.
#ifndef BACKPLANE_SDK_CORE_SCALAR_TENSOR_H_
#define BACKPLANE_SDK_CORE_SCALAR_TENSOR_H_

#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp {

// A zero-dim CPU tensor of `dtype` holding `value` converted as kernels convert (no overflow
// check, as torch.scalar_tensor).
Tensor scalar_tensor(const Scalar& value, ScalarType dtype);

// A zero-dim CPU tensor of value.type() (bool, int64, float64 or complex128) marked as a wrapped
// number.
Tensor wrapped_scalar_tensor(const Scalar& value);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_SCALAR_TENSOR_H_
