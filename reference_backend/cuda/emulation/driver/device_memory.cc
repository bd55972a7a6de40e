#include "reference_backend/cuda/emulation/driver/device_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "reference_backend/cuda/emulation/driver/state.h"

namespace bp::emulated_cuda {
namespace {

// Blocks this large are mapped (untouched pages cost nothing: a tensor with huge strides over a
// large allocation stays cheap) and, once freed, unmapped from physical memory but kept reserved.
constexpr size_t kMapThreshold = size_t{1} << 20;
// Reserved address space of freed mapped blocks kept before the oldest is unmapped.
constexpr size_t kQuarantineAddressSpace = size_t{1} << 40;
// New memory is not zero on a GPU: fill small blocks so that reading it before writing shows.
constexpr unsigned char kUninitialised = 0xCD;

std::string hex(uintptr_t p) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(p));
  return text;
}

// The block whose [address, address + bytes + trailing guard) holds p, if any.
template <typename Map>
auto containing(const Map& blocks, uintptr_t p, size_t guard) {
  auto it = blocks.upper_bound(p);
  if (it == blocks.begin()) return blocks.end();
  --it;
  return p < it->first + it->second.bytes + guard ? it : blocks.end();
}

}  // namespace

CUresult DeviceMemory::allocate(size_t bytes, CUdeviceptr* out) {
  if (out == nullptr) return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc: dptr is NULL");
  if (bytes == 0) return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc of 0 bytes");
  if (should_fail(Fault::kAlloc)) {
    return fail(CUDA_ERROR_OUT_OF_MEMORY, "injected fault: cuMemAlloc of " + std::to_string(bytes) +
                                              " bytes runs out of memory");
  }
  const size_t body = (bytes + kGuardBytes - 1) / kGuardBytes * kGuardBytes;
  const size_t total = body + 2 * kGuardBytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (static_cast<size_t>(live_bytes_) + bytes > kCapacity) {
      return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc of " + std::to_string(bytes) +
                                                " bytes: the emulated device's " +
                                                std::to_string(kCapacity) + " bytes are exhausted");
    }
  }
  Block block;
  block.bytes = bytes;
  if (total >= kMapThreshold) {
    void* m = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      return fail(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc of " + std::to_string(bytes) +
                                                " bytes: the host cannot map that much");
    }
    block.base = static_cast<char*>(m);
    block.mapped = total;
  } else {
    block.base = static_cast<char*>(std::aligned_alloc(kGuardBytes, total));
    if (block.base == nullptr) {
      return fail(CUDA_ERROR_OUT_OF_MEMORY,
                  "cuMemAlloc of " + std::to_string(bytes) + " bytes: host memory exhausted");
    }
    std::memset(block.base + kGuardBytes, kUninitialised, body);
  }
  std::memset(block.base, kGuardPattern, kGuardBytes);
  // The trailing guard starts right after the requested bytes (no slack to hide overruns in).
  std::memset(block.base + kGuardBytes + bytes, kGuardPattern, body - bytes + kGuardBytes);
  const uintptr_t p = reinterpret_cast<uintptr_t>(block.base + kGuardBytes);
  std::lock_guard<std::mutex> lock(mutex_);
  // The address may be a quarantined block's again only if that one was truly released.
  freed_.erase(p);
  live_[p] = block;
  live_bytes_ += static_cast<int64_t>(bytes);
  peak_bytes_ = std::max(peak_bytes_, live_bytes_);
  shared_counters().allocations.fetch_add(1);
  *out = static_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}

CUresult DeviceMemory::check_block_guards(uintptr_t p, const Block& b, const char* when) const {
  const auto* lead = reinterpret_cast<const unsigned char*>(b.base);
  const auto* trail = reinterpret_cast<const unsigned char*>(p + b.bytes);
  const size_t trail_bytes =
      (b.bytes + kGuardBytes - 1) / kGuardBytes * kGuardBytes - b.bytes + kGuardBytes;
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (lead[i] != kGuardPattern) {
      return fail(CUDA_ERROR_ILLEGAL_ADDRESS,
                  std::string(when) + ": the guard zone before device allocation " + hex(p) + " (" +
                      std::to_string(b.bytes) + " bytes) was overwritten " +
                      std::to_string(kGuardBytes - i) + " bytes before its start");
    }
  }
  for (size_t i = 0; i < trail_bytes; ++i) {
    if (trail[i] != kGuardPattern) {
      return fail(CUDA_ERROR_ILLEGAL_ADDRESS,
                  std::string(when) + ": the guard zone after device allocation " + hex(p) + " (" +
                      std::to_string(b.bytes) + " bytes) was overwritten at byte " +
                      std::to_string(b.bytes + i) + " (out of bounds write)");
    }
  }
  return CUDA_SUCCESS;
}

