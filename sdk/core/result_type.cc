#include "sdk/core/result_type.h"

namespace bp {

OperandKind operand_kind(const Tensor& tensor) {
  if (tensor.is_wrapped_number()) return OperandKind::kWrappedScalar;
  return tensor.dim() == 0 ? OperandKind::kZeroDimTensor : OperandKind::kTensor;
}

void update_result_type_state(ResultTypeState& state, const Tensor& tensor) {
  if (!tensor.defined()) return;
  update_result_type_state(state, tensor.dtype(), operand_kind(tensor));
}

ScalarType promoted_dtype(absl::Span<const Tensor> tensors, absl::Span<const Scalar> scalars) {
  ResultTypeState state;
  for (const Tensor& tensor : tensors) update_result_type_state(state, tensor);
  for (const Scalar& scalar : scalars)
    update_result_type_state(state, scalar.type(), OperandKind::kWrappedScalar);
  return result_type(state);
}

ScalarType promoted_dtype(const Tensor& a, const Tensor& b) { return promoted_dtype({a, b}); }

ScalarType promoted_dtype(const Tensor& tensor, const Scalar& scalar) {
  return promoted_dtype(absl::Span<const Tensor>(&tensor, 1), absl::Span<const Scalar>(&scalar, 1));
}

}  // namespace bp
