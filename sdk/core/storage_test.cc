#include "sdk/core/storage.h"

#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

TEST(Storage, AllocatesResizableCpuMemory) {
  Storage s = Storage::allocate(64, cpu_allocator());
  EXPECT_TRUE(s.defined());
  EXPECT_EQ(s.nbytes(), 64u);
  EXPECT_NE(s.data(), nullptr);
  EXPECT_TRUE(s.resizable());
  EXPECT_EQ(s.device(), Device(DeviceType::kCPU));
  EXPECT_EQ(s.allocator(), cpu_allocator());
}

TEST(Storage, ResizeKeepsTheCommonPrefix) {
  Storage s = Storage::allocate(4, cpu_allocator());
  std::memcpy(s.data(), "abcd", 4);
  s.resize(8);
  EXPECT_EQ(s.nbytes(), 8u);
  EXPECT_EQ(std::memcmp(s.data(), "abcd", 4), 0);
  s.resize(2);
  EXPECT_EQ(s.nbytes(), 2u);
  EXPECT_EQ(std::memcmp(s.data(), "ab", 2), 0);
  s.resize(0);
  EXPECT_EQ(s.data(), nullptr);
}

// Small CPU storages keep their bytes in the StorageImpl's block; nothing else may tell.
TEST(Storage, SmallAndLargeCpuStoragesAreAlignedAndWritable) {
  for (size_t nbytes : {size_t{1}, size_t{3}, size_t{64}, StorageImpl::kMaxTrailingBytes,
                        StorageImpl::kMaxTrailingBytes + 1, size_t{4096}}) {
    SCOPED_TRACE(nbytes);
    Storage s = Storage::allocate(nbytes, cpu_allocator());
    ASSERT_NE(s.data(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % cpu_allocator()->alignment(), 0u);
    std::memset(s.data(), 0x5a, nbytes);
    EXPECT_EQ(static_cast<unsigned char*>(s.data())[nbytes - 1], 0x5a);
    EXPECT_TRUE(s.resizable());
    s.resize(nbytes * 2);
    EXPECT_EQ(static_cast<unsigned char*>(s.data())[nbytes - 1], 0x5a);
  }
}

// Only Backplane's own CPU allocator is bypassed for small sizes: a registered one is always
// asked.
TEST(Storage, AnotherAllocatorIsAskedForSmallSizesToo) {
  struct Counting final : Allocator {
    DataPtr allocate(size_t nbytes) override {
      ++calls;
      return cpu_allocator()->allocate(nbytes);
    }
    int calls = 0;
  } counting;
  Storage s = Storage::allocate(4, &counting);
  EXPECT_EQ(counting.calls, 1);
  EXPECT_EQ(s.allocator(), &counting);
}

TEST(Storage, MetaStorageTracksBytesWithoutData) {
  Storage s = Storage::allocate(100, meta_allocator());
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_EQ(s.nbytes(), 100u);
  EXPECT_EQ(s.device(), Device(DeviceType::kMeta));
  s.resize(300);
  EXPECT_EQ(s.nbytes(), 300u);
  EXPECT_EQ(s.data(), nullptr);
}

int g_freed = 0;
void count_free(void*) { ++g_freed; }

TEST(Storage, WrappedMemoryIsNotResizableAndIsFreedByItsDeleter) {
  g_freed = 0;
  char buffer[16];
  {
    Storage s = Storage::wrap(DataPtr(buffer, buffer, &count_free, Device(DeviceType::kCPU)),
                              sizeof(buffer));
    EXPECT_FALSE(s.resizable());
    try {
      s.resize(32);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.message(), "Trying to resize storage that is not resizable");
    }
    Storage copy = s;
    EXPECT_TRUE(copy.is_alias_of(s));
    EXPECT_EQ(s.use_count(), 2u);
  }
  EXPECT_EQ(g_freed, 1);
}

TEST(Storage, DistinctStoragesAreNotAliases) {
  Storage a = Storage::allocate(8, cpu_allocator());
  Storage b = Storage::allocate(8, cpu_allocator());
  EXPECT_FALSE(a.is_alias_of(b));
}

}  // namespace
}  // namespace bp
