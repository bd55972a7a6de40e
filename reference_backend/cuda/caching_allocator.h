// A caching allocator for device memory: freed blocks are kept in bins by size class and reused
// by later allocations of the same class, so steady-state work allocates nothing from the driver
// (cuMemAlloc / cuMemFree synchronise the device and are slow).
//
//   CachingAllocator allocator(&driver_memory);
//   void* p = allocator.allocate(1000);     // a 1024-byte block from the driver
//   allocator.deallocate(p);                // kept in the 1024-byte bin
//   void* q = allocator.allocate(900);      // the same block again (a cache hit)
//   allocator.stats();                      // allocated, reserved, peaks, counts
//   allocator.empty_cache();                // returns every free block to the driver
//
// Size classes: multiples of 512 bytes up to 1 MiB; above, four classes per power of two
// (1, 1.25, 1.5, 1.75 x 2^k), so no block is more than 25% larger than asked. Blocks are not
// split or merged. Reuse is safe because each device has one stream: a block freed after
// queueing work that uses it is only handed to work queued later on the same stream.
//
// When the device is out of memory, the cache is emptied and the allocation retried once; then
// Error(BP_ERROR_OUT_OF_MEMORY, "CUDA out of memory: tried to allocate ...") is thrown.
//
// Thread safety: every member function may be called concurrently.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_CACHING_ALLOCATOR_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_CACHING_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace bp::cuda {

// Raw device memory of one device: the driver in the plugin, a fake in tests.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // `bytes` (> 0) bytes, or nullptr when the device is out of memory. Other failures throw.
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* ptr) = 0;
};

class CachingAllocator {
 public:
  struct Stats {
    size_t allocated = 0;       // bytes in blocks handed out (by size class)
    size_t reserved = 0;        // bytes held from the device (handed out or cached)
    size_t peak_allocated = 0;  // maxima since construction or reset_peaks()
    size_t peak_reserved = 0;
    int64_t allocations = 0;         // allocate() calls with a non-zero size
    int64_t cache_hits = 0;          // of which served from the cache
    int64_t device_allocations = 0;  // blocks obtained from the device
    int64_t device_releases = 0;     // blocks returned to the device
  };

  explicit CachingAllocator(DeviceMemory* memory) : memory_(memory) {}
  ~CachingAllocator();  // releases the cached blocks (blocks still handed out are leaked)
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // nullptr for 0 bytes. Throws Error(BP_ERROR_OUT_OF_MEMORY) as described above.
  void* allocate(size_t nbytes);
  // Keeps the block for reuse. nullptr does nothing; an unknown pointer throws Error(INTERNAL).
  void deallocate(void* ptr);
  // Returns every cached (free) block to the device.
  void empty_cache();
  Stats stats() const;
  void reset_peaks();

  // The block size serving a request of `nbytes` (> 0).
  static size_t size_class(size_t nbytes);

 private:
  void release_cached_locked();

  DeviceMemory* memory_;
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;  // size class -> free blocks
  std::unordered_map<void*, size_t> live_;               // handed-out block -> size class
  Stats stats_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_CACHING_ALLOCATOR_H_
