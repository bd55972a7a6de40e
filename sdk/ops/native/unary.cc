// Unary ops PyTorch writes with other ops (CompositeImplicit): square is pow(self, 2), so bool
// and integer tensors keep pow's promotion (square of bool is int64).
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor square(const Tensor& self) { return bp::pow(self, Scalar(int64_t{2})); }

Tensor& square_(Tensor& self) { return self.pow_(Scalar(int64_t{2})); }

Tensor& square_out(const Tensor& self, Tensor& out) {
  return bp::pow_out(out, self, Scalar(int64_t{2}));
}

}  // namespace bp::native
