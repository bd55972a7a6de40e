#include "sdk/core/cpu_block_cache.h"

#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace bp {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

uintptr_t address(const CpuBlock* block) { return reinterpret_cast<uintptr_t>(block->data); }

TEST(CpuBlockCache, ClassSizesRoundUpByAtMostAnEighthToWholePages) {
  int previous_index = -1;
  for (size_t n = 1; n < (size_t{1} << 40); n += n / 7 + 1) {
    const size_t size = CpuBlockCache::class_size(n);
    const int index = CpuBlockCache::class_index(n);
    EXPECT_GE(size, n);
    EXPECT_EQ(size % 4096, 0u) << n;
    if (n > 8 * 4096) {
      EXPECT_LE(size - n, n / 8) << n;
    }
    EXPECT_GE(index, previous_index) << n;
    EXPECT_EQ(CpuBlockCache::class_index(size), index) << n;      // the class holds its size
    EXPECT_GT(CpuBlockCache::class_index(size + 1), index) << n;  // and nothing larger
    previous_index = index;
  }
  EXPECT_EQ(CpuBlockCache::class_size(64000000), 64 * kMiB);  // 1.6e7 float32
  EXPECT_LT(CpuBlockCache::class_index(size_t{1} << 62), 64 * 8);
}

TEST(CpuBlockCache, FreshBlocksArePageAlignedAndLargeOnesHugePageAligned) {
  CpuBlockCache cache(64 * kMiB);
  for (size_t n : {size_t{1}, kMiB, kMiB + 1, 3 * kMiB + 5, 17 * kMiB}) {
    CpuBlock* block = cache.acquire(n);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(block->size, CpuBlockCache::class_size(n));
    EXPECT_EQ(address(block) % (block->size >= 2 * kMiB ? 2 * kMiB : 4096), 0u) << n;
    std::memset(block->data, 0x5a, block->size);
    CpuBlockCache::release(block);
  }
}

TEST(CpuBlockCache, ReusesTheMostRecentlyFreedBlockOfTheSameClass) {
  CpuBlockCache cache(64 * kMiB);
  CpuBlock* a = cache.acquire(3 * kMiB);
  CpuBlock* b = cache.acquire(3 * kMiB);
  void* b_data = b->data;
  CpuBlockCache::release(a);
  CpuBlockCache::release(b);
  EXPECT_EQ(cache.stats().cached_blocks, 2u);
  CpuBlock* again = cache.acquire(3 * kMiB - 100);  // same class
  EXPECT_EQ(again->data, b_data);
  CpuBlock* other = cache.acquire(5 * kMiB);  // another class: fresh
  const CpuBlockCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 3u);
  EXPECT_EQ(stats.cached_blocks, 1u);
  EXPECT_EQ(stats.cached_bytes, 3 * kMiB);
  CpuBlockCache::release(again);
  CpuBlockCache::release(other);
}

TEST(CpuBlockCache, ReusedBlocksTakeNoPageFaults) {
  CpuBlockCache cache(256 * kMiB);
  CpuBlock* block = cache.acquire(64 * kMiB);
  std::memset(block->data, 1, block->size);
  CpuBlockCache::release(block);
  rusage before{}, after{};
  getrusage(RUSAGE_THREAD, &before);
  block = cache.acquire(64 * kMiB);
  std::memset(block->data, 2, block->size);
  getrusage(RUSAGE_THREAD, &after);
  CpuBlockCache::release(block);
  // 16384 pages of 4 KiB: a fresh block faults on each (or on each 2 MiB with huge pages).
  EXPECT_LT(after.ru_minflt - before.ru_minflt, 16);
}

TEST(CpuBlockCache, EvictsTheLeastRecentlyFreedBlocksBeyondTheLimit) {
  CpuBlockCache cache(4 * kMiB);
  CpuBlock* a = cache.acquire(2 * kMiB);
  CpuBlock* b = cache.acquire(2 * kMiB);
  CpuBlock* c = cache.acquire(2 * kMiB);
  void* b_data = b->data;
  void* c_data = c->data;
  CpuBlockCache::release(a);
  CpuBlockCache::release(b);
  CpuBlockCache::release(c);  // `a` goes to make room
  EXPECT_EQ(cache.stats().cached_bytes, 4 * kMiB);
  a = cache.acquire(2 * kMiB);
  b = cache.acquire(2 * kMiB);
  EXPECT_EQ(a->data, c_data);
  EXPECT_EQ(b->data, b_data);
  EXPECT_EQ(cache.stats().cached_blocks, 0u);
  CpuBlockCache::release(a);
  CpuBlockCache::release(b);
}

