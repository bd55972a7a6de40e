#include "reference_backend/cuda/caching_allocator.h"

#include <algorithm>
#include <bit>
#include <sstream>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

constexpr size_t kSmallQuantum = 512;
constexpr size_t kSmallLimit = size_t{1} << 20;

std::string bytes(size_t n) {
  std::ostringstream out;
  if (n >= (size_t{1} << 30)) {
    out << static_cast<double>(n) / static_cast<double>(size_t{1} << 30) << " GiB";
  } else if (n >= (size_t{1} << 20)) {
    out << static_cast<double>(n) / static_cast<double>(size_t{1} << 20) << " MiB";
  } else {
    out << n << " bytes";
  }
  return out.str();
}

}  // namespace

size_t CachingAllocator::size_class(size_t nbytes) {
  if (nbytes <= kSmallLimit) return (nbytes + kSmallQuantum - 1) / kSmallQuantum * kSmallQuantum;
  // Four classes per power of two: 2^k * {4, 5, 6, 7} / 4.
  const size_t power = std::bit_floor(nbytes);
  const size_t step = power / 4;
  return (nbytes + step - 1) / step * step;
}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked();
}

void* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  const size_t size = size_class(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.allocations;
  void* block = nullptr;
  auto bin = free_.find(size);
  if (bin != free_.end() && !bin->second.empty()) {
    block = bin->second.back();
    bin->second.pop_back();
    ++stats_.cache_hits;
  } else {
    block = memory_->allocate(size);
    if (block == nullptr) {
      // Cached blocks of other classes may be what the device lacks.
      release_cached_locked();
      block = memory_->allocate(size);
    }
    if (block == nullptr) {
      throw Error(BP_ERROR_OUT_OF_MEMORY, "CUDA out of memory: tried to allocate " + bytes(nbytes) +
                                              " (" + bytes(stats_.allocated) + " allocated, " +
                                              bytes(stats_.reserved) + " reserved by Backplane)");
    }
    ++stats_.device_allocations;
    stats_.reserved += size;
    stats_.peak_reserved = std::max(stats_.peak_reserved, stats_.reserved);
  }
  live_[block] = size;
  stats_.allocated += size;
  stats_.peak_allocated = std::max(stats_.peak_allocated, stats_.allocated);
  return block;
}

void CachingAllocator::deallocate(void* ptr) {
  if (ptr == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(ptr);
  BP_CUDA_INTERNAL_CHECK(it != live_.end(), "deallocating a pointer the allocator does not own");
  stats_.allocated -= it->second;
  free_[it->second].push_back(ptr);
  live_.erase(it);
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked();
}

void CachingAllocator::release_cached_locked() {
  for (auto& [size, blocks] : free_) {
    for (void* block : blocks) {
      memory_->release(block);
      stats_.reserved -= size;
      ++stats_.device_releases;
    }
  }
  free_.clear();
}

CachingAllocator::Stats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void CachingAllocator::reset_peaks() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_allocated = stats_.allocated;
  stats_.peak_reserved = stats_.reserved;
}

}  // namespace bp::cuda
