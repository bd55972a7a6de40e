// Ternary ops that other ops serve: masked_fill with a 0-dim value tensor (masked_fill.Scalar with
// the number it holds) and where with numbers (where.self with 0-dim tensors of the result type).
#include "sdk/core/empty.h"
#include "sdk/core/result_type.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// masked_fill's value tensor as a number, PyTorch's value.item(): it must be 0-dim.
Scalar masked_fill_value(const Tensor& value) {
  BP_CHECK(value.dim() == 0,
           "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
  // A meta value has no number: shape inference needs none (0 of its dtype fits every dtype).
  if (value.device().type == DeviceType::kMeta) {
    return visit_dtype(value.dtype(),
                       [](auto tag) { return Scalar(typename decltype(tag)::type(0)); });
  }
  const Tensor host =
      value.device().is_cpu() ? value : bp::_to_copy(value, std::nullopt, Device(DeviceType::kCPU));
  return visit_dtype(host.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Scalar(*static_cast<const T*>(host.data_ptr()));
  });
}

// PyTorch's at::scalar_tensor(value, dtype, device) for where: the number converted to `dtype`
// with the overflow check ("value cannot be converted to type uint8_t without overflow"), on the
// device of the tensor operand PyTorch takes its options from (on Meta: no value).
Tensor where_operand(const Scalar& value, ScalarType dtype, Device device) {
  visit_dtype(dtype, [&](auto tag) { (void)value.to<typename decltype(tag)::type>(); });
  if (device.type == DeviceType::kMeta) return native::empty({}, dtype, device);
  const Tensor host = scalar_tensor(value, dtype);
  return device.is_cpu() ? host : bp::_to_copy(host, std::nullopt, device);
}

}  // namespace

Tensor masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return bp::masked_fill(self, mask, masked_fill_value(value));
}

Tensor& masked_fill_tensor_(Tensor& self, const Tensor& mask, const Tensor& value) {
  return self.masked_fill_(mask, masked_fill_value(value));
}

Tensor& masked_fill_tensor_out(const Tensor& self, const Tensor& mask, const Tensor& value,
                               Tensor& out) {
  return bp::masked_fill_out(out, self, mask, masked_fill_value(value));
}

Tensor where_scalar_self(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return bp::where(condition, where_operand(self, promoted_dtype(other, self), other.device()),
                   other);
}

Tensor where_scalar_other(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return bp::where(condition, self,
                   where_operand(other, promoted_dtype(self, other), self.device()));
}

Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other) {
  const ScalarType dtype = promoted_dtype({}, {self, other});
  return bp::where(condition, where_operand(self, dtype, condition.device()),
                   where_operand(other, dtype, condition.device()));
}

}  // namespace bp::native