TEST(CpuBlockCache, BlocksLargerThanTheLimitAreUnmappedAtOnce) {
  CpuBlockCache cache(kMiB);
  CpuBlockCache::release(cache.acquire(2 * kMiB));
  EXPECT_EQ(cache.stats().cached_bytes, 0u);
  CpuBlockCache off(0);
  CpuBlockCache::release(off.acquire(4096));
  EXPECT_EQ(off.stats().cached_blocks, 0u);
}

TEST(CpuBlockCache, ReleaseCachedAndLowerLimitsUnmap) {
  CpuBlockCache cache(64 * kMiB);
  CpuBlock* a = cache.acquire(kMiB);
  CpuBlock* b = cache.acquire(8 * kMiB);
  CpuBlock* c = cache.acquire(8 * kMiB);
  CpuBlockCache::release(a);
  CpuBlockCache::release(b);
  CpuBlockCache::release(c);
  cache.set_limit(10 * kMiB);  // the 1 MiB block, least recently freed, goes first
  EXPECT_EQ(cache.stats().cached_bytes, 8 * kMiB);
  EXPECT_EQ(cache.stats().limit_bytes, 10 * kMiB);
  EXPECT_EQ(cache.release_cached(), 8 * kMiB);
  EXPECT_EQ(cache.stats().cached_blocks, 0u);
  EXPECT_EQ(cache.release_cached(), 0u);
}

TEST(CpuBlockCache, ImpossibleSizesGiveNull) {
  CpuBlockCache cache(64 * kMiB);
  EXPECT_EQ(cache.acquire(size_t{1} << 50), nullptr);  // beyond the address space
  EXPECT_EQ(cache.acquire(SIZE_MAX), nullptr);
  EXPECT_EQ(cache.acquire(0), nullptr);
}

TEST(CpuBlockCache, ThreadsShareTheCacheSafely) {
  CpuBlockCache cache(6 * kMiB);  // small: releases evict while others acquire
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 200; ++i) {
        const size_t n = kMiB * static_cast<size_t>(1 + (i + t) % 3);
        CpuBlock* block = cache.acquire(n);
        ASSERT_NE(block, nullptr);
        auto* bytes = static_cast<unsigned char*>(block->data);
        const auto mark = static_cast<unsigned char>(t * 64 + i % 64);
        bytes[0] = bytes[n - 1] = mark;
        std::this_thread::yield();
        EXPECT_EQ(bytes[0], mark);
        EXPECT_EQ(bytes[n - 1], mark);
        CpuBlockCache::release(block);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const CpuBlockCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits + stats.misses, uint64_t{kThreads * 200});
  EXPECT_LE(stats.cached_bytes, 6 * kMiB);
}

TEST(ParseByteCount, TakesDigitsWithBinarySuffixes) {
  EXPECT_EQ(parse_byte_count("0"), size_t{0});
  EXPECT_EQ(parse_byte_count("1073741824"), size_t{1} << 30);
  EXPECT_EQ(parse_byte_count("512M"), size_t{512} << 20);
  EXPECT_EQ(parse_byte_count("512mb"), size_t{512} << 20);
  EXPECT_EQ(parse_byte_count("2GiB"), size_t{2} << 30);
  EXPECT_EQ(parse_byte_count("64k"), size_t{64} << 10);
  EXPECT_EQ(parse_byte_count("1T"), size_t{1} << 40);
}

TEST(ParseByteCount, RefusesAnythingElse) {
  for (const char* text :
       {"", "M", "-1", "1.5G", "12 M", "1X", "1GiBs", "18446744073709551616", "16777216T"}) {
    EXPECT_EQ(parse_byte_count(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace bp
