// Device memory of the emulated driver: host memory with guard zones, and freed blocks kept in
// quarantine so that a later use of them is recognised.
//
//   DeviceMemory& memory = device_memory();
//   CUdeviceptr p;  memory.allocate(n, &p);
//   memory.check_range(p, n, "cuMemcpyHtoDAsync destination");   // CUDA_SUCCESS or the error
//   memory.release(p);           // checks the guards; poisons and quarantines the block
//
// Every block has kGuardBytes of a known pattern before and after it, checked when it is freed
// and by check_guards() (the driver calls it on every synchronisation). Freed blocks are filled
// with kPoison and kept (up to kQuarantineBytes, oldest released first); large blocks are
// returned to the system but their addresses stay reserved, so a pointer into them is still
// recognised. A range that is not inside one live block is an error naming what it is: freed
// ("use after free"), in a guard zone (out of bounds) or foreign (never allocated here).
//
// Errors are CUresults explained through fail() (state.h).
//
// Thread safety: all members may be called concurrently.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_DEVICE_MEMORY_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_DEVICE_MEMORY_H_

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace bp::emulated_cuda {

class DeviceMemory {
 public:
  static constexpr size_t kGuardBytes = 256;  // also cuMemAlloc's alignment
  static constexpr unsigned char kGuardPattern = 0xFD;
  static constexpr unsigned char kPoison = 0xDD;
  static constexpr size_t kQuarantineBytes = size_t{256} << 20;
  // The device's memory as cuMemGetInfo reports it; allocations beyond it fail (OOM).
  static constexpr size_t kCapacity = size_t{64} << 30;

  CUresult allocate(size_t bytes, CUdeviceptr* out);
  CUresult release(CUdeviceptr p);
  // CUDA_SUCCESS when [p, p + bytes) lies inside one live block.
  CUresult check_range(CUdeviceptr p, size_t bytes, const char* what) const;
  // Whether `p` points into a freed (quarantined) block; *description says which.
  bool points_into_freed(uintptr_t p, std::string* description) const;
  // CUDA_SUCCESS when every live block's guards are intact.
  CUresult check_guards(const char* when) const;

  int64_t live_allocations() const;
  int64_t live_bytes() const;
  int64_t peak_bytes() const;

 private:
  struct Block {
    size_t bytes = 0;      // what the caller asked for
    size_t mapped = 0;     // bytes of the whole mapping (guards included); 0: malloc'ed
    char* base = nullptr;  // start of the leading guard
  };
  CUresult check_block_guards(uintptr_t p, const Block& b, const char* when) const;
  std::string describe(uintptr_t p) const;

  mutable std::mutex mutex_;
  std::map<uintptr_t, Block> live_;   // by user address
  std::map<uintptr_t, Block> freed_;  // quarantined, by user address
  std::deque<uintptr_t> freed_order_;
  size_t quarantined_bytes_ = 0;
  int64_t live_bytes_ = 0;
  int64_t peak_bytes_ = 0;
};

DeviceMemory& device_memory();

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_DEVICE_MEMORY_H_
