// copy_, clone, contiguous and the `to` family: PyTorch's conversions for every dtype pair, any
// strides and broadcasting, overlap rules, Meta, and copies to, from and within a plugin device
// (FakeDevice: host memory behind the device's copy functions).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace bp::testing;
using Sizes = std::vector<int64_t>;

constexpr ScalarType kAllDtypes[] = {
    ScalarType::kBool,    ScalarType::kUInt8,   ScalarType::kInt8,      ScalarType::kInt16,
    ScalarType::kInt32,   ScalarType::kInt64,   ScalarType::kFloat16,   ScalarType::kBFloat16,
    ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kComplex64, ScalarType::kComplex128};

// A tensor of `dtype` holding `values` (converted from double).
Tensor of_dtype(ScalarType dtype, const std::vector<double>& values) {
  Tensor t = bp::empty({static_cast<int64_t>(values.size())}, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data_ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) p[i] = element_cast<T>(values[i]);
  });
  return t;
}

// The real parts of `t`'s elements as doubles.
std::vector<double> as_doubles(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> out;
    for (const T& v : values_of<T>(t)) out.push_back(element_cast<double>(v));
    return out;
  });
}

// Kept first: the warning is issued once per process.
TEST(Copy, WarnsOnceThatComplexToRealDropsTheImaginaryPart) {
  Tensor c = tensor_of<complex<float>>({2}, {{1.5f, 2}, {-3, 4}});
  Tensor f = bp::empty({2});
  WarningCapture capture;
  f.copy_(c);
  f.copy_(c);
  EXPECT_THAT(capture.messages(),
              ElementsAre("Casting complex values to real discards the imaginary part"));
  EXPECT_THAT(values_of<float>(f), ElementsAre(1.5f, -3));
}

TEST(Copy, ConvertsBetweenEveryPairOfDtypes) {
  // Values every dtype holds exactly.
  for (ScalarType from : kAllDtypes) {
    for (ScalarType to : kAllDtypes) {
      SCOPED_TRACE(std::string(scalar_type_name(from)) + " -> " +
                   std::string(scalar_type_name(to)));
      Tensor dst = bp::empty({3}, to);
      bp::copy_(dst, of_dtype(from, {0, 1, 1}));
      EXPECT_THAT(as_doubles(dst), ElementsAre(0, 1, 1));
      if (from == ScalarType::kBool || to == ScalarType::kBool) continue;
      bp::copy_(dst, of_dtype(from, {5, 0, 100}));
      EXPECT_THAT(as_doubles(dst), ElementsAre(5, 0, 100));
    }
  }
}

TEST(Copy, FollowsPyTorchsConversionRules) {
  // Truncation towards zero (values out of the integer type's range are implementation-defined).
  Tensor f = tensor_of<double>({5}, {2.7, -2.7, 0.5, -0.0, 255.9});
  Tensor i = bp::empty({5}, ScalarType::kInt32);
  i.copy_(f);
  EXPECT_THAT(values_of<int32_t>(i), ElementsAre(2, -2, 0, 0, 255));
  Tensor u = bp::empty({3}, ScalarType::kUInt8);
  u.copy_(tensor_of<int64_t>({3}, {-1, 256, 300}));  // Integers wrap.
  EXPECT_THAT(values_of<uint8_t>(u), ElementsAre(255, 0, 44));
  Tensor b = bp::empty({5}, ScalarType::kBool);
  b.copy_(tensor_of<float>({5}, {0, 0.5f, -0.0f, std::numeric_limits<float>::quiet_NaN(), -3}));
  EXPECT_THAT(values_of<bool>(b), ElementsAre(false, true, false, true, true));
  b.copy_(tensor_of<complex<double>>({5}, {{0, 0}, {0, 1}, {1, 0}, {0, -0.0}, {2, 2}}));
  EXPECT_THAT(values_of<bool>(b), ElementsAre(false, true, true, false, true));
  Tensor h = bp::empty({2}, ScalarType::kFloat16);
  h.copy_(tensor_of<float>({2}, {1e6f, 1.0009765625f}));  // Overflow to inf; round to nearest.
  EXPECT_TRUE(std::isinf(static_cast<float>(values_of<Half>(h)[0])));
  EXPECT_EQ(static_cast<float>(values_of<Half>(h)[1]), 1.0009765625f);
  Tensor c = bp::empty({2}, ScalarType::kComplex128);
  c.copy_(tensor_of<bool>({2}, {true, false}));
  EXPECT_THAT(values_of<complex<double>>(c),
              ElementsAre(complex<double>(1, 0), complex<double>(0, 0)));
}

