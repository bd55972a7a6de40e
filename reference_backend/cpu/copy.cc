// copy_ between CPU tensors: any dtypes, any strides, src broadcast to self.
#include "reference_backend/cpu/cpu_kernels.h"
#include "sdk/core/copy_rules.h"
#include "sdk/iter/cast_copy.h"

namespace bp::cpu {

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;  // CPU copies are synchronous.
  if (!copy_is_noop(self, src)) {
    // cast_copy's iterator checks the shapes and the overlap between self and src.
    if (self.numel() > 0) warn_if_copy_discards_imaginary(self, src);
    cast_copy(self, src);
  }
  self.bump_version();
  return self;
}

}  // namespace bp::cpu
