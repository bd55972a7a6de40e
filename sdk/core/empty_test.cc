#include "sdk/core/empty.h"

#include <cstdint>

#include "gtest/gtest.h"
#include "sdk/core/allocator.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);
using V = DimVector;
V vec(IntArrayRef r) { return V(r.begin(), r.end()); }

template <typename F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorCode::kInternal, "no error");
}

TEST(ComputeStorageNbytes, FollowsPyTorchsRule) {
  EXPECT_EQ(compute_storage_nbytes({2, 3}, {3, 1}, 4), 24u);
  EXPECT_EQ(compute_storage_nbytes({2, 3}, {1, 2}, 4), 24u);
  EXPECT_EQ(compute_storage_nbytes({2, 3}, {6, 2}, 4), 44u);  // (1 + 6 + 4) * 4.
  EXPECT_EQ(compute_storage_nbytes({3}, {0}, 8), 8u);         // Expanded.
  EXPECT_EQ(compute_storage_nbytes({2, 0}, {5, 1}, 4), 0u);   // Any zero size.
  EXPECT_EQ(compute_storage_nbytes({}, {}, 8), 8u);           // Scalar.
  EXPECT_EQ(compute_storage_nbytes({2}, {1}, 4, 3), 20u);     // With an offset.
  EXPECT_EQ(
      error_of([] {
        compute_storage_nbytes({INT64_MAX, 4}, {4, 1}, 8);
      }).message(),
      "Storage size calculation overflowed with sizes=[9223372036854775807, 4] and strides=[4, 1]");
}

TEST(Empty, CreatesContiguousTensorsWithFreshStorage) {
  Tensor t = native::empty({2, 3, 4}, ScalarType::kFloat64, kCpu);
  EXPECT_EQ(vec(t.strides()), (V{12, 4, 1}));
  EXPECT_EQ(t.storage().nbytes(), 192u);
  EXPECT_NE(t.data_ptr(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, 0u);
  EXPECT_TRUE(t.storage().resizable());
  // "cpu:0" is accepted; CPU tensors report "cpu", as in PyTorch.
  EXPECT_EQ(native::empty({1}, ScalarType::kFloat32, Device(DeviceType::kCPU, 0)).device(), kCpu);
}

TEST(Empty, HonoursChannelsLastFormats) {
  Tensor t = native::empty({2, 3, 4, 5}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast);
  EXPECT_EQ(vec(t.strides()), (V{60, 1, 15, 3}));
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::kChannelsLast));
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  Tensor t3 =
      native::empty({1, 2, 3, 4, 5}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast3d);
  EXPECT_EQ(vec(t3.strides()), (V{120, 1, 40, 10, 2}));
  EXPECT_TRUE(t3.is_contiguous(MemoryFormat::kChannelsLast3d));
  EXPECT_THROW(native::empty({2, 3}, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast),
               Error);
}

TEST(Empty, ZeroSizeAndScalarTensors) {
  Tensor z = native::empty({0, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(vec(z.strides()), (V{3, 1}));
  EXPECT_EQ(z.storage().nbytes(), 0u);
  EXPECT_EQ(z.data_ptr(), nullptr);
  EXPECT_TRUE(z.is_contiguous());
  Tensor s = native::empty({}, ScalarType::kInt32, kCpu);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(s.storage().nbytes(), 4u);
}

TEST(Empty, RejectsNegativeSizesWithPyTorchsMessage) {
  Error e = error_of([] { native::empty({-1, 2}, ScalarType::kFloat32, kCpu); });
  EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.message(), "Trying to create tensor with negative dimension -1: [-1, 2]");
  EXPECT_EQ(error_of([] {
              native::empty_strided({2, -3}, {1, 1}, ScalarType::kFloat32, kCpu);
            }).message(),
            "Trying to create tensor with negative dimension -3: [2, -3]");
}

TEST(EmptyStrided, AllocatesTheSpanOfTheStrides) {
  Tensor t = native::empty_strided({2, 3}, {1, 2}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(vec(t.strides()), (V{1, 2}));
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  Tensor gappy = native::empty_strided({2, 3}, {10, 3}, ScalarType::kInt8, kMeta);
  EXPECT_EQ(gappy.storage().nbytes(), 17u);
  EXPECT_EQ(gappy.data_ptr(), nullptr);
  EXPECT_EQ(
      error_of([] { native::empty_strided({2}, {-1}, ScalarType::kFloat32, kCpu); }).message(),
      "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  EXPECT_EQ(error_of([] {
              native::empty_strided({2, 2}, {1}, ScalarType::kFloat32, kCpu);
            }).message(),
            "dimensionality of sizes (2) must match dimensionality of strides (1)");
}

TEST(Empty, WorksOnAnyDeviceWithAnAllocator) {
  DeviceType npu = register_device_type("empty_test_npu");
  Error e = error_of([&] { native::empty({2}, ScalarType::kFloat32, Device(npu)); });
  EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  EXPECT_EQ(e.message(), "no allocator is registered for device type 'empty_test_npu'");
  // A plugin allocator handing out host memory labelled with the plugin's device 0.
  struct NpuAllocator : Allocator {
    explicit NpuAllocator(DeviceType type) : type(type) {}
    DataPtr allocate(size_t n) override {
      char* data = new char[n];
      return DataPtr(
          data, data, [](void* p) { delete[] static_cast<char*>(p); }, Device(type, 0));
    }
    DeviceType type;
  };
  NpuAllocator allocator(npu);
  set_allocator(npu, &allocator);
  {
    Tensor t = native::empty({2, 3}, ScalarType::kInt16, Device(npu));
    EXPECT_EQ(t.device(), Device(npu, 0));
    EXPECT_EQ(t.storage().nbytes(), 12u);
    EXPECT_NE(t.data_ptr(), nullptr);
  }
  set_allocator(npu, nullptr);
}

}  // namespace
}  // namespace bp
