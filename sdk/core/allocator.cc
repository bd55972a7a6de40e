#include "sdk/core/allocator.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "sdk/core/error.h"

// ASan and TSan see memory only through malloc and free: blocks kept for reuse would hide a use
// after free (ASan) and would hand one thread's memory to another without them seeing it.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BP_CPU_CACHE_SUPPORTED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define BP_CPU_CACHE_SUPPORTED 0
#endif
#endif
#ifndef BP_CPU_CACHE_SUPPORTED
#define BP_CPU_CACHE_SUPPORTED 1
#endif

namespace bp {
namespace {

constexpr size_t kCpuAlignment = 64;

void free_cpu(void* context) { std::free(context); }

// The cache of large blocks, once created; null before the first large allocation and when off.
std::atomic<CpuBlockCache*> g_large_blocks{nullptr};

size_t default_cache_limit() {
  // 1 GiB holds a few of the largest temporaries of a typical model step; a small machine keeps
  // at most an eighth of its memory idle.
  size_t limit = size_t{1} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    limit = std::min(limit, static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 8);
  }
  return limit;
}

CpuBlockCache* make_large_block_cache() {
  size_t limit = default_cache_limit();
  if (const char* env = std::getenv("BP_CPU_CACHE_BYTES"); env != nullptr && *env != '\0') {
    const std::optional<size_t> parsed = parse_byte_count(env);
    if (!parsed) {
      detail::throw_error(ErrorCode::kInvalidArgument,
                          detail::str_cat("BP_CPU_CACHE_BYTES must be a byte count such as "
                                          "536870912 or 512M (0 turns the cache off), not '",
                                          env, "'"));
    }
    limit = *parsed;
  }
  if (limit == 0) return nullptr;
  auto* cache = new CpuBlockCache(limit);
  g_large_blocks.store(cache, std::memory_order_release);
  // Cached blocks go back to the OS at exit, and blocks freed later (static tensors) go
  // straight back.
  std::atexit([] { g_large_blocks.load(std::memory_order_acquire)->set_limit(0); });
  return cache;
}

// Null when the cache is off. Never destroyed: static tensors freed at exit still return their
// blocks to it. An invalid BP_CPU_CACHE_BYTES throws here, on every large allocation.
CpuBlockCache* large_block_cache() {
  static CpuBlockCache* const cache = make_large_block_cache();
  return cache;
}

[[noreturn]] void throw_out_of_memory(size_t nbytes) {
  detail::throw_error(ErrorCode::kOutOfMemory,
                      detail::str_cat("CPU out of memory: tried to allocate ", nbytes, " bytes"));
}

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) return DataPtr(Device(DeviceType::kCPU));
    if (BP_CPU_CACHE_SUPPORTED && nbytes >= CpuBlockCache::kMinBytes) {
      if (CpuBlockCache* cache = large_block_cache(); cache != nullptr) {
        return allocate_cached(*cache, nbytes);
      }
    }
    // malloc plus slack, aligned by hand: glibc's memalign path is several times slower than
    // malloc for small blocks, and DataPtr keeps the raw pointer as the context to free. Sizes
    // beyond PTRDIFF_MAX cannot be indexed; they are refused before the system allocator (which,
    // under sanitizers, aborts on absurd sizes instead of returning null).
    void* raw = nbytes <= static_cast<size_t>(PTRDIFF_MAX) - kCpuAlignment
                    ? std::malloc(nbytes + kCpuAlignment)
                    : nullptr;
    if (raw == nullptr) throw_out_of_memory(nbytes);
    uintptr_t aligned =
        (reinterpret_cast<uintptr_t>(raw) + kCpuAlignment) & ~(uintptr_t{kCpuAlignment} - 1);
    return DataPtr(reinterpret_cast<void*>(aligned), raw, &free_cpu, Device(DeviceType::kCPU));
  }
  size_t alignment() const override { return kCpuAlignment; }

 private:
  // Out of line: the small-block path stays short. Blocks are page aligned.
  [[gnu::noinline]] static DataPtr allocate_cached(CpuBlockCache& cache, size_t nbytes) {
    CpuBlock* block = cache.acquire(nbytes);
    if (block == nullptr) throw_out_of_memory(nbytes);
    return DataPtr(block->data, block, &CpuBlockCache::release, Device(DeviceType::kCPU));
  }
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

size_t release_cached_cpu_memory() {
  CpuBlockCache* cache = g_large_blocks.load(std::memory_order_acquire);
  return cache != nullptr ? cache->release_cached() : 0;
}

CpuBlockCacheStats cpu_cache_stats() {
  CpuBlockCache* cache = g_large_blocks.load(std::memory_order_acquire);
  return cache != nullptr ? cache->stats() : CpuBlockCacheStats{};
}

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
