#include "sdk/core/allocator.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

TEST(CpuAllocator, Returns64ByteAlignedMemoryOnCpu) {
  Allocator* cpu = get_allocator(DeviceType::kCPU);
  EXPECT_EQ(cpu, cpu_allocator());
  EXPECT_EQ(cpu->alignment(), 64u);
  for (size_t n : {1u, 3u, 64u, 100u, 4096u}) {
    DataPtr p = cpu->allocate(n);
    ASSERT_NE(p.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % 64, 0u);
    EXPECT_EQ(p.device(), Device(DeviceType::kCPU));
    std::memset(p.get(), 0xab, n);  // Writable (ASan checks the extent).
  }
}

TEST(CpuAllocator, ZeroBytesGiveNullOnCpu) {
  DataPtr p = cpu_allocator()->allocate(0);
  EXPECT_EQ(p.get(), nullptr);
  EXPECT_EQ(p.device(), Device(DeviceType::kCPU));
}

TEST(CpuAllocator, ImpossibleSizeIsOutOfMemory) {
  size_t huge = static_cast<size_t>(PTRDIFF_MAX) + 1;
  try {
    cpu_allocator()->allocate(huge);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfMemory);
    EXPECT_EQ(e.message(),
              "CPU out of memory: tried to allocate " + std::to_string(huge) + " bytes");
  }
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kCacheExpected = false;
#else
constexpr bool kCacheExpected = true;
#endif

TEST(CpuAllocator, ReusesFreedLargeBlocksUnlessSanitized) {
  const size_t n = size_t{4} << 20;
  void* first = nullptr;
  {
    DataPtr p = cpu_allocator()->allocate(n);
    first = p.get();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
    std::memset(p.get(), 1, n);
  }
  const CpuBlockCacheStats before = cpu_cache_stats();
  DataPtr again = cpu_allocator()->allocate(n - 1000);
  const CpuBlockCacheStats after = cpu_cache_stats();
  if (!kCacheExpected) {
    EXPECT_EQ(after.limit_bytes, 0u);  // ASan must see every free
    return;
  }
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_GT(after.limit_bytes, size_t{0});
  again.clear();
  EXPECT_GE(release_cached_cpu_memory(), n);
  EXPECT_EQ(cpu_cache_stats().cached_bytes, 0u);
}

TEST(CpuAllocator, SmallBlocksBypassTheCache) {
  const CpuBlockCacheStats before = cpu_cache_stats();
  { DataPtr p = cpu_allocator()->allocate((size_t{1} << 20) - 1); }
  const CpuBlockCacheStats after = cpu_cache_stats();
  EXPECT_EQ(after.hits + after.misses, before.hits + before.misses);
}

TEST(MetaAllocator, ReturnsNullDataOnMeta) {
  DataPtr p = get_allocator(DeviceType::kMeta)->allocate(1 << 20);
  EXPECT_EQ(p.get(), nullptr);
  EXPECT_EQ(p.device(), Device(DeviceType::kMeta));
}

int g_deleted = 0;
void count_delete(void*) { ++g_deleted; }

TEST(DataPtr, MoveTransfersOwnershipAndFreesOnce) {
  g_deleted = 0;
  int payload = 0;
  {
    DataPtr a(&payload, &payload, &count_delete, Device(DeviceType::kCPU));
    DataPtr b = std::move(a);
    EXPECT_EQ(a.get(), nullptr);  // NOLINT: moved-from state.
    EXPECT_EQ(b.get(), &payload);
    DataPtr c;
    c = std::move(b);
    EXPECT_EQ(g_deleted, 0);
  }
  EXPECT_EQ(g_deleted, 1);
}

