// Resizing a tensor in place: what `resize_` and out= arguments need.
//
//   resize_tensor(*out.impl(), {2, 3});              // contiguous strides
//   resize_tensor(*out.impl(), {2, 3}, {1, 2});      // given strides
//   resize_output(*out.impl(), {2, 3});              // an out= argument: warns if it had elements
//
// The storage grows (never shrinks) when the new geometry needs more bytes than it has, keeping
// the old bytes; elements beyond the old ones are uninitialised, as in PyTorch. The version counter
// is not bumped (no element is written).
//
// Errors: negative sizes; a storage that is not resizable (e.g. wrapping caller memory) and too
// small ("Trying to resize storage that is not resizable").
// Thread safety: mutates the tensor; callers synchronise.
#ifndef BACKPLANE_SDK_CORE_RESIZE_H_
#define BACKPLANE_SDK_CORE_RESIZE_H_

#include <optional>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/tensor_impl.h"

namespace bp {

// Gives `self` the sizes `sizes` and the strides `strides` (contiguous in `format` when absent),
// growing its storage if needed.
void resize_tensor(TensorImpl& self, IntArrayRef sizes,
                   std::optional<IntArrayRef> strides = std::nullopt,
                   MemoryFormat format = MemoryFormat::kContiguous);

// Resizes an out= argument to `sizes`, as PyTorch's resize_output does: nothing when it has them
// already; otherwise, when it had elements, the deprecation warning "An output with one or more
// elements was resized since it had shape [..], which does not match the required output shape
// [..]. ..." (sdk/core/warning.h), then resize_tensor(out, sizes, strides, format). Returns
// whether it resized. Errors: resize_tensor's.
bool resize_output(TensorImpl& out, IntArrayRef sizes,
                   std::optional<IntArrayRef> strides = std::nullopt,
                   MemoryFormat format = MemoryFormat::kContiguous);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_RESIZE_H_
