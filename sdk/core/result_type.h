// The dtype an op computes in, from its tensor and scalar operands: torch.result_type's rules,
// as meta functions apply them (no dispatch). The op bp::result_type (sdk/ops/promotion.yaml)
// answers the same question through the dispatcher.
//
//   Tensor i = empty({3}, ScalarType::kInt32, cpu);
//   Tensor d = empty({}, ScalarType::kFloat64, cpu);    // zero-dim
//   promoted_dtype(i, d);                               // kFloat64 (higher category)
//   promoted_dtype(i, Scalar(2.5));                     // kFloat32 (default dtype)
//   promoted_dtype({i, d}, {Scalar(int64_t{1})});       // kFloat64
//
// Applies promotion.h's rules: tensors with dims, zero-dim tensors and scalars are three priority
// classes (see there). Undefined tensors are skipped.
//
// Thread safety: pure functions of the operands' dtypes and dims.
#ifndef BACKPLANE_SDK_CORE_RESULT_TYPE_H_
#define BACKPLANE_SDK_CORE_RESULT_TYPE_H_

#include "absl/types/span.h"
#include "sdk/core/promotion.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp {

// How `tensor` takes part in type promotion: kWrappedScalar for a wrapped number (see
// wrapped_scalar_tensor), kZeroDimTensor for other zero-dim tensors, else kTensor.
OperandKind operand_kind(const Tensor& tensor);
// Adds `tensor` to `state` as operand_kind says (nothing for an undefined tensor).
void update_result_type_state(ResultTypeState& state, const Tensor& tensor);

// Errors: no defined operand at all (internal error, as promotion.h's result_type).
ScalarType promoted_dtype(absl::Span<const Tensor> tensors, absl::Span<const Scalar> scalars = {});
ScalarType promoted_dtype(const Tensor& a, const Tensor& b);
ScalarType promoted_dtype(const Tensor& tensor, const Scalar& scalar);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_RESULT_TYPE_H_
