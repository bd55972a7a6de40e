// Copies of tensors on another device that keep their aliasing: each storage is copied once,
// whole, and every tensor over it becomes a view of that copy with its own sizes, strides and
// offset. So `x` and `x.t()` (or an out= tensor overlapping an input) stay views of one buffer on
// the other side, and what runs there sees, and checks, the same overlaps.
//
//   StorageCopies to_cpu(Device(DeviceType::kCPU));
//   Tensor a = to_cpu.copy(x), b = to_cpu.copy(x_t);  // one CPU storage under both
//
// Used by the CPU fallback (device arguments to the CPU, results back) and by the conformance
// suite (a case's arguments to the backend under test).
//
// Ownership: holds the copies it made. Its keys are the source storages' addresses, so the
// source tensors must outlive it. Thread safety: none (one call's copies). Errors: those of the
// destination device's allocator (get_allocator) and of copy_bytes.
#ifndef BACKPLANE_SDK_CORE_STORAGE_COPIES_H_
#define BACKPLANE_SDK_CORE_STORAGE_COPIES_H_

#include <map>

#include "sdk/core/device.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor.h"

namespace bp {

class StorageCopies {
 public:
  // Copies go to `device`, in storages from get_allocator(device.type).
  explicit StorageCopies(Device device) : device_(device) {}

  // `t` over the copy of its whole storage (made on the first tensor over that storage), with
  // its geometry and wrapped-number flag. With a Meta source or destination only the geometry
  // is copied (Meta storages hold no bytes).
  Tensor copy(const Tensor& t);

 private:
  Device device_;
  std::map<const StorageImpl*, Storage> copies_;  // by the source storage
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_STORAGE_COPIES_H_
