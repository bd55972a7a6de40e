#include "sdk/core/promotion.h"

#include <algorithm>

namespace bp {
namespace {

// Within one category the dtypes are ordered by width, except where two of the same width have
// no common subset (uint8/int8, float16/bfloat16): those meet at the next wider signed type.
ScalarType promote_same_category(ScalarType a, ScalarType b) {
  const ScalarType wider = element_size(a) >= element_size(b) ? a : b;
  const ScalarType narrower = wider == a ? b : a;
  if (is_integral(a, false)) {
    // uint8 meets a signed type: int8 widens to int16 (to hold 0..255); wider ones already fit.
    if (narrower == ScalarType::kUInt8 && wider == ScalarType::kInt8) return ScalarType::kInt16;
    if (wider == ScalarType::kUInt8 && narrower == ScalarType::kInt8) return ScalarType::kInt16;
    return wider;
  }
  if (is_reduced_floating_point(a) && is_reduced_floating_point(b)) return ScalarType::kFloat32;
  return wider;
}

}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (category(a) == category(b)) return promote_same_category(a, b);
  const ScalarType higher = category(a) > category(b) ? a : b;
  const ScalarType lower = higher == a ? b : a;
  // Only a float64 needs a wider complex than complex64 to hold it.
  if (lower == ScalarType::kFloat64 && is_complex(higher)) return ScalarType::kComplex128;
  return higher;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating_point(from) && is_integral(to, false)) return false;
  // bool is a category of its own (bool_tensor + 5 is int64), so only bool writes into bool.
  if (from != ScalarType::kBool && to == ScalarType::kBool) return false;
  return true;
}

ScalarType to_complex_type(ScalarType t) {
  switch (t) {
    case ScalarType::kFloat16:   // PyTorch: complex32, which Backplane does not have.
    case ScalarType::kBFloat16:  // float32's range, so complex64 (as PyTorch 1.13 does).
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return ScalarType::kComplex64;
    case ScalarType::kFloat64:
    case ScalarType::kComplex128:
      return ScalarType::kComplex128;
    default:
      break;
  }
  BP_CHECK(false, "Unknown Complex ScalarType for ", t);
  return t;  // Unreachable.
}

namespace {

std::optional<ScalarType> promote_skip_undefined(std::optional<ScalarType> a, ScalarType b) {
  return a ? promote_types(*a, b) : b;
}

// Combines a higher-priority class's result with a lower one's: the lower class matters only
// when it is of a higher category.
std::optional<ScalarType> combine_categories(std::optional<ScalarType> higher,
                                             std::optional<ScalarType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  if (is_complex(*lower)) {
    // Keep the precision of a floating higher class (float64 tensor + 1j -> complex128).
    if (is_floating_point(*higher)) return to_complex_type(*higher);
    return lower;
  }
  if (is_floating_point(*higher)) return higher;
  if (*higher == ScalarType::kBool || is_floating_point(*lower)) {
    return promote_types(*higher, *lower);
  }
  return higher;
}

}  // namespace

void update_result_type_state(ResultTypeState& state, ScalarType dtype, OperandKind kind) {
  switch (kind) {
    case OperandKind::kTensor:
      state.dim_result = promote_skip_undefined(state.dim_result, dtype);
      return;
    case OperandKind::kZeroDimTensor:
      state.zero_result = promote_skip_undefined(state.zero_result, dtype);
      return;
    case OperandKind::kWrappedScalar:
      // A Python number has no precision of its own: it takes the default of its category.
      if (is_complex(dtype)) {
        dtype = default_complex_dtype();
      } else if (is_floating_point(dtype)) {
        dtype = default_dtype();
      }
      state.wrapped_result = promote_skip_undefined(state.wrapped_result, dtype);
      return;
  }
  BP_INTERNAL_ASSERT(false, "invalid OperandKind ", static_cast<int>(kind));
}

ScalarType result_type(const ResultTypeState& state) {
  const std::optional<ScalarType> result = combine_categories(
      state.dim_result, combine_categories(state.zero_result, state.wrapped_result));
  BP_INTERNAL_ASSERT(result.has_value(), "result_type of no operands");
  return *result;
}

ScalarType result_type(ScalarType tensor_dtype, const Scalar& scalar) {
  ResultTypeState state;
  update_result_type_state(state, tensor_dtype, OperandKind::kTensor);
  update_result_type_state(state, scalar.type(), OperandKind::kWrappedScalar);
  return result_type(state);
}

}  // namespace bp
