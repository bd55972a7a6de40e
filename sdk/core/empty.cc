#include "sdk/core/empty.h"

#include <cstdint>

#include "sdk/core/allocator.h"
#include "sdk/core/error.h"
#include "sdk/core/storage.h"

namespace bp {
namespace {

Tensor make_tensor(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device) {
  size_t nbytes = compute_storage_nbytes(sizes, strides, element_size(dtype));
  Storage storage = Storage::allocate(nbytes, get_allocator(device.type));
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), dtype, sizes, strides, 0));
}

}  // namespace

namespace detail {

void throw_negative_size(IntArrayRef sizes) {
  for (int64_t size : sizes) {
    BP_CHECK(size >= 0, "Trying to create tensor with negative dimension ", size, ": ",
             int_list_string(sizes));
  }
  BP_INTERNAL_ASSERT(false, "throw_negative_size: no negative size in ", int_list_string(sizes));
}

}  // namespace detail

void check_strides_nonnegative(IntArrayRef strides) {
  for (int64_t stride : strides) {
    BP_CHECK(stride >= 0,
             "as_strided: Negative strides are not supported at the moment, got strides: ",
             int_list_string(strides));
  }
}

size_t compute_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                              int64_t storage_offset) {
  BP_CHECK(sizes.size() == strides.size(), "dimensionality of sizes (", sizes.size(),
           ") must match dimensionality of strides (", strides.size(), ")");
  // Unsigned arithmetic as PyTorch's: negative strides are rejected by the callers.
  uint64_t elements = 1;
  bool overflowed = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    uint64_t extent = 0;
    overflowed |= __builtin_mul_overflow(static_cast<uint64_t>(sizes[i] - 1),
                                         static_cast<uint64_t>(strides[i]), &extent);
    overflowed |= __builtin_add_overflow(elements, extent, &elements);
  }
  uint64_t nbytes = 0;
  overflowed |= __builtin_add_overflow(elements, static_cast<uint64_t>(storage_offset), &elements);
  overflowed |= __builtin_mul_overflow(elements, static_cast<uint64_t>(itemsize), &nbytes);
  overflowed |= nbytes > static_cast<uint64_t>(INT64_MAX);
  BP_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", int_list_string(sizes),
           " and strides=", int_list_string(strides));
  return static_cast<size_t>(nbytes);
}

namespace native {

Tensor empty(IntArrayRef sizes, ScalarType dtype, Device device, MemoryFormat format) {
  check_size_nonnegative(sizes);
  if (format != MemoryFormat::kContiguous) {
    return make_tensor(sizes, contiguous_strides(sizes, format), dtype, device);
  }
  // Row-major, the common case, kept cheap: numel elements of storage and known layout flags.
  // The strides' check covers the sizes' product; the byte count may still overflow, which
  // compute_storage_nbytes then reports.
  DimVector strides(sizes.size());
  BP_CHECK(row_major_strides(sizes, strides.data()), "Stride calculation overflowed");
  const int64_t numel = multiply_integers(sizes);
  const size_t itemsize = element_size(dtype);
  uint64_t nbytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(numel), itemsize, &nbytes) ||
      nbytes > static_cast<uint64_t>(INT64_MAX)) {
    nbytes = compute_storage_nbytes(sizes, strides, itemsize);
  }
  Storage storage = Storage::allocate(static_cast<size_t>(nbytes), get_allocator(device.type));
  return Tensor(IntrusivePtr<TensorImpl>::make(TensorImpl::ContiguousStrides{}, std::move(storage),
                                               dtype, sizes, strides, numel));
}

Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device) {
  check_size_nonnegative(sizes);
  check_strides_nonnegative(strides);
  return make_tensor(sizes, strides, dtype, device);
}

}  // namespace native
}  // namespace bp
