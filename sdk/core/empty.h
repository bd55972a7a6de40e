// Factories for uninitialised tensors, and the storage-size rule they share with as_strided.
//
//   Tensor a = empty({2, 3}, ScalarType::kFloat32, Device(DeviceType::kCPU));      // strides [3,
//   1] Tensor b = empty({2, 3, 4, 5}, ScalarType::kFloat32, Device(DeviceType::kCPU),
//                    MemoryFormat::kChannelsLast);                                  // [60, 1, 15,
//                    3]
//   Tensor c = empty_strided({2, 3}, {1, 2}, ScalarType::kInt64, Device(DeviceType::kMeta));
//
// Works for every device type with a registered allocator (CPU and Meta come registered). The
// allocator chooses the device index (its current device); a CPU tensor reports device "cpu".
//
// Thread safety: safe to call from any thread.
#ifndef BACKPLANE_SDK_CORE_EMPTY_H_
#define BACKPLANE_SDK_CORE_EMPTY_H_

#include <cstdint>

#include "sdk/core/device.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp {

// The bytes a storage needs to hold a tensor of these sizes and strides starting at element
// `storage_offset` (PyTorch's computeStorageNbytes): 0 when any size is 0, otherwise
// itemsize * (storage_offset + 1 + sum((size - 1) * stride)). Errors: "Storage size calculation
// overflowed with sizes=[..] and strides=[..]".
size_t compute_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                              int64_t storage_offset = 0);

namespace detail {
[[noreturn]] void throw_negative_size(IntArrayRef sizes);
}  // namespace detail

// Errors: any negative size ("Trying to create tensor with negative dimension -1: [-1, 2]").
// Inline: it runs on every allocation.
inline void check_size_nonnegative(IntArrayRef sizes) {
  for (int64_t size : sizes) {
    if (size < 0) [[unlikely]]
      detail::throw_negative_size(sizes);
  }
}
// Errors: any negative stride ("as_strided: Negative strides are not supported at the moment, got
// strides: [-1]").
void check_strides_nonnegative(IntArrayRef strides);

namespace native {

// A new tensor with fresh, uninitialised storage laid out in `format` (kContiguous,
// kChannelsLast for 4-d, kChannelsLast3d for 5-d). Errors: a negative size ("Trying to create
// tensor with negative dimension -1: [-1, 2]"), see contiguous_strides for formats, kNotImplemented
// when `device` has no allocator, kOutOfMemory.
Tensor empty(IntArrayRef sizes, ScalarType dtype, Device device,
             MemoryFormat format = MemoryFormat::kContiguous);

// A new tensor with exactly these strides over fresh storage of compute_storage_nbytes bytes.
// Errors: as `empty`, plus sizes and strides of different lengths and negative strides.
Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device);

}  // namespace native
}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_EMPTY_H_
