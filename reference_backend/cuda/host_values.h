// The values the host hands kernels by value (functor arguments such as add's alpha, CPU scalar
// operands, fill values), converted exactly as the device converts: through the same
// element_cast the kernels use (the portable scalar layer, sdk/core/portable).
//
//   jit::Value alpha = scalar_as(args[2], Dtype::kFloat32);          // Scalar -> float
//   jit::Value x = element_as(cpu_scalar_data, Dtype::kInt64,        // int64 -> float16 -> float
//                             Dtype::kFloat16, Dtype::kFloat32);
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_HOST_VALUES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_HOST_VALUES_H_

#include "backplane/types.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

// A Scalar argument (a BOOL, INT, DOUBLE or COMPLEX value) as a value of dtype `to`, as
// PyTorch's Scalar::to<T>() without overflow checks. Errors: BP_ERROR_TYPE for other tags.
jit::Value scalar_as(const bp_value& value, Dtype to);
// The element of dtype `from` at host address `data`, converted to `via` and then to `to` (the
// CPU backend's path from an operand's dtype to the common dtype, then to the compute type).
jit::Value element_as(const void* data, Dtype from, Dtype via, Dtype to);
// Whether PyTorch's checked conversion of the Scalar to `to` (Scalar::to<T>(), c10::overflows)
// rejects it: integers outside the type (negative values wrap into unsigned types as long as
// their magnitude fits), NaN into integers, finite values beyond the type's range, complex values
// with an imaginary part into real types. Never for bool. Mirrors sdk/core/element_cast.h's
// element_overflows (host_values_test compares the two).
bool scalar_overflows(const bp_value& value, Dtype to);
// Throws Error(BP_ERROR_INVALID_ARGUMENT, "value cannot be converted to type uint8_t without
// overflow") when scalar_overflows.
void check_scalar_fits(const bp_value& value, Dtype to);

// The value as a double (its real part for complex dtypes), for tests and messages.
double value_to_double(const jit::Value& value, Dtype dtype);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_HOST_VALUES_H_
