#include "sdk/structured/pointwise_meta.h"

#include <string_view>

#include "sdk/core/error.h"
#include "sdk/core/overlap.h"
#include "sdk/core/promotion.h"
#include "sdk/core/result_type.h"
#include "sdk/iter/tensor_iterator_config.h"

namespace bp::meta {
namespace {

void alpha_check(ScalarType dtype, const Scalar& alpha) {
  BP_CHECK(!alpha.is_boolean() || dtype == ScalarType::kBool,
           "Boolean alpha only supported for Boolean results.");
  BP_CHECK(
      is_floating_point(dtype) || is_complex(dtype) || alpha.is_integral(/*include_bool=*/true),
      "For integral input tensors, argument alpha must not be a floating point number.");
  BP_CHECK(is_complex(dtype) || !alpha.is_complex(),
           "For non-complex input tensors, argument alpha must not be a complex number.");
}

}  // namespace

void binary_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  iter.build_borrowing_binary_op(iter.maybe_get_output(0), self, other);
}

void binary_float_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  iter.build_borrowing_binary_float_op(iter.maybe_get_output(0), self, other);
}

void comparison_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  iter.build_borrowing_comparison_op(iter.maybe_get_output(0), self, other);
}

void unary_op(TensorIteratorBase& iter, const Tensor& self) {
  iter.build_borrowing_unary_op(iter.maybe_get_output(0), self);
}

void neg_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(self.dtype() != ScalarType::kBool,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
           "invert a mask, use the `~` or `logical_not()` operator instead.");
  unary_op(iter, self);
}

void unary_float_op(TensorIteratorBase& iter, const Tensor& self) {
  iter.build_borrowing_unary_float_op(iter.maybe_get_output(0), self);
}

void polygamma_op(TensorIteratorBase& iter, const Tensor& self, int64_t n) {
  BP_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  unary_float_op(iter, self);
}

void mvlgamma_op(TensorIteratorBase& iter, const Tensor& self, int64_t p) {
  BP_CHECK(p >= 1, "p has to be greater than or equal to 1");
  BP_CHECK(self.dtype() != ScalarType::kBool, "The input tensor may not be a boolean tensor.");
  unary_float_op(iter, self);
}

void unary_force_boolean_op(TensorIteratorBase& iter, const Tensor& self) {
  iter.build_borrowing_unary_force_boolean_op(iter.maybe_get_output(0), self);
}

void unary_op_in_dtype(TensorIteratorBase& iter, const Tensor& self, ScalarType dtype) {
  const Tensor& out = iter.maybe_get_output(0);
  // PyTorch checks the written tensor's overlap first (x.expand(...).pow_(2) of any dtype).
  if (out.defined()) assert_no_internal_overlap(out);
  BP_CHECK(!out.defined() || out.dtype() == dtype, "Found dtype ",
           out.defined() ? out.dtype() : dtype, " but expected ", dtype);
  // The common dtype carries `dtype` to device kernels, which get `self` itself and cast while
  // loading; on the CPU the iterator converts self (as PyTorch's self.to(dtype)).
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .cast_common_dtype_to_outputs(false)
      .enforce_safe_casting_to_output(false)
      .add_output(out)
      .add_input(self)
      .declare_common_dtype(dtype);
  iter.build(config);
}

namespace {

// A complex self into a real output (or a complex one, given): the kernel's real result is cast
// to the output. PyTorch's unary_op_impl_with_complex_to_float_out.
void complex_to_real_op(TensorIteratorBase& iter, const Tensor& self) {
  const Tensor& out = iter.maybe_get_output(0);
  if (out.defined() && is_complex(out.dtype())) {
    unary_op(iter, self);
    return;
  }
  const ScalarType real = to_real_type(self.dtype());
  BP_CHECK(!out.defined() || can_cast(real, out.dtype()), "result type ", real,
           " can't be cast to the desired output type ", out.dtype());
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true).check_all_same_dtype(false).add_output(out).add_input(self);
  if (!out.defined()) config.declare_static_dtype(real);
  iter.build(config);
}

