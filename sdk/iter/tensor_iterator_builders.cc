// The build_*_op shortcuts of TensorIteratorBase: ATen's common configurations.
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/tensor_iterator.h"  // IWYU pragma: associated
#include "sdk/iter/tensor_iterator_config.h"

namespace bp {

namespace {

TensorIteratorConfig& binary_op_config(TensorIteratorConfig& config) {
  return config.set_check_mem_overlap(true)
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
}

TensorIteratorConfig& unary_float_op_config(TensorIteratorConfig& config) {
  return config.set_check_mem_overlap(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .promote_integer_inputs_to_float(true);
}

TensorIteratorConfig& unary_op_config(TensorIteratorConfig& config) {
  return config.set_check_mem_overlap(true)
      .cast_common_dtype_to_outputs(false)
      .enforce_safe_casting_to_output(false)
      .check_all_same_dtype(true);
}

// Functional comparisons produce bool; given outputs keep their dtype. Bool outputs skip the
// temporary: comparison kernels write bool directly.
TensorIteratorConfig& comparison_op_config(TensorIteratorConfig& config, const Tensor& out) {
  config.set_check_mem_overlap(true).allow_cpu_scalars(true).promote_inputs_to_common_dtype(true);
  if (!out.defined()) config.declare_static_dtype(ScalarType::kBool);
  if (out.defined() && out.dtype() != ScalarType::kBool) config.cast_common_dtype_to_outputs(true);
  return config;
}

}  // namespace

void TensorIteratorBase::build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIteratorConfig config;
  binary_op_config(config).add_owned_output(out).add_owned_input(a).add_owned_input(b);
  build(config);
}

void TensorIteratorBase::build_borrowing_binary_op(const Tensor& out, const Tensor& a,
                                                   const Tensor& b) {
  TensorIteratorConfig config;
  binary_op_config(config).add_output(out).add_input(a).add_input(b);
  build(config);
}

void TensorIteratorBase::build_binary_float_op(const Tensor& out, const Tensor& a,
                                               const Tensor& b) {
  TensorIteratorConfig config;
  binary_op_config(config).promote_integer_inputs_to_float(true);
  config.add_owned_output(out).add_owned_input(a).add_owned_input(b);
  build(config);
}

void TensorIteratorBase::build_borrowing_binary_float_op(const Tensor& out, const Tensor& a,
                                                         const Tensor& b) {
  TensorIteratorConfig config;
  binary_op_config(config).promote_integer_inputs_to_float(true);
  config.add_output(out).add_input(a).add_input(b);
  build(config);
}

void TensorIteratorBase::build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIteratorConfig config;
  comparison_op_config(config, out).add_owned_output(out).add_owned_input(a).add_owned_input(b);
  build(config);
}

void TensorIteratorBase::build_borrowing_comparison_op(const Tensor& out, const Tensor& a,
                                                       const Tensor& b) {
  TensorIteratorConfig config;
  comparison_op_config(config, out).add_output(out).add_input(a).add_input(b);
  build(config);
}

void TensorIteratorBase::build_unary_op(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  unary_op_config(config).add_owned_output(out).add_owned_input(a);
  build(config);
}

void TensorIteratorBase::build_borrowing_unary_op(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  unary_op_config(config).add_output(out).add_input(a);
  build(config);
}

void TensorIteratorBase::build_unary_float_op(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  unary_float_op_config(config).add_owned_output(out).add_owned_input(a);
  build(config);
}

void TensorIteratorBase::build_borrowing_unary_float_op(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  unary_float_op_config(config).add_output(out).add_input(a);
  build(config);
}

void TensorIteratorBase::build_borrowing_unary_force_boolean_op(const Tensor& out,
                                                                const Tensor& a) {
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .declare_static_dtype(ScalarType::kBool)
      .declare_static_device(a.device())
      .add_output(out)
      .add_input(a);
  build(config);
}

void TensorIteratorBase::build_ternary_op(const Tensor& out, const Tensor& a, const Tensor& b,
                                          const Tensor& c) {
  TensorIteratorConfig config;
  config.promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .add_owned_output(out)
      .add_owned_input(a)
      .add_owned_input(b)
      .add_owned_input(c);
  build(config);
}

}  // namespace bp
