#include "sdk/structured/layer_norm_meta.h"

#include <string>

#include "sdk/core/error.h"

namespace bp::meta {
namespace {

void check_affine(const char* name, const std::optional<Tensor>& t, IntArrayRef normalized,
                  const Tensor& input) {
  if (!t || !t->defined()) return;
  BP_CHECK(t->sizes() == normalized, "Expected ", name,
           " to be of same shape as normalized_shape, but got ", name, " of shape ",
           int_list_string(t->sizes()), " and normalized_shape = ", int_list_string(normalized));
  BP_CHECK(t->dtype() == input.dtype(), "expected scalar type ", input.dtype(), " but found ",
           t->dtype());
}

}  // namespace

LayerNormShape check_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                const std::optional<Tensor>& weight,
                                const std::optional<Tensor>& bias) {
  const int64_t normalized_dims = static_cast<int64_t>(normalized_shape.size());
  BP_CHECK(normalized_dims >= 1,
           "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
           "element, but got normalized_shape = ",
           int_list_string(normalized_shape));
  check_affine("weight", weight, normalized_shape, input);
  check_affine("bias", bias, normalized_shape, input);
  const int64_t axis = input.dim() - normalized_dims;
  bool matches = axis >= 0;
  for (int64_t i = 0; matches && i < normalized_dims; ++i) {
    matches = input.size(axis + i) == normalized_shape[static_cast<size_t>(i)];
  }
  if (!matches) {
    std::string star = "[*";
    for (int64_t s : normalized_shape) star += ", " + std::to_string(s);
    BP_CHECK(false, "Given normalized_shape=", int_list_string(normalized_shape),
             ", expected input with shape ", star, "], but got input of size",
             int_list_string(input.sizes()));
  }
  const ScalarType dtype = input.dtype();
  BP_CHECK_NOT_IMPLEMENTED(dtype == ScalarType::kFloat32 || dtype == ScalarType::kFloat64 ||
                               dtype == ScalarType::kBFloat16,
                           "\"native_layer_norm\" not implemented for '", dtype, "'");
  LayerNormShape shape;
  for (int64_t i = 0; i < axis; ++i) shape.rows *= input.size(i);
  for (int64_t s : normalized_shape) shape.cols *= s;
  shape.stat_sizes.assign(input.sizes().begin(), input.sizes().begin() + axis);
  shape.stat_sizes.insert(shape.stat_sizes.end(), static_cast<size_t>(normalized_dims), 1);
  shape.compute = dtype == ScalarType::kBFloat16 ? ScalarType::kFloat32 : dtype;
  return shape;
}

}  // namespace bp::meta
