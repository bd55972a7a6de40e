#include "sdk/core/allocator.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "sdk/core/error.h"

namespace bp {
namespace {

constexpr size_t kCpuAlignment = 64;

void free_cpu(void* context) { std::free(context); }

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) return DataPtr(Device(DeviceType::kCPU));
    // malloc plus slack, aligned by hand: glibc's memalign path is several times slower than
    // malloc for small blocks, and DataPtr keeps the raw pointer as the context to free. Sizes
    // beyond PTRDIFF_MAX cannot be indexed; they are refused before the system allocator (which,
    // under sanitizers, aborts on absurd sizes instead of returning null).
    void* raw = nbytes <= static_cast<size_t>(PTRDIFF_MAX) - kCpuAlignment
                    ? std::malloc(nbytes + kCpuAlignment)
                    : nullptr;
    if (raw == nullptr) {
      detail::throw_error(
          ErrorCode::kOutOfMemory,
          detail::str_cat("CPU out of memory: tried to allocate ", nbytes, " bytes"));
    }
    uintptr_t aligned =
        (reinterpret_cast<uintptr_t>(raw) + kCpuAlignment) & ~(uintptr_t{kCpuAlignment} - 1);
    return DataPtr(reinterpret_cast<void*>(aligned), raw, &free_cpu, Device(DeviceType::kCPU));
  }
  size_t alignment() const override { return kCpuAlignment; }
};

// Constant-initialised and never destroyed: no guard on the allocation path, and usable by
// static tensors freed at exit.
union NeverDestroyedCpuAllocator {
  constexpr NeverDestroyedCpuAllocator() : value() {}
  ~NeverDestroyedCpuAllocator() {}
  CpuAllocator value;
};
constinit NeverDestroyedCpuAllocator cpu_instance;

class MetaAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t) override { return DataPtr(Device(DeviceType::kMeta)); }
};

void check_code(DeviceType type) {
  BP_CHECK(is_valid_device_type(type), "unknown device type code ", static_cast<int>(type));
}

// Tables indexed by device type code: lock-free lookups on the allocation path.
struct Registries {
  std::array<std::atomic<Allocator*>, kDeviceTypeCodeLimit> allocators{};
  std::array<std::atomic<DeviceCopyFn>, kDeviceTypeCodeLimit> to_host{};
  std::array<std::atomic<DeviceCopyFn>, kDeviceTypeCodeLimit> from_host{};
  std::array<std::atomic<DeviceCopyFn>, kDeviceTypeCodeLimit> within_device{};

  Registries() {
    allocators[static_cast<int>(DeviceType::kCPU)].store(cpu_allocator());
    allocators[static_cast<int>(DeviceType::kMeta)].store(meta_allocator());
  }
};

Registries& registries() {
  static Registries* instance = new Registries();  // Never destroyed: used by static tensors.
  return *instance;
}

DeviceCopyFn required_fn(const std::array<std::atomic<DeviceCopyFn>, kDeviceTypeCodeLimit>& table,
                         DeviceType type, const char* what) {
  DeviceCopyFn fn = table[static_cast<int>(type)].load(std::memory_order_acquire);
  if (fn == nullptr) {
    detail::throw_error(
        ErrorCode::kNotImplemented,
        detail::str_cat("no ", what, " copy function is registered for device type '", type, "'"));
  }
  return fn;
}

}  // namespace

Allocator* cpu_allocator() { return &cpu_instance.value; }

Allocator* meta_allocator() {
  static MetaAllocator instance;
  return &instance;
}

void set_allocator(DeviceType type, Allocator* allocator) {
  check_code(type);
  registries().allocators[static_cast<int>(type)].store(allocator, std::memory_order_release);
}

Allocator* get_allocator(DeviceType type) {
  int code = static_cast<int>(type);
  Allocator* allocator = code > 0 && code < kDeviceTypeCodeLimit
                             ? registries().allocators[code].load(std::memory_order_acquire)
                             : nullptr;
  BP_CHECK_NOT_IMPLEMENTED(allocator != nullptr, "no allocator is registered for device type '",
                           type, "'");
  return allocator;
}

void set_device_copy_fns(DeviceType type, DeviceCopyFns fns) {
  check_code(type);
  BP_CHECK(type != DeviceType::kCPU && type != DeviceType::kMeta,
           "set_device_copy_fns: copies of device type '", type, "' are built in");
  Registries& reg = registries();
  int code = static_cast<int>(type);
  reg.to_host[code].store(fns.copy_to_host, std::memory_order_release);
  reg.from_host[code].store(fns.copy_from_host, std::memory_order_release);
  reg.within_device[code].store(fns.copy_within_device, std::memory_order_release);
}

DeviceCopyFns device_copy_fns(DeviceType type) {
  check_code(type);
  Registries& reg = registries();
  const int code = static_cast<int>(type);
  return DeviceCopyFns{reg.to_host[code].load(std::memory_order_acquire),
                       reg.from_host[code].load(std::memory_order_acquire),
                       reg.within_device[code].load(std::memory_order_acquire)};
}

void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  BP_CHECK_NOT_IMPLEMENTED(!src_device.is_meta(), "Cannot copy out of meta tensor; no data!");
  BP_CHECK_NOT_IMPLEMENTED(!dst_device.is_meta(), "Cannot copy into meta tensor; no data!");
  if (nbytes == 0) return;
  const Registries& reg = registries();
  if (src_device.is_cpu() && dst_device.is_cpu()) {
    std::memcpy(dst, src, nbytes);
  } else if (dst_device.is_cpu()) {
    required_fn(reg.to_host, src_device.type, "device-to-host")(dst, dst_device, src, src_device,
                                                                nbytes);
  } else if (src_device.is_cpu()) {
    required_fn(reg.from_host, dst_device.type, "host-to-device")(dst, dst_device, src, src_device,
                                                                  nbytes);
  } else if (src_device.type == dst_device.type) {
    required_fn(reg.within_device, src_device.type, "device-to-device")(dst, dst_device, src,
                                                                        src_device, nbytes);
  } else {
    // Two different backends: stage through host memory.
    DataPtr staging = cpu_allocator()->allocate(nbytes);
    Device host(DeviceType::kCPU);
    required_fn(reg.to_host, src_device.type, "device-to-host")(staging.get(), host, src,
                                                                src_device, nbytes);
    required_fn(reg.from_host, dst_device.type, "host-to-device")(dst, dst_device, staging.get(),
                                                                  host, nbytes);
  }
}

}  // namespace bp
