// Scalar overloads of binary ops (either operand a number): the number becomes a wrapped zero-dim
// tensor (promoting as a Scalar would) and the Tensor overload runs.
#include "sdk/core/scalar_tensor.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return bp::add(self, wrapped_scalar_tensor(other), alpha);
}

Tensor& add_scalar_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.add_(wrapped_scalar_tensor(other), alpha);
}

Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return bp::sub(self, wrapped_scalar_tensor(other), alpha);
}

Tensor& sub_scalar_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.sub_(wrapped_scalar_tensor(other), alpha);
}

Tensor mul_scalar(const Tensor& self, const Scalar& other) {
  return bp::mul(self, wrapped_scalar_tensor(other));
}

Tensor& mul_scalar_(Tensor& self, const Scalar& other) {
  return self.mul_(wrapped_scalar_tensor(other));
}

Tensor div_scalar(const Tensor& self, const Scalar& other) {
  return bp::div(self, wrapped_scalar_tensor(other));
}

Tensor& div_scalar_(Tensor& self, const Scalar& other) {
  return self.div_(wrapped_scalar_tensor(other));
}

Tensor div_scalar_mode(const Tensor& self, const Scalar& other,
                       std::optional<std::string_view> rounding_mode) {
  return bp::div(self, wrapped_scalar_tensor(other), rounding_mode);
}

Tensor& div_scalar_mode_(Tensor& self, const Scalar& other,
                         std::optional<std::string_view> rounding_mode) {
  return self.div_(wrapped_scalar_tensor(other), rounding_mode);
}

Tensor remainder_scalar(const Tensor& self, const Scalar& other) {
  return bp::remainder(self, wrapped_scalar_tensor(other));
}

Tensor& remainder_scalar_(Tensor& self, const Scalar& other) {
  return self.remainder_(wrapped_scalar_tensor(other));
}

Tensor& remainder_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::remainder_out(out, self, wrapped_scalar_tensor(other));
}

Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::remainder(wrapped_scalar_tensor(self), other);
}

Tensor pow_scalar(const Scalar& self, const Tensor& exponent) {
  return bp::pow(wrapped_scalar_tensor(self), exponent);
}

Tensor& pow_scalar_out(const Scalar& self, const Tensor& exponent, Tensor& out) {
  return bp::pow_out(out, wrapped_scalar_tensor(self), exponent);
}

Tensor eq_scalar(const Tensor& self, const Scalar& other) {
  return bp::eq(self, wrapped_scalar_tensor(other));
}

Tensor& eq_scalar_(Tensor& self, const Scalar& other) {
  return self.eq_(wrapped_scalar_tensor(other));
}

Tensor& eq_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::eq_out(out, self, wrapped_scalar_tensor(other));
}

Tensor lt_scalar(const Tensor& self, const Scalar& other) {
  return bp::lt(self, wrapped_scalar_tensor(other));
}

Tensor& lt_scalar_(Tensor& self, const Scalar& other) {
  return self.lt_(wrapped_scalar_tensor(other));
}

Tensor& lt_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::lt_out(out, self, wrapped_scalar_tensor(other));
}

Tensor ne_scalar(const Tensor& self, const Scalar& other) {
  return bp::ne(self, wrapped_scalar_tensor(other));
}

Tensor& ne_scalar_(Tensor& self, const Scalar& other) {
  return self.ne_(wrapped_scalar_tensor(other));
}

Tensor& ne_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::ne_out(out, self, wrapped_scalar_tensor(other));
}

Tensor le_scalar(const Tensor& self, const Scalar& other) {
  return bp::le(self, wrapped_scalar_tensor(other));
}

Tensor& le_scalar_(Tensor& self, const Scalar& other) {
  return self.le_(wrapped_scalar_tensor(other));
}

Tensor& le_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::le_out(out, self, wrapped_scalar_tensor(other));
}

Tensor gt_scalar(const Tensor& self, const Scalar& other) {
  return bp::gt(self, wrapped_scalar_tensor(other));
}

Tensor& gt_scalar_(Tensor& self, const Scalar& other) {
  return self.gt_(wrapped_scalar_tensor(other));
}

