// Memory layouts of dense tensors, the strides each one gives, and the contiguity tests.
//
//   contiguous_strides({2, 3, 4, 5}, MemoryFormat::kContiguous);    // [60, 20, 5, 1]
//   contiguous_strides({2, 3, 4, 5}, MemoryFormat::kChannelsLast);  // [60, 1, 15, 3]
//   is_contiguous_strides({2, 3}, {1, 2}, MemoryFormat::kContiguous);  // false
//   is_non_overlapping_and_dense_strides({2, 3}, {1, 2});              // true (a transpose)
//
// The rules are PyTorch's (c10 TensorImpl::compute_contiguous and friends): dims of size 1 may
// have any stride; a tensor with no elements is contiguous (row-major) whatever its strides.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_CORE_MEMORY_FORMAT_H_
#define BACKPLANE_SDK_CORE_MEMORY_FORMAT_H_

#include <cstdint>
#include <ostream>

#include "sdk/core/int_array_ref.h"

namespace bp {

enum class MemoryFormat : int8_t {
  kContiguous = 0,      // Row-major: the last dim is densest.
  kChannelsLast = 1,    // NHWC order for 4-d tensors.
  kChannelsLast3d = 2,  // NDHWC order for 5-d tensors.
  kPreserve = 3,        // "Keep the input's layout": only meaningful for ops that copy a tensor.
};

// "torch.contiguous_format", "torch.channels_last", "torch.channels_last_3d",
// "torch.preserve_format", as PyTorch prints them.
std::ostream& operator<<(std::ostream& out, MemoryFormat format);

// The strides of a dense tensor of `sizes` laid out in `format` (size-0 dims count as 1 for
// row-major, as PyTorch does). Errors (kInvalidArgument): "required rank 4 tensor to use
// channels_last format", "required rank 5 tensor to use channels_last_3d format", and
// kPreserve ("unsupported memory format torch.preserve_format").
DimVector contiguous_strides(IntArrayRef sizes, MemoryFormat format = MemoryFormat::kContiguous);

// The row-major part of contiguous_strides, writing sizes.size() strides to `strides`; false when
// the product of the sizes overflows int64. Inline: it runs on every allocation.
inline bool row_major_strides(IntArrayRef sizes, int64_t* strides) {
  int64_t expected = 1;
  bool overflowed = false;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = expected;
    overflowed |= __builtin_mul_overflow(expected, sizes[i] > 1 ? sizes[i] : 1, &expected);
  }
  return !overflowed;
}

// Whether `strides` are those of a dense layout in `format` (ignoring dims of size 1; any
// strides for an empty tensor in kContiguous). Channels-last formats need rank 4 / 5, else false.
// kPreserve: always false.
bool is_contiguous_strides(IntArrayRef sizes, IntArrayRef strides, MemoryFormat format);

// Whether the elements cover a dense block of memory without overlap, in some dim order
// (PyTorch's compute_non_overlapping_and_dense).
bool is_non_overlapping_and_dense_strides(IntArrayRef sizes, IntArrayRef strides);

// The layout these strides look like (PyTorch's suggest_memory_format): kChannelsLast for a
// rank-4 tensor whose strides order its dims as NHWC, kChannelsLast3d for NDHWC, else
// kContiguous (also for ambiguous cases, e.g. a trivial channel dim). Used to lay out copies of
// tensors that are not dense ("keep the input's layout").
MemoryFormat suggest_memory_format(IntArrayRef sizes, IntArrayRef strides);

// Dense strides that keep the dim order of `strides` (PyTorch's infer_dense_strides): what a copy
// of a non-dense tensor gets when its layout is to be preserved (clone, empty_like, _to_copy with
// torch.preserve_format). Dims are ordered by stride, smaller size first on ties; dims of stride 0
// keep their row-major place. Dims of size 0 count as 1.
//   infer_dense_strides({2, 3}, {1, 4});          // [1, 2]: a transpose stays transposed
//   infer_dense_strides({2, 3, 4}, {24, 8, 2});   // [12, 4, 1]: gaps closed
DimVector infer_dense_strides(IntArrayRef sizes, IntArrayRef strides);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_MEMORY_FORMAT_H_
