// BP_CPU_CACHE_BYTES, read at the CPU allocator's first large allocation: a process of its own,
// since the value is read once.
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "sdk/core/allocator.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

TEST(CpuAllocator, InvalidCacheBytesFailLargeAllocationsUntilFixed) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the cache (and its variable) is off in ASan and TSan builds";
#endif
  const size_t large = size_t{2} << 20;
  ASSERT_EQ(setenv("BP_CPU_CACHE_BYTES", "12 parsecs", 1), 0);
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      cpu_allocator()->allocate(large);
      FAIL() << "expected an error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
      EXPECT_EQ(e.message(),
                "BP_CPU_CACHE_BYTES must be a byte count such as 536870912 or 512M (0 turns the "
                "cache off), not '12 parsecs'");
    }
  }
  EXPECT_NE(cpu_allocator()->allocate(100).get(), nullptr);  // small blocks never read it

  ASSERT_EQ(setenv("BP_CPU_CACHE_BYTES", "3M", 1), 0);
  { DataPtr p = cpu_allocator()->allocate(large); }
  EXPECT_EQ(cpu_cache_stats().limit_bytes, size_t{3} << 20);
  EXPECT_EQ(cpu_cache_stats().cached_bytes, large);
  { DataPtr p = cpu_allocator()->allocate(size_t{4} << 20); }  // beyond the limit: unmapped
  EXPECT_EQ(cpu_cache_stats().cached_bytes, large);
}

}  // namespace
}  // namespace bp
