// copy_ between CPU tensors: any dtypes, any strides, src broadcast to self.
#include "reference_backend/cpu/cpu_kernels.h"
#include "sdk/iter/cast_copy.h"

namespace bp::cpu {

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;  // CPU copies are synchronous
  if (self.is_same(src)) return self;
  cast_copy(self, src);
  self.bump_version();
  return self;
}

}  // namespace bp::cpu
