// Binary ops PyTorch defines through others: rsub (sub with the operands swapped), true_divide
// (div) and floor_divide (div with rounding_mode="floor", as PyTorch 1.13, and its Scalar
// overloads, whose in-place op's name the scalar_of rule does not give).
#include "sdk/core/scalar_tensor.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return bp::sub(other, self, alpha);
}

Tensor& rsub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  return bp::sub_out(out, other, self, alpha);
}

Tensor true_divide(const Tensor& self, const Tensor& other) { return bp::div(self, other); }

Tensor& true_divide_(Tensor& self, const Tensor& other) { return self.div_(other); }

Tensor& true_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bp::div_out(out, self, other);
}

Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return bp::div(self, other, "floor");
}

Tensor& floor_divide_(Tensor& self, const Tensor& other) { return self.div_(other, "floor"); }

Tensor& floor_divide_out(const Tensor& self, const Tensor& other, Tensor& out) {
  return bp::div_out(out, self, other, "floor");
}

Tensor floor_divide_scalar(const Tensor& self, const Scalar& other) {
  return bp::div(self, wrapped_scalar_tensor(other), "floor");
}

Tensor& floor_divide_scalar_(Tensor& self, const Scalar& other) {
  return self.div_(wrapped_scalar_tensor(other), "floor");
}

}  // namespace bp::native
