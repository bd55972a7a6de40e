#include "sdk/core/resize.h"

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/tensor.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

TEST(ResizeTensor, GrowsStorageAndKeepsOldElements) {
  Tensor t = native::empty({2}, ScalarType::kInt32, kCpu);
  t.data_ptr<int32_t>()[0] = 7;
  t.data_ptr<int32_t>()[1] = 9;
  resize_tensor(*t.impl(), {2, 3});
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(t.strides(), IntArrayRef({3, 1}));
  EXPECT_GE(t.storage().nbytes(), 24u);
  EXPECT_EQ(t.data_ptr<int32_t>()[0], 7);
  EXPECT_EQ(t.data_ptr<int32_t>()[1], 9);
}

TEST(ResizeTensor, ShrinkingKeepsStorage) {
  Tensor t = native::empty({4, 4}, ScalarType::kFloat32, kCpu);
  void* data = t.data_ptr();
  resize_tensor(*t.impl(), {3});
  EXPECT_EQ(t.sizes(), IntArrayRef({3}));
  EXPECT_EQ(t.storage().nbytes(), 64u);
  EXPECT_EQ(t.data_ptr(), data);
}

TEST(ResizeTensor, TakesExplicitStridesAndMemoryFormat) {
  Tensor t = native::empty({0}, ScalarType::kFloat32, kCpu);
  const int64_t strides[] = {1, 2};
  resize_tensor(*t.impl(), {2, 3}, IntArrayRef(strides));
  EXPECT_EQ(t.strides(), IntArrayRef({1, 2}));
  resize_tensor(*t.impl(), {2, 3, 4, 5}, std::nullopt, MemoryFormat::kChannelsLast);
  EXPECT_EQ(t.strides(), IntArrayRef({60, 1, 15, 3}));
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::kChannelsLast));
}

TEST(ResizeTensor, RejectsNegativeSizes) {
  Tensor t = native::empty({1}, ScalarType::kFloat32, kCpu);
  try {
    resize_tensor(*t.impl(), {2, -1});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "Trying to create tensor with negative dimension -1: [2, -1]");
  }
}

TEST(ResizeTensor, GrowsMetaTensorsWithoutData) {
  Tensor t = native::empty({1}, ScalarType::kFloat32, Device(DeviceType::kMeta));
  resize_tensor(*t.impl(), {1000, 1000});
  EXPECT_EQ(t.numel(), 1000000);
  EXPECT_EQ(t.data_ptr(), nullptr);
}

}  // namespace
}  // namespace bp
