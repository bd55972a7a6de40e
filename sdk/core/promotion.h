// PyTorch's type promotion: which dtype an op computes in when its operands differ.
//
//   promote_types(ScalarType::kUInt8, ScalarType::kInt8);        // kInt16
//   can_cast(ScalarType::kFloat32, ScalarType::kInt64);          // false (float -> integral)
//
//   // torch.add(int8_tensor, 1.5) computes in float32:
//   result_type(ScalarType::kInt8, Scalar(1.5));                 // kFloat32
//
//   // The general form, one update per operand (what TensorIterator does):
//   ResultTypeState state;
//   update_result_type_state(state, ScalarType::kInt32, OperandKind::kTensor);
//   update_result_type_state(state, ScalarType::kFloat64, OperandKind::kZeroDimTensor);
//   result_type(state);                                          // kFloat64
//
// The rules (PyTorch's at::native::result_type): operands fall into three priority classes:
// tensors with dimensions, zero-dim tensors, and wrapped numbers (Python scalars). Each class
// promotes within itself with promote_types. Then a lower class only matters when it is of a
// higher category (bool < integral < floating < complex) than the higher class: then its dtype
// joins the promotion, so int32 tensor + float64 zero-dim tensor is float64, while
// float16 tensor + float64 zero-dim tensor stays float16. Wrapped numbers count as the default
// dtype (float32) when floating and the default complex dtype (complex64) when complex.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_CORE_PROMOTION_H_
#define BACKPLANE_SDK_CORE_PROMOTION_H_

#include <optional>

#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"

namespace bp {

// The smallest dtype both a and b convert to without losing their category (NumPy's
// promote_types, PyTorch's promoteTypes restricted to Backplane's dtypes). Symmetric; total on
// the 12 dtypes (e.g. uint8 + int8 -> int16, float16 + bfloat16 -> float32,
// complex64 + float64 -> complex128).
ScalarType promote_types(ScalarType a, ScalarType b);

// Whether an op may write a result of dtype `from` into an output of dtype `to` (PyTorch's
// canCast, used by in-place and out= ops): false for complex -> non-complex, floating ->
// integral, and non-bool -> bool; true otherwise.
bool can_cast(ScalarType from, ScalarType to);

// The dtype of floating tensors created from Python floats (PyTorch's default: float32).
// Backplane has no set_default_dtype: this is a constant.
constexpr ScalarType default_dtype() { return ScalarType::kFloat32; }
// The complex dtype matching default_dtype() (complex64).
constexpr ScalarType default_complex_dtype() { return ScalarType::kComplex64; }

// The complex dtype with component type `t`'s precision: float32 and bfloat16 -> complex64,
// float64 -> complex128, and float16 -> complex64 (PyTorch gives complex32, which Backplane does
// not have). Complex dtypes map to themselves. Throws Error(kInvalidArgument) "Unknown Complex
// ScalarType for <name>" for non-floating dtypes, as PyTorch's toComplexType does.
ScalarType to_complex_type(ScalarType t);

// The real dtype of a complex dtype's parts: complex64 -> float32, complex128 -> float64; other
// dtypes map to themselves (PyTorch's toRealValueType).
constexpr ScalarType to_real_type(ScalarType t) {
  if (t == ScalarType::kComplex64) return ScalarType::kFloat32;
  if (t == ScalarType::kComplex128) return ScalarType::kFloat64;
  return t;
}

// How an operand takes part in type promotion.
enum class OperandKind {
  kTensor,         // A tensor with at least one dimension.
  kZeroDimTensor,  // A zero-dim tensor that the caller created as a tensor.
  kWrappedScalar,  // A number (a Scalar argument, or a Python number wrapped as a tensor).
};

// The running result of each priority class (nullopt: no operand of that class yet).
struct ResultTypeState {
  std::optional<ScalarType> dim_result;
  std::optional<ScalarType> zero_result;
  std::optional<ScalarType> wrapped_result;
};

// Adds one operand of dtype `dtype` to `state`.
void update_result_type_state(ResultTypeState& state, ScalarType dtype, OperandKind kind);

// The dtype to compute in. Precondition: at least one operand was added (otherwise throws an
// internal error).
ScalarType result_type(const ResultTypeState& state);

// result_type of a tensor with dimensions and a Scalar (torch.result_type(tensor, scalar) for a
// non-zero-dim tensor).
ScalarType result_type(ScalarType tensor_dtype, const Scalar& scalar);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PROMOTION_H_
