// PyTorch's rules for copy_(self, src) that hold whatever the devices: every copy_ kernel (the CPU
// backend's, the Meta one, the composite for other devices, a plugin's own) applies them.
//
//   check_copy_shape(self, src);          // src must broadcast to self's shape
//   if (copy_is_noop(self, src)) return;  // nothing to move
//   warn_if_copy_discards_imaginary(self, src);
//   ...move and convert the elements...
//
// Thread safety: pure functions of the tensors' metadata (the warning is issued once per process,
// thread-safely).
#ifndef BACKPLANE_SDK_CORE_COPY_RULES_H_
#define BACKPLANE_SDK_CORE_COPY_RULES_H_

#include "sdk/core/tensor.h"

namespace bp {

// Errors: shapes that do not broadcast ("The size of tensor a (2) must match the size of tensor b
// (3) at non-singleton dimension 0"), or a broadcast shape other than self's ("output with shape
// [2] doesn't match the broadcast shape [3, 2]").
void check_copy_shape(const Tensor& self, const Tensor& src);

// Whether copying src into self changes nothing: the same tensor, or a tensor over the same
// elements (same storage, offset, sizes, strides and dtype). PyTorch returns early then, before
// any overlap check.
bool copy_is_noop(const Tensor& self, const Tensor& src);

// Warns "Casting complex values to real discards the imaginary part" (once per process, as
// PyTorch's TORCH_WARN_ONCE) when src is complex and self is neither complex nor bool (a complex
// value casts to bool as true when either part is non-zero, as current PyTorch does).
void warn_if_copy_discards_imaginary(const Tensor& self, const Tensor& src);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_COPY_RULES_H_