// A fake plugin device whose memory is host memory, to exercise registration and copies.
struct FakeDevice {
  static inline int copies_to_host = 0;
  static inline int copies_from_host = 0;
  static inline int copies_within = 0;
  static void to_host(void* dst, Device, const void* src, Device, size_t n) {
    ++copies_to_host;
    std::memcpy(dst, src, n);
  }
  static void from_host(void* dst, Device, const void* src, Device, size_t n) {
    ++copies_from_host;
    std::memcpy(dst, src, n);
  }
  static void within(void* dst, Device, const void* src, Device, size_t n) {
    ++copies_within;
    std::memcpy(dst, src, n);
  }
};

TEST(Allocator, PluginWithoutAllocatorGetsAClearError) {
  DeviceType type = register_device_type("alloc_test_bare");
  try {
    get_allocator(type);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
    EXPECT_EQ(e.message(), "no allocator is registered for device type 'alloc_test_bare'");
  }
}

TEST(Allocator, RegisteredPluginAllocatorIsReturned) {
  DeviceType type = register_device_type("alloc_test_dev");
  set_allocator(type, cpu_allocator());
  EXPECT_EQ(get_allocator(type), cpu_allocator());
  set_allocator(type, nullptr);
  EXPECT_THROW(get_allocator(type), Error);
}

TEST(CopyBytes, CopiesBetweenCpuAndPluginDevicesWithTheirFunctions) {
  DeviceType a = register_device_type("copy_test_a");
  DeviceType b = register_device_type("copy_test_b");
  for (DeviceType t : {a, b})
    set_device_copy_fns(t, {&FakeDevice::to_host, &FakeDevice::from_host, &FakeDevice::within});
  std::vector<int> src = {1, 2, 3, 4};
  std::vector<int> dev(4), dev2(4), back(4), other(4);
  Device cpu(DeviceType::kCPU);
  copy_bytes(dev.data(), Device(a, 0), src.data(), cpu, 16);
  copy_bytes(dev2.data(), Device(a, 1), dev.data(), Device(a, 0), 16);
  copy_bytes(other.data(), Device(b, 0), dev2.data(), Device(a, 1), 16);  // Staged through host.
  copy_bytes(back.data(), cpu, other.data(), Device(b, 0), 16);
  EXPECT_EQ(back, src);
  EXPECT_EQ(FakeDevice::copies_from_host, 2);
  EXPECT_EQ(FakeDevice::copies_to_host, 2);
  EXPECT_EQ(FakeDevice::copies_within, 1);
  const DeviceCopyFns registered = device_copy_fns(a);
  EXPECT_EQ(registered.copy_to_host, &FakeDevice::to_host);
  EXPECT_EQ(registered.copy_from_host, &FakeDevice::from_host);
  EXPECT_EQ(registered.copy_within_device, &FakeDevice::within);
  EXPECT_EQ(device_copy_fns(register_device_type("copy_test_none")).copy_to_host, nullptr);
}

TEST(CopyBytes, CpuToCpuIsAMemcpy) {
  std::vector<char> src = {'a', 'b', 'c'};
  std::vector<char> dst(3);
  copy_bytes(dst.data(), Device(DeviceType::kCPU), src.data(), Device(DeviceType::kCPU), 3);
  EXPECT_EQ(dst, src);
}

TEST(CopyBytes, MetaAndMissingFunctionsAreNotImplemented) {
  char buf[4] = {};
  try {
    copy_bytes(buf, Device(DeviceType::kCPU), buf, Device(DeviceType::kMeta), 4);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
    EXPECT_EQ(e.message(), "Cannot copy out of meta tensor; no data!");
  }
  EXPECT_THROW(copy_bytes(buf, Device(DeviceType::kMeta), buf, Device(DeviceType::kCPU), 4), Error);
  DeviceType bare = register_device_type("copy_test_bare");
  try {
    copy_bytes(buf, Device(DeviceType::kCPU), buf, Device(bare), 4);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
    EXPECT_EQ(e.message(),
              "no device-to-host copy function is registered for device type 'copy_test_bare'");
  }
  EXPECT_THROW(set_device_copy_fns(DeviceType::kCPU, {}), Error);
}

}  // namespace
}  // namespace bp
