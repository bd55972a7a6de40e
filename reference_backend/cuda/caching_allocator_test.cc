#include "reference_backend/cuda/caching_allocator.h"

#include <cstdlib>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

using ::testing::HasSubstr;

// Host memory standing in for a device with `capacity` bytes.
class FakeDeviceMemory : public DeviceMemory {
 public:
  explicit FakeDeviceMemory(size_t capacity) : capacity_(capacity) {}
  ~FakeDeviceMemory() override { EXPECT_TRUE(blocks_.empty()) << "device blocks leaked"; }
  void* allocate(size_t bytes) override {
    if (used_ + bytes > capacity_) return nullptr;
    void* p = std::malloc(bytes);
    blocks_[p] = bytes;
    used_ += bytes;
    return p;
  }
  void release(void* ptr) override {
    auto it = blocks_.find(ptr);
    ASSERT_NE(it, blocks_.end());
    used_ -= it->second;
    blocks_.erase(it);
    std::free(ptr);
  }
  size_t used() const { return used_; }

 private:
  size_t capacity_;
  size_t used_ = 0;
  std::map<void*, size_t> blocks_;
};

TEST(CachingAllocator, SizeClassesAreMultiplesOf512UpTo1MiBThenQuartersOfPowersOfTwo) {
  EXPECT_EQ(CachingAllocator::size_class(1), 512u);
  EXPECT_EQ(CachingAllocator::size_class(512), 512u);
  EXPECT_EQ(CachingAllocator::size_class(513), 1024u);
  EXPECT_EQ(CachingAllocator::size_class(1 << 20), 1u << 20);
  EXPECT_EQ(CachingAllocator::size_class((1 << 20) + 1), (1u << 20) + (1u << 18));
  EXPECT_EQ(CachingAllocator::size_class(3u << 20), 3u << 20);
  EXPECT_EQ(CachingAllocator::size_class((7u << 20) + 1), 8u << 20);
}

TEST(CachingAllocator, ReusesAFreedBlockOfTheSameClassWithoutAskingTheDevice) {
  FakeDeviceMemory device(1 << 30);
  CachingAllocator allocator(&device);
  void* a = allocator.allocate(1000);
  allocator.deallocate(a);
  void* b = allocator.allocate(900);  // same 1024-byte class
  EXPECT_EQ(a, b);
  const CachingAllocator::Stats s = allocator.stats();
  EXPECT_EQ(s.allocations, 2);
  EXPECT_EQ(s.cache_hits, 1);
  EXPECT_EQ(s.device_allocations, 1);
  EXPECT_EQ(s.allocated, 1024u);
  EXPECT_EQ(s.reserved, 1024u);
  allocator.deallocate(b);
}

TEST(CachingAllocator, TracksAllocatedReservedAndPeaks) {
  FakeDeviceMemory device(1 << 30);
  CachingAllocator allocator(&device);
  void* a = allocator.allocate(512);
  void* b = allocator.allocate(4096);
  allocator.deallocate(a);
  CachingAllocator::Stats s = allocator.stats();
  EXPECT_EQ(s.allocated, 4096u);
  EXPECT_EQ(s.reserved, 4608u);
  EXPECT_EQ(s.peak_allocated, 4608u);
  EXPECT_EQ(device.used(), 4608u);
  allocator.deallocate(b);
  allocator.reset_peaks();
  s = allocator.stats();
  EXPECT_EQ(s.allocated, 0u);
  EXPECT_EQ(s.peak_allocated, 0u);
  EXPECT_EQ(s.peak_reserved, 4608u);
}

TEST(CachingAllocator, EmptyCacheReturnsFreeBlocksAndKeepsLiveOnes) {
  FakeDeviceMemory device(1 << 30);
  CachingAllocator allocator(&device);
  void* live = allocator.allocate(2048);
  allocator.deallocate(allocator.allocate(1 << 21));
  allocator.empty_cache();
  const CachingAllocator::Stats s = allocator.stats();
  EXPECT_EQ(s.reserved, 2048u);
  EXPECT_EQ(s.device_releases, 1);
  EXPECT_EQ(device.used(), 2048u);
  allocator.deallocate(live);
}

TEST(CachingAllocator, OutOfMemoryEmptiesTheCacheAndRetriesBeforeFailing) {
  FakeDeviceMemory device(8192);
  CachingAllocator allocator(&device);
  allocator.deallocate(allocator.allocate(4096));  // cached, of another class
  void* big = allocator.allocate(6000);            // fits only once the cache is emptied
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(allocator.stats().device_releases, 1);
  try {
    allocator.allocate(4096);
    FAIL() << "expected an out-of-memory error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), BP_ERROR_OUT_OF_MEMORY);
    EXPECT_THAT(e.what(), HasSubstr("CUDA out of memory: tried to allocate 4096 bytes (6144 "
                                    "bytes allocated, 6144 bytes reserved by Backplane)"));
  }
  allocator.deallocate(big);
}

TEST(CachingAllocator, ZeroBytesIsNullAndFreeingNullDoesNothing) {
  FakeDeviceMemory device(1 << 20);
  CachingAllocator allocator(&device);
  EXPECT_EQ(allocator.allocate(0), nullptr);
  allocator.deallocate(nullptr);
  EXPECT_EQ(allocator.stats().allocations, 0);
}

TEST(CachingAllocator, FreeingAnUnknownPointerIsAnInternalError) {
  FakeDeviceMemory device(1 << 20);
  CachingAllocator allocator(&device);
  int x = 0;
  try {
    allocator.deallocate(&x);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), BP_ERROR_INTERNAL);
  }
}

TEST(CachingAllocator, ConcurrentAllocationsHandOutDistinctBlocks) {
  FakeDeviceMemory device(size_t{1} << 30);
  CachingAllocator allocator(&device);
  std::vector<std::thread> threads;
  std::vector<std::vector<void*>> blocks(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        void* p = allocator.allocate(512 * static_cast<size_t>(1 + i % 3));
        if (i % 2) {
          allocator.deallocate(p);
        } else {
          blocks[static_cast<size_t>(t)].push_back(p);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  std::set<void*> distinct;
  size_t count = 0;
  for (const auto& list : blocks) {
    for (void* p : list) {
      distinct.insert(p);
      ++count;
    }
  }
  EXPECT_EQ(distinct.size(), count);
  for (const auto& list : blocks) {
    for (void* p : list) allocator.deallocate(p);
  }
  EXPECT_EQ(allocator.stats().allocated, 0u);
}

}  // namespace
}  // namespace bp::cuda
