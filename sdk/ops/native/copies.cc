// Copies that work on every device (composite kernels) and the Meta kernel of copy_.
#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor& copy_meta_(Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;
  BP_CHECK_NOT_IMPLEMENTED(self.device().is_meta(), "Cannot copy out of meta tensor; no data!");
  const DimVector shape = infer_size(self.sizes(), src.sizes());
  BP_CHECK(IntArrayRef(shape) == self.sizes(), "output with shape ", int_list_string(self.sizes()),
           " doesn't match the broadcast shape ", int_list_string(shape));
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::kPreserve);
  Tensor result;
  if (format != MemoryFormat::kPreserve) {
    result = bp::empty(self.sizes(), self.dtype(), self.device(), format);
  } else if (self.is_non_overlapping_and_dense()) {
    result = bp::empty_strided(self.sizes(), self.strides(), self.dtype(), self.device());
  } else {
    result = bp::empty(self.sizes(), self.dtype(), self.device(),
                       suggest_memory_format(self.sizes(), self.strides()));
  }
  return bp::copy_(result, self);
}

}  // namespace bp::native