// unary_force_boolean_op for the real-only predicates (isposinf, signbit, ...).
void real_predicate_op(TensorIteratorBase& iter, const Tensor& self, std::string_view name,
                       std::string_view complex_message) {
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!is_complex(self.dtype()), name, complex_message);
  BP_CHECK(!out.defined() || out.dtype() == ScalarType::kBool, name,
           " does not support non-boolean outputs.");
  unary_force_boolean_op(iter, self);
}

}  // namespace

void abs_op(TensorIteratorBase& iter, const Tensor& self) {
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!out.is_same(self) || !is_complex(self.dtype()),
           "In-place abs is not supported for complex tensors.");
  is_complex(self.dtype()) ? complex_to_real_op(iter, self) : unary_op(iter, self);
}

void angle_op(TensorIteratorBase& iter, const Tensor& self) {
  // Into a complex out, PyTorch's float path (unary_op_impl_float_out): any complex out the
  // result casts to.
  const Tensor& out = iter.maybe_get_output(0);
  const bool complex_out = out.defined() && is_complex(out.dtype());
  is_complex(self.dtype()) && !complex_out ? complex_to_real_op(iter, self)
                                           : unary_float_op(iter, self);
}

void floor_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()), "floor is not supported for complex inputs");
  unary_op(iter, self);
}

void trunc_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()), "trunc is not supported for complex inputs");
  unary_op(iter, self);
}

void sign_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()),
           "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
           "torch.sgn instead.");
  unary_op(iter, self);
}

void deg2rad_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()), "deg2rad is not supported for complex tensors.");
  unary_float_op(iter, self);
}

void rad2deg_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()), "rad2deg is not supported for complex tensors.");
  unary_float_op(iter, self);
}

void isposinf_op(TensorIteratorBase& iter, const Tensor& self) {
  real_predicate_op(iter, self, "isposinf", " does not support complex inputs.");
}

void isneginf_op(TensorIteratorBase& iter, const Tensor& self) {
  real_predicate_op(iter, self, "isneginf", " does not support complex inputs.");
}

void signbit_op(TensorIteratorBase& iter, const Tensor& self) {
  real_predicate_op(iter, self, "signbit", " is not implemented for complex tensors.");
}

void ceil_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(!is_complex(self.dtype()), "ceil is not supported for complex inputs");
  unary_op(iter, self);
}

void relu_op(TensorIteratorBase& iter, const Tensor& self) {
  BP_CHECK(self.dtype() != ScalarType::kBool, "Boolean inputs not supported for relu");
  BP_CHECK(!is_complex(self.dtype()), "clamp is not supported for complex types");
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .add_output(iter.maybe_get_output(0))
      .add_input(self);
  iter.build(config);
}

void hardtanh_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& min_val,
                 const Scalar& max_val) {
  BP_CHECK(self.dtype() != ScalarType::kBool, "Bool inputs not supported for hardtanh");
  BP_CHECK(!is_complex(self.dtype()), "clamp is not supported for complex types");
  if (self.dtype() == ScalarType::kUInt8) {
    BP_CHECK(min_val.to<int64_t>() >= 0 && max_val.to<int64_t>() >= 0,
             "cannot do hardtanh on an unsigned type with negative limits");
  }
  unary_op(iter, self);
}

void threshold_op(TensorIteratorBase& iter, const Tensor& self) {
  TensorIteratorConfig config;
  // As PyTorch's: threshold_ of an expanded tensor writes each shared element (the same value).
  config.set_check_mem_overlap(false)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .add_output(iter.maybe_get_output(0))
      .add_input(self);
  iter.build(config);
}

void gelu_op(TensorIteratorBase& iter, const Tensor& self, std::string_view approximate) {
  unary_op(iter, self);
  BP_CHECK(approximate == "none" || approximate == "tanh",
           "approximate argument must be either none or tanh.");
}

