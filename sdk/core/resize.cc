#include "sdk/core/resize.h"

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/warning.h"

namespace bp {

void resize_tensor(TensorImpl& self, IntArrayRef sizes, std::optional<IntArrayRef> strides,
                   MemoryFormat format) {
  for (int64_t size : sizes) {
    BP_CHECK(size >= 0, "Trying to create tensor with negative dimension ", size, ": ",
             int_list_string(sizes));
  }
  DimVector new_strides;
  if (strides.has_value()) {
    BP_CHECK(strides->size() == sizes.size(), "dimensionality of sizes (", sizes.size(),
             ") must match dimensionality of strides (", strides->size(), ")");
    new_strides.assign(strides->begin(), strides->end());
  } else {
    new_strides = contiguous_strides(sizes, format);
  }
  const size_t needed =
      compute_storage_nbytes(sizes, new_strides, self.itemsize(), self.storage_offset());
  if (needed > self.storage().nbytes()) {
    // Storage is a handle: resizing the shared StorageImpl is visible to every view, as in PyTorch.
    Storage storage = self.storage();
    storage.resize(needed);
  }
  self.set_sizes_and_strides(sizes, new_strides);
}

bool resize_output(TensorImpl& out, IntArrayRef sizes, std::optional<IntArrayRef> strides,
                   MemoryFormat format) {
  if (out.sizes() == sizes) return false;
  if (out.numel() != 0) {
    warn(detail::str_cat(
        "An output with one or more elements was resized since it had shape ",
        int_list_string(out.sizes()), ", which does not match the required output shape ",
        int_list_string(sizes),
        ". This behavior is deprecated, and in a future PyTorch release outputs will not be "
        "resized unless they have zero elements. You can explicitly reuse an out tensor t by "
        "resizing it, inplace, to zero elements with t.resize_(0)."));
  }
  resize_tensor(out, sizes, strides, format);
  return true;
}

}  // namespace bp