TEST(Copy, TakesAnyStridesAndBroadcastsTheSource) {
  Tensor src = tensor_of<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor dst = bp::empty({3, 2}, ScalarType::kFloat64);
  dst.copy_(transpose(src, 0, 1));
  EXPECT_THAT(values_of<double>(dst), ElementsAre(1, 4, 2, 5, 3, 6));
  // A non-contiguous destination: every other column of a wider tensor.
  Tensor wide = zeros({2, 6}, ScalarType::kInt64);
  Tensor every_other = slice(wide, 1, 0, std::nullopt, 2);
  every_other.copy_(src);
  EXPECT_THAT(values_of<int64_t>(wide), ElementsAre(1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0));
  // Broadcasting: a row, a column, a zero-dim tensor.
  Tensor grid = bp::empty({2, 3}, ScalarType::kInt16);
  grid.copy_(tensor_of<int16_t>({3}, {7, 8, 9}));
  EXPECT_THAT(values_of<int16_t>(grid), ElementsAre(7, 8, 9, 7, 8, 9));
  grid.copy_(tensor_of<float>({2, 1}, {-1, -2}));
  EXPECT_THAT(values_of<int16_t>(grid), ElementsAre(-1, -1, -1, -2, -2, -2));
  grid.copy_(full({}, 4));
  EXPECT_THAT(values_of<int16_t>(grid), ElementsAre(4, 4, 4, 4, 4, 4));
  EXPECT_EQ(message_of([&] {
              grid.copy_(bp::empty({3, 2, 3}));
            }),
            "output with shape [2, 3] doesn't match the broadcast shape [3, 2, 3]");
  EXPECT_EQ(message_of([&] { grid.copy_(bp::empty({2})); }),
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 1");
}

TEST(Copy, BumpsTheVersionAndReturnsSelf) {
  Tensor t = zeros({3});
  Tensor v = alias(t);
  const uint32_t version = t.version();
  EXPECT_TRUE(bp::copy_(t, full({3}, 1.0)).is_same(t));
  EXPECT_EQ(v.version(), version + 1);
  t.copy_(t);  // Nothing to move, but still an in-place op.
  EXPECT_EQ(t.version(), version + 2);
}

TEST(Copy, OverlappingOperandsFollowPyTorch) {
  Tensor t = tensor_of<float>({4}, {1, 2, 3, 4});
  t.copy_(alias(t));  // The same elements: nothing to do.
  EXPECT_THAT(values_of<float>(t), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(message_of([&] { slice(t, 0, 1).copy_(slice(t, 0, 0, 3)); }),
              HasSubstr("unsupported operation: some elements of the input tensor and the "
                        "written-to tensor refer to a single memory location."));
  Tensor square = tensor_of<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_THAT(message_of([&] { square.copy_(transpose(square, 0, 1)); }),
              HasSubstr("some elements of the input tensor and the written-to tensor refer to a "
                        "single memory location"));
  Tensor one = zeros({1});
  EXPECT_EQ(message_of([&] {
              one.expand({3}).copy_(tensor_of<float>({3}, {1, 2, 3}));
            }),
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation.");
  // Disjoint parts of one storage are fine.
  slice(t, 0, 0, 2).copy_(slice(t, 0, 2, 4));
  EXPECT_THAT(values_of<float>(t), ElementsAre(3, 4, 3, 4));
}

TEST(Copy, MetaTensorsHaveNoDataToGive) {
  Tensor meta = bp::empty({2, 3}, ScalarType::kFloat32, kMeta);
  Tensor cpu = zeros({3});
  EXPECT_TRUE(meta.copy_(cpu).is_same(meta));  // Shapes are still checked.
  EXPECT_EQ(message_of([&] { meta.copy_(zeros({4})); }),
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
            "dimension 1");
  Error e = error_of([&] { cpu.copy_(bp::empty({3}, ScalarType::kFloat32, kMeta)); });
  EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  EXPECT_EQ(e.message(), "Cannot copy out of meta tensor; no data!");
}

class PluginCopies : public ::testing::Test {
 protected:
  FakeDevice dev{"copies_test_device"};
};

TEST_F(PluginCopies, MoveDataBothWaysThroughTheDeviceCopyFunctions) {
  Tensor host = tensor_of<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor on_dev = dev.empty({2, 3}, ScalarType::kFloat32);
  const uint32_t version = on_dev.version();
  EXPECT_TRUE(on_dev.copy_(host).is_same(on_dev));
  EXPECT_EQ(on_dev.version(), version + 1);
  EXPECT_THAT(FakeDevice::to_floats(on_dev), ElementsAre(1, 2, 3, 4, 5, 6));
  Tensor back = zeros({2, 3}, ScalarType::kInt32);
  back.copy_(on_dev);
  EXPECT_THAT(values_of<int32_t>(back), ElementsAre(1, 2, 3, 4, 5, 6));
  Tensor other = dev.empty({3, 2}, ScalarType::kFloat32);
  other.copy_(transpose(on_dev, 0, 1));  // Within the device, re-strided.
  EXPECT_THAT(FakeDevice::to_floats(other), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST_F(PluginCopies, ConvertBroadcastAndKeepTheUntouchedElements) {
  Tensor on_dev = dev.from_floats({2, 4}, {0, 0, 0, 0, 0, 0, 0, 0});
  // Every other column, from an int64 row broadcast over both rows.
  slice(on_dev, 1, 1, std::nullopt, 2).copy_(tensor_of<int64_t>({2}, {7, 9}));
  EXPECT_THAT(FakeDevice::to_floats(on_dev), ElementsAre(0, 7, 0, 9, 0, 7, 0, 9));
  Tensor doubles = bp::empty({2, 2}, ScalarType::kFloat64);
  doubles.copy_(slice(on_dev, 1, 2));
  EXPECT_THAT(values_of<double>(doubles), ElementsAre(0, 9, 0, 9));
  Tensor flat = on_dev.view({8});
  EXPECT_THAT(message_of([&] { slice(flat, 0, 1).copy_(slice(flat, 0, 0, 7)); }),
              HasSubstr("some elements of the input tensor and the written-to tensor refer to a "
                        "single memory location"));
  Tensor meta = bp::empty({2, 4}, ScalarType::kFloat32, kMeta);
  EXPECT_TRUE(meta.copy_(on_dev).is_same(meta));
  EXPECT_EQ(message_of([&] { on_dev.copy_(meta); }), "Cannot copy out of meta tensor; no data!");
}

TEST_F(PluginCopies, GoBetweenTwoPluginDevicesThroughTheHost) {
  FakeDevice other("copies_test_other_device");
  Tensor src = dev.from_floats({2, 2}, {1, 2, 3, 4});
  Tensor same_layout = other.empty({2, 2}, ScalarType::kFloat32);
  same_layout.copy_(src);
  EXPECT_THAT(FakeDevice::to_floats(same_layout), ElementsAre(1, 2, 3, 4));
  Tensor converted = bp::empty({2, 2}, ScalarType::kInt8).to(other.device(), ScalarType::kInt8);
  converted.copy_(transpose(src, 0, 1));
  EXPECT_EQ(converted.device(), other.device());
  EXPECT_THAT(values_of<int8_t>(converted), ElementsAre(1, 3, 2, 4));
}

TEST(Clone, CopiesIntoTheRequestedLayout) {
  Tensor base = tensor_of<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor tr = transpose(base, 0, 1);
  Tensor kept = clone(tr);
  EXPECT_FALSE(kept.is_alias_of(base));
  EXPECT_EQ(strides_of(kept), (Sizes{1, 3}));  // Dense: the same strides.
  EXPECT_THAT(values_of<int32_t>(kept), ElementsAre(1, 4, 2, 5, 3, 6));
  Tensor gappy = slice(tr, 0, 0, std::nullopt, 2);  // sizes [2, 2], strides [2, 3]
  EXPECT_EQ(strides_of(clone(gappy)), (Sizes{1, 2}));
  EXPECT_THAT(values_of<int32_t>(clone(gappy)), ElementsAre(1, 4, 3, 6));
  EXPECT_EQ(strides_of(clone(tr, MemoryFormat::kContiguous)), (Sizes{2, 1}));
  Tensor image = bp::empty({2, 3, 4, 5});
  EXPECT_EQ(strides_of(image.clone(MemoryFormat::kChannelsLast)), (Sizes{60, 1, 15, 3}));
  // A clone has its own version counter.
  Tensor c = clone(base);
  const uint32_t version = base.version();
  c.fill_(0);
  EXPECT_EQ(base.version(), version);
}

TEST(Clone, WorksOnMetaAndPluginTensors) {
  FakeDevice dev("clone_test_device");
  Tensor on_dev = transpose(dev.from_floats({2, 3}, {1, 2, 3, 4, 5, 6}), 0, 1);
  Tensor c = clone(on_dev, MemoryFormat::kContiguous);
  EXPECT_EQ(c.device(), dev.device());
  EXPECT_THAT(FakeDevice::to_floats(c), ElementsAre(1, 4, 2, 5, 3, 6));
  Tensor meta = transpose(bp::empty({2, 3}, ScalarType::kFloat32, kMeta), 0, 1);
  EXPECT_EQ(strides_of(clone(meta)), (Sizes{1, 3}));
  EXPECT_EQ(clone(meta).device(), kMeta);
}

TEST(Contiguous, ReturnsSelfWhenAlreadyInTheFormat) {
  Tensor t = tensor_of<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_TRUE(t.contiguous().is_same(t));
  Tensor tr = transpose(t, 0, 1);
  Tensor c = tr.contiguous();
  EXPECT_FALSE(c.is_alias_of(t));
  EXPECT_EQ(strides_of(c), (Sizes{2, 1}));
  EXPECT_THAT(values_of<float>(c), ElementsAre(1, 3, 2, 4));
  Tensor nhwc = bp::empty({1, 2, 2, 3}, std::nullopt, std::nullopt, MemoryFormat::kChannelsLast);
  EXPECT_TRUE(nhwc.contiguous(MemoryFormat::kChannelsLast).is_same(nhwc));
  EXPECT_EQ(strides_of(nhwc.contiguous()), (Sizes{12, 6, 3, 1}));
  EXPECT_EQ(message_of([&] { tr.contiguous(MemoryFormat::kPreserve); }),
            "preserve memory format is unsupported by the contiguous operator");
}

TEST(To, ReturnsSelfWhenNothingChanges) {
  Tensor t = tensor_of<float>({2}, {1.5f, -2.5f});
  EXPECT_TRUE(t.to(ScalarType::kFloat32).is_same(t));
  EXPECT_TRUE(t.to(kCpu, ScalarType::kFloat32).is_same(t));
  EXPECT_TRUE(t.to(zeros({5})).is_same(t));
  EXPECT_TRUE(t.to(ScalarType::kFloat32, false, false, MemoryFormat::kContiguous).is_same(t));
  Tensor copied = t.to(ScalarType::kFloat32, /*non_blocking=*/false, /*copy=*/true);
  EXPECT_FALSE(copied.is_alias_of(t));
  EXPECT_THAT(values_of<float>(copied), ElementsAre(1.5f, -2.5f));
}

TEST(To, ConvertsDtypeDeviceAndLayout) {
  FakeDevice dev("to_test_device");
  Tensor t = tensor_of<float>({2, 2}, {1.5f, -2.5f, 3, 4});
  Tensor i = t.to(ScalarType::kInt64);
  EXPECT_THAT(values_of<int64_t>(i), ElementsAre(1, -2, 3, 4));
  Tensor on_dev = t.to(dev.device(), ScalarType::kFloat32);
  EXPECT_EQ(on_dev.device(), dev.device());
  EXPECT_THAT(FakeDevice::to_floats(on_dev), ElementsAre(1.5f, -2.5f, 3, 4));
  EXPECT_TRUE(on_dev.to(dev.device(), ScalarType::kFloat32).is_same(on_dev));
  EXPECT_TRUE(on_dev.to(Device(dev.type()), ScalarType::kFloat32).is_same(on_dev));
  Tensor back = on_dev.to(i);  // Like i: CPU, int64.
  EXPECT_EQ(back.device(), kCpu);
  EXPECT_THAT(values_of<int64_t>(back), ElementsAre(1, -2, 3, 4));
  Tensor meta = t.to(kMeta, ScalarType::kFloat16);
  EXPECT_EQ(meta.device(), kMeta);
  EXPECT_EQ(meta.dtype(), ScalarType::kFloat16);
  Tensor tr = transpose(t, 0, 1);
  EXPECT_EQ(strides_of(tr.to(ScalarType::kFloat64)), (Sizes{1, 2}));  // Layout preserved.
  EXPECT_EQ(strides_of(tr.to(ScalarType::kFloat64, false, false, MemoryFormat::kContiguous)),
            (Sizes{2, 1}));
  // PyTorch compares the format with the one the strides suggest, which for 2-d tensors is always
  // contiguous: a transposed matrix is returned as it is.
  EXPECT_TRUE(tr.to(ScalarType::kFloat32, false, false, MemoryFormat::kContiguous).is_same(tr));
  Tensor copy = _to_copy(tr, ScalarType::kInt8, dev.device(), false, MemoryFormat::kContiguous);
  EXPECT_EQ(copy.device(), dev.device());
  EXPECT_EQ(copy.dtype(), ScalarType::kInt8);
  EXPECT_THAT(values_of<int8_t>(copy), ElementsAre(1, 3, -2, 4));
}

}  // namespace
}  // namespace bp
