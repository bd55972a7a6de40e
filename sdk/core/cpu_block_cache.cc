#include "sdk/core/cpu_block_cache.h"

#include <sys/mman.h>

#include <bit>
#include <cctype>
#include <new>

namespace bp {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t{2} << 20;
// Larger requests cannot be rounded to a class without overflowing; no OS maps them anyway.
constexpr size_t kMaxBytes = size_t{1} << 62;

struct Mapping {
  void* start = nullptr;
  size_t bytes = 0;
  void* data = nullptr;
};

// A fresh anonymous mapping with `size` usable bytes. Huge-page candidates get 2 MiB of slack so
// their data can start on a 2 MiB boundary (the slack is address space only: never touched).
bool map_block(size_t size, Mapping* out) {
  const bool huge = size >= kHugePage;
  const size_t bytes = huge ? size + kHugePage : size;
  void* start = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (start == MAP_FAILED) return false;
  void* data = start;
  if (huge) {
    const uintptr_t aligned =
        (reinterpret_cast<uintptr_t>(start) + kHugePage - 1) & ~uintptr_t{kHugePage - 1};
    data = reinterpret_cast<void*>(aligned);
    // Advice only: with THP off (or unsupported) the block simply keeps 4 KiB pages.
    madvise(data, size, MADV_HUGEPAGE);
  }
  *out = Mapping{start, bytes, data};
  return true;
}

}  // namespace

size_t CpuBlockCache::class_size(size_t nbytes) {
  if (nbytes <= 8 * kPage) return (nbytes + kPage - 1) & ~(kPage - 1);
  const int log2_floor = std::bit_width(nbytes - 1) - 1;  // 2^log2_floor < nbytes
  const size_t step = size_t{1} << (log2_floor - 3);
  return (nbytes + step - 1) & ~(step - 1);
}

int CpuBlockCache::class_index(size_t nbytes) {
  // Classes 0-7: 1 to 8 pages. Then 8 per doubling: (2^k, 2^(k+1)] in steps of 2^(k-3).
  if (nbytes <= 8 * kPage) return static_cast<int>((nbytes + kPage - 1) / kPage) - 1;
  const int log2_floor = std::bit_width(nbytes - 1) - 1;
  const size_t step = size_t{1} << (log2_floor - 3);
  const int steps = static_cast<int>((nbytes + step - 1) / step);  // 9 to 16
  return 8 + (log2_floor - 15) * kClassesPerDoubling + (steps - 9);
}

CpuBlockCache::~CpuBlockCache() {
  std::lock_guard<std::mutex> lock(mu_);
  unmap_all(evict_locked(0));
}

CpuBlock* CpuBlockCache::acquire(size_t nbytes) {
  if (nbytes == 0 || nbytes > kMaxBytes) return nullptr;
  const int index = class_index(nbytes);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (CpuBlock* block = class_heads_[index]; block != nullptr) {
      unlink_locked(block);
      ++hits_;
      return block;
    }
    ++misses_;
  }
  const size_t size = class_size(nbytes);
  Mapping mapping;
  // Cached blocks may be what the OS is missing: give them back and try once more.
  if (!map_block(size, &mapping) && (release_cached() == 0 || !map_block(size, &mapping))) {
    return nullptr;
  }
  auto* block = new (std::nothrow) CpuBlock();
  if (block == nullptr) {
    munmap(mapping.start, mapping.bytes);
    return nullptr;
  }
  block->data = mapping.data;
  block->size = size;
  block->owner = this;
  block->mapping = mapping.start;
  block->mapping_bytes = mapping.bytes;
  block->size_class = index;
  return block;
}

void CpuBlockCache::release(void* block) {
  auto* b = static_cast<CpuBlock*>(block);
  b->owner->give_back(b);
}

void CpuBlockCache::give_back(CpuBlock* block) {
  CpuBlock* to_unmap = block;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (block->size <= limit_bytes_) {
      // Room for it first: the least recently freed blocks go.
      to_unmap = evict_locked(limit_bytes_ - block->size);
      block->class_next = class_heads_[block->size_class];
      if (block->class_next != nullptr) block->class_next->class_prev = block;
      class_heads_[block->size_class] = block;
      block->lru_next = lru_head_;
      if (lru_head_ != nullptr) lru_head_->lru_prev = block;
      lru_head_ = block;
      if (lru_tail_ == nullptr) lru_tail_ = block;
      cached_bytes_ += block->size;
      ++cached_blocks_;
    }
  }
  unmap_all(to_unmap);
}

CpuBlock* CpuBlockCache::evict_locked(size_t keep_bytes) {
  CpuBlock* evicted = nullptr;
  while (cached_bytes_ > keep_bytes) {
    CpuBlock* block = lru_tail_;
    unlink_locked(block);
    block->lru_next = evicted;
    evicted = block;
  }
  return evicted;
}

void CpuBlockCache::unlink_locked(CpuBlock* block) {
  if (block->class_prev != nullptr) {
    block->class_prev->class_next = block->class_next;
  } else {
    class_heads_[block->size_class] = block->class_next;
  }
  if (block->class_next != nullptr) block->class_next->class_prev = block->class_prev;
  if (block->lru_prev != nullptr) {
    block->lru_prev->lru_next = block->lru_next;
  } else {
    lru_head_ = block->lru_next;
  }
  if (block->lru_next != nullptr) {
    block->lru_next->lru_prev = block->lru_prev;
  } else {
    lru_tail_ = block->lru_prev;
  }
  block->class_prev = block->class_next = block->lru_prev = block->lru_next = nullptr;
  cached_bytes_ -= block->size;
  --cached_blocks_;
}

size_t CpuBlockCache::unmap_all(CpuBlock* list) {
  size_t bytes = 0;
  while (list != nullptr) {
    CpuBlock* next = list->lru_next;
    bytes += list->size;
    munmap(list->mapping, list->mapping_bytes);
    delete list;
    list = next;
  }
  return bytes;
}

size_t CpuBlockCache::release_cached() {
  CpuBlock* evicted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    evicted = evict_locked(0);
  }
  return unmap_all(evicted);
}

void CpuBlockCache::set_limit(size_t limit_bytes) {
  CpuBlock* evicted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    limit_bytes_ = limit_bytes;
    evicted = evict_locked(limit_bytes);
  }
  unmap_all(evicted);
}

CpuBlockCacheStats CpuBlockCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return CpuBlockCacheStats{limit_bytes_, cached_bytes_, cached_blocks_, hits_, misses_};
}

std::optional<size_t> parse_byte_count(std::string_view text) {
  size_t i = 0;
  size_t value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const size_t digit = static_cast<size_t>(text[i] - '0');
    if (value > (SIZE_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  if (suffix.empty()) return value;
  int shift = 0;
  switch (std::tolower(static_cast<unsigned char>(suffix[0]))) {
    case 'k':
      shift = 10;
      break;
    case 'm':
      shift = 20;
      break;
    case 'g':
      shift = 30;
      break;
    case 't':
      shift = 40;
      break;
    default:
      return std::nullopt;
  }
  suffix.remove_prefix(1);
  if (suffix == "iB" || suffix == "ib") suffix.remove_prefix(2);
  if (suffix == "B" || suffix == "b") suffix.remove_prefix(1);
  if (!suffix.empty() || value > (SIZE_MAX >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace bp
