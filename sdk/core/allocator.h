// Device memory: owning pointers (DataPtr), allocators per device type, and byte copies between
// devices.
//
//   Allocator* cpu = get_allocator(DeviceType::kCPU);
//   DataPtr block = cpu->allocate(1024);            // 64-byte aligned; freed when `block` dies
//   copy_bytes(dst.get(), Device(DeviceType::kCPU), block.get(), block.device(), 1024);
//
//   // A plugin backend registers its allocator and its copy functions for its device type:
//   set_allocator(npu, &npu_allocator);             // borrowed: must outlive its use
//   set_device_copy_fns(npu, {npu_to_host, host_to_npu, npu_to_npu});
//
// The CPU allocator keeps freed blocks of 1 MiB or more for reuse (cpu_block_cache.h): a large
// output allocated on every call then finds its pages already mapped instead of faulting each
// 4 KiB in again (those of 2 MiB or more are advised as transparent huge pages). The environment
// variable BP_CPU_CACHE_BYTES, read at the first such allocation, bounds the bytes kept: a count
// such as 536870912 or 512M; the default is 1 GiB or an eighth of the machine's memory, whichever
// is less; 0 turns the cache off. Past the bound the least recently freed blocks go back to the OS,
// as do all of them at exit and on release_cached_cpu_memory(). ASan and TSan builds never cache,
// so they see every use after free.
//
// Thread safety: registration and lookup may run concurrently from any thread; the CPU
// allocator and its cache are thread-safe. A DataPtr is a plain value (one owner).
#ifndef BACKPLANE_SDK_CORE_ALLOCATOR_H_
#define BACKPLANE_SDK_CORE_ALLOCATOR_H_

#include <cstddef>
#include <utility>

#include "sdk/core/cpu_block_cache.h"
#include "sdk/core/device.h"

namespace bp {

// Frees the memory described by a context pointer.
using DeleterFn = void (*)(void* context);

// An owning pointer to device memory: the data pointer, a context pointer handed to the deleter
// (often the same as the data pointer), and the device. Move-only; calls the deleter on
// destruction. A null deleter means "not owned" (nothing to free).
class DataPtr {
 public:
  DataPtr() = default;
  // An empty (null) pointer on `device`.
  explicit DataPtr(Device device) : device_(device) {}
  DataPtr(void* data, void* context, DeleterFn deleter, Device device)
      : data_(data), context_(context), deleter_(deleter), device_(device) {}

  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        context_(std::exchange(other.context_, nullptr)),
        deleter_(std::exchange(other.deleter_, nullptr)),
        device_(other.device_) {}
  DataPtr& operator=(DataPtr&& other) noexcept {
    DataPtr(std::move(other)).swap(*this);
    return *this;
  }
  ~DataPtr() { clear(); }

  // Frees the memory now and becomes null (keeps the device).
  void clear() noexcept {
    if (deleter_ != nullptr) deleter_(context_);
    data_ = nullptr;
    context_ = nullptr;
    deleter_ = nullptr;
  }

  void swap(DataPtr& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(context_, other.context_);
    std::swap(deleter_, other.deleter_);
    std::swap(device_, other.device_);
  }

  void* get() const { return data_; }
  void* context() const { return context_; }
  DeleterFn deleter() const { return deleter_; }
  Device device() const { return device_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  void* data_ = nullptr;
  void* context_ = nullptr;
  DeleterFn deleter_ = nullptr;
  Device device_;
};

// Hands out memory for one device type. Implementations must be thread-safe.
class Allocator {
 public:
  virtual ~Allocator() = default;

  // `nbytes` bytes on this allocator's device (its current device where there are several).
  // Errors: kOutOfMemory when the memory cannot be provided.
  virtual DataPtr allocate(size_t nbytes) = 0;

  // The alignment, in bytes, of every pointer `allocate` returns.
  virtual size_t alignment() const { return alignof(std::max_align_t); }
};

// Registers `allocator` (borrowed; must stay valid while registered) for `type`; nullptr
// unregisters. CPU and Meta come registered. Errors: `type` is not a valid device type.
void set_allocator(DeviceType type, Allocator* allocator);

// The allocator registered for `type`. Errors (kNotImplemented):
// "no allocator is registered for device type 'npu'".
Allocator* get_allocator(DeviceType type);

// Backplane's CPU allocator: 64-byte aligned (cache lines and AVX-512 loads; blocks of 1 MiB or
// more from the cache are page aligned). Zero-byte allocations always return a null pointer.
// Errors: kOutOfMemory "CPU out of memory: tried to allocate N bytes"; kInvalidArgument on a
// large allocation when BP_CPU_CACHE_BYTES is set but is not a byte count.
Allocator* cpu_allocator();

// Returns the CPU allocator's cached free blocks to the OS (blocks in use are untouched), e.g.
// before a process goes idle or hands memory to another library. Returns the bytes released.
size_t release_cached_cpu_memory();

// The CPU allocator's cache counters; all zero before its first large allocation and when the
// cache is off.
CpuBlockCacheStats cpu_cache_stats();

// The Meta allocator: returns null data on the Meta device for every size (Meta tensors have
// sizes and strides but no memory).
Allocator* meta_allocator();

// Byte copies of one device type, registered by its backend. `dst_device` / `src_device` carry
// the device indices. Every function copies `nbytes` bytes and throws bp::Error on failure.
using DeviceCopyFn = void (*)(void* dst, Device dst_device, const void* src, Device src_device,
                              size_t nbytes);
struct DeviceCopyFns {
  DeviceCopyFn copy_to_host = nullptr;        // device -> CPU memory.
  DeviceCopyFn copy_from_host = nullptr;      // CPU memory -> device.
  DeviceCopyFn copy_within_device = nullptr;  // device -> device of the same type.
};

// Registers the copy functions of `type` (all three may be null to unregister). Errors: `type` is
// CPU or Meta, or not a valid device type.
void set_device_copy_fns(DeviceType type, DeviceCopyFns fns);

// The copy functions registered for `type` (all null when none are), e.g. to wrap them.
// Errors: `type` is not a valid device type.
DeviceCopyFns device_copy_fns(DeviceType type);

// Copies `nbytes` from `src` on `src_device` to `dst` on `dst_device`: memcpy for CPU to CPU, the
// registered functions otherwise (two device types other than CPU go through a host buffer).
// Errors: kNotImplemented when a device is Meta ("Cannot copy out of meta tensor; no data!",
// "Cannot copy into meta tensor; no data!") or when a needed function is not registered.
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_ALLOCATOR_H_
