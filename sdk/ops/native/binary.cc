// Scalar overloads of binary ops: the number becomes a wrapped zero-dim tensor (promoting as a
// Scalar would) and the Tensor overload runs.
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

}  // namespace bp::native