Tensor& gt_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::gt_out(out, self, wrapped_scalar_tensor(other));
}

Tensor ge_scalar(const Tensor& self, const Scalar& other) {
  return bp::ge(self, wrapped_scalar_tensor(other));
}

Tensor& ge_scalar_(Tensor& self, const Scalar& other) {
  return self.ge_(wrapped_scalar_tensor(other));
}

Tensor& ge_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::ge_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_and_scalar(const Tensor& self, const Scalar& other) {
  return bp::bitwise_and(self, wrapped_scalar_tensor(other));
}

Tensor& bitwise_and_scalar_(Tensor& self, const Scalar& other) {
  return self.bitwise_and_(wrapped_scalar_tensor(other));
}

Tensor& bitwise_and_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::bitwise_and_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_and_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::bitwise_and(wrapped_scalar_tensor(self), other);
}

Tensor& bitwise_and_scalar_tensor_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return bp::bitwise_and_out(out, wrapped_scalar_tensor(self), other);
}

Tensor bitwise_or_scalar(const Tensor& self, const Scalar& other) {
  return bp::bitwise_or(self, wrapped_scalar_tensor(other));
}

Tensor& bitwise_or_scalar_(Tensor& self, const Scalar& other) {
  return self.bitwise_or_(wrapped_scalar_tensor(other));
}

Tensor& bitwise_or_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::bitwise_or_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_or_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::bitwise_or(wrapped_scalar_tensor(self), other);
}

Tensor& bitwise_or_scalar_tensor_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return bp::bitwise_or_out(out, wrapped_scalar_tensor(self), other);
}

Tensor bitwise_xor_scalar(const Tensor& self, const Scalar& other) {
  return bp::bitwise_xor(self, wrapped_scalar_tensor(other));
}

Tensor& bitwise_xor_scalar_(Tensor& self, const Scalar& other) {
  return self.bitwise_xor_(wrapped_scalar_tensor(other));
}

Tensor& bitwise_xor_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::bitwise_xor_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_xor_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::bitwise_xor(wrapped_scalar_tensor(self), other);
}

Tensor& bitwise_xor_scalar_tensor_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return bp::bitwise_xor_out(out, wrapped_scalar_tensor(self), other);
}

Tensor bitwise_left_shift_tensor_scalar(const Tensor& self, const Scalar& other) {
  return bp::bitwise_left_shift(self, wrapped_scalar_tensor(other));
}

Tensor& bitwise_left_shift_tensor_scalar_(Tensor& self, const Scalar& other) {
  return self.bitwise_left_shift_(wrapped_scalar_tensor(other));
}

Tensor& bitwise_left_shift_tensor_scalar_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return bp::bitwise_left_shift_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_left_shift_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::bitwise_left_shift(wrapped_scalar_tensor(self), other);
}

Tensor& bitwise_left_shift_scalar_tensor_out(const Scalar& self, const Tensor& other, Tensor& out) {
  return bp::bitwise_left_shift_out(out, wrapped_scalar_tensor(self), other);
}

Tensor bitwise_right_shift_tensor_scalar(const Tensor& self, const Scalar& other) {
  return bp::bitwise_right_shift(self, wrapped_scalar_tensor(other));
}

Tensor& bitwise_right_shift_tensor_scalar_(Tensor& self, const Scalar& other) {
  return self.bitwise_right_shift_(wrapped_scalar_tensor(other));
}

Tensor& bitwise_right_shift_tensor_scalar_out(const Tensor& self, const Scalar& other,
                                              Tensor& out) {
  return bp::bitwise_right_shift_out(out, self, wrapped_scalar_tensor(other));
}

Tensor bitwise_right_shift_scalar_tensor(const Scalar& self, const Tensor& other) {
  return bp::bitwise_right_shift(wrapped_scalar_tensor(self), other);
}

Tensor& bitwise_right_shift_scalar_tensor_out(const Scalar& self, const Tensor& other,
                                              Tensor& out) {
  return bp::bitwise_right_shift_out(out, wrapped_scalar_tensor(self), other);
}

}  // namespace bp::native
