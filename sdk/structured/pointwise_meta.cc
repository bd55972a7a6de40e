#include "sdk/structured/pointwise_meta.h"

#include "sdk/core/error.h"

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

void unary_force_boolean_op(TensorIteratorBase& iter, const Tensor& self) {
  iter.build_borrowing_unary_force_boolean_op(iter.maybe_get_output(0), self);
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

}  // namespace bp::meta