CUresult DeviceMemory::release(CUdeviceptr address) {
  const uintptr_t p = static_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(p);
  if (it == live_.end()) {
    return fail(CUDA_ERROR_INVALID_VALUE, "cuMemFree(" + hex(p) + "): " + describe(p));
  }
  Block b = it->second;
  const CUresult guards = check_block_guards(p, b, "cuMemFree");
  live_.erase(it);
  live_bytes_ -= static_cast<int64_t>(b.bytes);
  if (b.mapped != 0) {
    // Physical memory back to the system; the addresses stay reserved and unreadable.
    madvise(b.base, b.mapped, MADV_DONTNEED);
    mprotect(b.base, b.mapped, PROT_NONE);
  } else {
    std::memset(b.base + kGuardBytes, kPoison, b.bytes);
    quarantined_bytes_ += b.bytes;
  }
  freed_[p] = b;
  freed_order_.push_back(p);
  size_t reserved = 0;
  for (const auto& [q, f] : freed_) reserved += f.mapped;
  while (!freed_order_.empty() &&
         (quarantined_bytes_ > kQuarantineBytes || reserved > kQuarantineAddressSpace)) {
    const uintptr_t oldest = freed_order_.front();
    freed_order_.pop_front();
    auto f = freed_.find(oldest);
    if (f == freed_.end()) continue;
    if (f->second.mapped != 0) {
      reserved -= f->second.mapped;
      munmap(f->second.base, f->second.mapped);
    } else {
      quarantined_bytes_ -= f->second.bytes;
      std::free(f->second.base);
    }
    freed_.erase(f);
  }
  return guards;
}

std::string DeviceMemory::describe(uintptr_t p) const {
  auto f = containing(freed_, p, kGuardBytes);
  if (f != freed_.end()) {
    return "use after free: " + hex(p) + " is in device allocation " + hex(f->first) + " (" +
           std::to_string(f->second.bytes) + " bytes), already freed";
  }
  auto l = containing(live_, p, kGuardBytes);
  if (l != live_.end()) {
    return hex(p) + " is past the end of device allocation " + hex(l->first) + " (" +
           std::to_string(l->second.bytes) + " bytes): out of bounds";
  }
  auto before = live_.lower_bound(p);
  if (before != live_.end() && before->first - p <= kGuardBytes) {
    return hex(p) + " is before the start of device allocation " + hex(before->first) +
           ": out of bounds";
  }
  return hex(p) + " is not device memory of this driver (a foreign or host pointer)";
}

CUresult DeviceMemory::check_range(CUdeviceptr address, size_t bytes, const char* what) const {
  const uintptr_t p = static_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(mutex_);
  auto l = containing(live_, p, 0);
  if (l != live_.end() && (bytes == 0 || p + bytes <= l->first + l->second.bytes)) {
    return CUDA_SUCCESS;
  }
  if (l != live_.end()) {
    return fail(CUDA_ERROR_ILLEGAL_ADDRESS,
                std::string(what) + ": " + std::to_string(bytes) + " bytes at " + hex(p) +
                    " run past the end of device allocation " + hex(l->first) + " (" +
                    std::to_string(l->second.bytes) + " bytes)");
  }
  const bool freed = containing(freed_, p, kGuardBytes) != freed_.end();
  return fail(freed ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_ERROR_INVALID_VALUE,
              std::string(what) + ": " + describe(p));
}

bool DeviceMemory::points_into_freed(uintptr_t p, std::string* description) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (containing(live_, p, 0) != live_.end()) return false;
  auto f = containing(freed_, p, 0);
  if (f == freed_.end()) return false;
  *description = describe(p);
  return true;
}

CUresult DeviceMemory::check_guards(const char* when) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [p, b] : live_) {
    const CUresult result = check_block_guards(p, b, when);
    if (result != CUDA_SUCCESS) return result;
  }
  return CUDA_SUCCESS;
}

int64_t DeviceMemory::live_allocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(live_.size());
}

int64_t DeviceMemory::live_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_bytes_;
}

int64_t DeviceMemory::peak_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_bytes_;
}

DeviceMemory& device_memory() {
  // Never destroyed: the plugin may free memory during process exit.
  static auto* memory = new DeviceMemory();
  return *memory;
}

}  // namespace bp::emulated_cuda
