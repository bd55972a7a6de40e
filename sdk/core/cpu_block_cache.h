// A cache of large CPU memory blocks mapped from the OS, so that a large tensor freed and
// allocated again (a functional op's output in a loop) reuses pages already faulted in instead
// of paying one page fault per 4 KiB on every call. The CPU allocator (allocator.h) serves blocks
// of at least kMinBytes from one process-wide instance; tests make their own.
//
//   CpuBlockCache cache(/*limit_bytes=*/256 << 20);
//   CpuBlock* block = cache.acquire(64 << 20);   // may be null: out of memory
//   use(block->data, block->size);               // size: 64 MiB rounded up to a size class
//   CpuBlockCache::release(block);               // kept for the next acquire of its class
//   cache.release_cached();                      // unmaps every cached block
//
// Sizes are rounded up to one of 8 classes per power of two (at most 12.5% more address space;
// untouched pages of a fresh block cost nothing) and a block serves only requests of its class.
// Freed blocks are kept while the cached bytes stay within the limit; past it the least recently
// freed ones are unmapped. Blocks of 2 MiB or more start on a 2 MiB boundary and are advised as
// transparent huge pages: one fault and one TLB entry per 2 MiB instead of 512.
//
// Thread safety: every member function is thread-safe (one mutex; its critical sections are a
// few pointer updates, mapping and unmapping happen outside it).
#ifndef BACKPLANE_SDK_CORE_CPU_BLOCK_CACHE_H_
#define BACKPLANE_SDK_CORE_CPU_BLOCK_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>

namespace bp {

class CpuBlockCache;

// A block mapped by a CpuBlockCache. The header lives outside the mapping, so cached pages are
// never written by the cache (and a block's data is page aligned).
struct CpuBlock {
  void* data = nullptr;  // page aligned; 2 MiB aligned when size >= 2 MiB
  size_t size = 0;       // bytes usable at `data`: the request rounded up to its size class
  // The rest belongs to the cache.
  CpuBlockCache* owner = nullptr;
  void* mapping = nullptr;  // what munmap gets: `data` or up to 2 MiB before it
  size_t mapping_bytes = 0;
  int size_class = 0;
  CpuBlock* class_prev = nullptr;  // cached blocks of the same class, most recently freed first
  CpuBlock* class_next = nullptr;
  CpuBlock* lru_prev = nullptr;  // all cached blocks, most recently freed first
  CpuBlock* lru_next = nullptr;
};

// Counters of one cache, for tests and tuning.
struct CpuBlockCacheStats {
  size_t limit_bytes = 0;   // the most bytes kept cached
  size_t cached_bytes = 0;  // bytes of free blocks kept mapped
  size_t cached_blocks = 0;
  uint64_t hits = 0;    // acquires served from the cache
  uint64_t misses = 0;  // acquires that mapped a fresh block
};

class CpuBlockCache {
 public:
  // The smallest request the CPU allocator sends here: below it glibc's heap already reuses
  // memory, and a page-granular block would waste more of itself.
  static constexpr size_t kMinBytes = size_t{1} << 20;

  // Keeps at most `limit_bytes` of freed blocks; 0 keeps none (every release unmaps).
  explicit CpuBlockCache(size_t limit_bytes) : limit_bytes_(limit_bytes) {}
  // Unmaps the cached blocks. Blocks still out must not be released afterwards.
  ~CpuBlockCache();

  CpuBlockCache(const CpuBlockCache&) = delete;
  CpuBlockCache& operator=(const CpuBlockCache&) = delete;

  // A block of at least `nbytes` bytes, owned by the caller until it calls release: the most
  // recently freed cached block of its size class, else a fresh mapping. When the OS refuses a
  // mapping, the cache is emptied and the mapping tried once more. Returns null if it still fails
  // (or the header cannot be allocated), and for 0 or more than 2^62 bytes.
  CpuBlock* acquire(size_t nbytes);

  // Gives `block` (from acquire) back to the cache that mapped it; the caller must not touch it
  // afterwards. Shaped as a DataPtr deleter, whose context is the block.
  static void release(void* block);

  // Unmaps every cached block; returns the bytes unmapped.
  size_t release_cached();

  // Changes the limit, unmapping the least recently freed blocks beyond it.
  void set_limit(size_t limit_bytes);

  CpuBlockCacheStats stats() const;

  // The size `nbytes` (0 < nbytes <= 2^62) is rounded up to, and its class index (increasing
  // with size; below 64 * 8).
  static size_t class_size(size_t nbytes);
  static int class_index(size_t nbytes);

 private:
  static constexpr int kClassesPerDoubling = 8;
  static constexpr int kClassCount = 64 * kClassesPerDoubling;

  void give_back(CpuBlock* block);
  // Unlinks cached blocks, least recently freed first, until at most `keep_bytes` remain; returns
  // them as a list (through lru_next) for the caller to unmap outside the lock.
  CpuBlock* evict_locked(size_t keep_bytes);
  void unlink_locked(CpuBlock* block);
  static size_t unmap_all(CpuBlock* list);

  mutable std::mutex mu_;
  size_t limit_bytes_;
  size_t cached_bytes_ = 0;
  size_t cached_blocks_ = 0;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
  CpuBlock* lru_head_ = nullptr;  // most recently freed
  CpuBlock* lru_tail_ = nullptr;  // least recently freed: evicted first
  CpuBlock* class_heads_[kClassCount] = {};
};

// Parses a byte count as the BP_CPU_CACHE_BYTES variable takes it: decimal digits with an
// optional binary suffix K, M, G or T (either case, optionally followed by "iB" or "B"), e.g.
// "0", "1073741824", "512M", "2GiB". Returns nullopt for anything else or on overflow.
std::optional<size_t> parse_byte_count(std::string_view text);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_CPU_BLOCK_CACHE_H_