void nan_to_num_op(TensorIteratorBase& iter, const Tensor& self) {
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!out.defined() || out.dtype() == self.dtype(),
           "nan_to_num: dtype of out: ", out.defined() ? out.dtype() : self.dtype(),
           " should be same as input: ", self.dtype());
  unary_op(iter, self);
}

void add_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other,
            const Scalar& alpha) {
  binary_op(iter, self, other);
  alpha_check(*iter.common_dtype(), alpha);
}

void sub_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other,
            const Scalar& alpha) {
  BP_CHECK(self.dtype() != ScalarType::kBool || other.dtype() != ScalarType::kBool,
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
           "`logical_xor()` operator instead.");
  BP_CHECK(self.dtype() != ScalarType::kBool && other.dtype() != ScalarType::kBool,
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
           "to invert a mask, use the `~` or `logical_not()` operator instead.");
  add_op(iter, self, other, alpha);
}

void div_mode_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other,
                 std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode.has_value()) {
    binary_float_op(iter, self, other);
    return;
  }
  BP_CHECK(*rounding_mode == "trunc" || *rounding_mode == "floor",
           "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
           *rounding_mode, "'");
  binary_op(iter, self, other);
}

namespace {
// binary_op for an op PyTorch refuses complex operands of: "<name> not implemented for complex
// tensors."
void real_binary_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other,
                    std::string_view name) {
  BP_CHECK(!is_complex(self.dtype()) && !is_complex(other.dtype()), name,
           " not implemented for complex tensors.");
  binary_op(iter, self, other);
}
}  // namespace

void maximum_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  real_binary_op(iter, self, other, "maximum");
}

void minimum_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  real_binary_op(iter, self, other, "minimum");
}

void fmax_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  real_binary_op(iter, self, other, "fmax");
}

void fmin_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& other) {
  real_binary_op(iter, self, other, "fmin");
}

void heaviside_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& values) {
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!is_complex(self.dtype()) && !is_complex(values.dtype()) &&
               !(out.defined() && is_complex(out.dtype())),
           "heaviside is not yet implemented for complex tensors.");
  BP_CHECK(self.dtype() == values.dtype() && !(out.defined() && out.dtype() != self.dtype()),
           "heaviside is not yet implemented for tensors with different dtypes.");
  binary_op(iter, self, values);
}

void complex_parts_op(TensorIteratorBase& iter, const Tensor& first, const Tensor& second) {
  const auto floating = [](ScalarType t) {
    return t == ScalarType::kFloat32 || t == ScalarType::kFloat64 || t == ScalarType::kFloat16;
  };
  BP_CHECK(floating(first.dtype()) && floating(second.dtype()),
           "Expected both inputs to be Half, Float or Double tensors but got ", first.dtype(),
           " and ", second.dtype());
  BP_CHECK(first.dtype() == second.dtype(), "Expected object of scalar type ", first.dtype(),
           " but got scalar type ", second.dtype(), " for second argument");
  const ScalarType complex_dtype = to_complex_type(first.dtype());
  const Tensor& out = iter.maybe_get_output(0);
  BP_CHECK(!out.defined() || out.dtype() == complex_dtype, "Expected object of scalar type ",
           complex_dtype, " but got scalar type ", out.defined() ? out.dtype() : complex_dtype,
           " for argument 'out'");
  TensorIteratorConfig config;
  config.check_all_same_dtype(false).add_output(out).add_input(first).add_input(second);
  if (!out.defined()) config.declare_static_dtype(complex_dtype);
  iter.build(config);
}

void pow_tensor_scalar_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& exponent) {
  BP_CHECK(!(is_integral(self.dtype(), /*include_bool=*/true) &&
             exponent.is_integral(/*include_bool=*/true) && exponent.to<int64_t>() < 0),
           "Integers to negative integer powers are not allowed.");
  unary_op_in_dtype(iter, self, promoted_dtype(self, exponent));
}

}  // namespace bp::meta
