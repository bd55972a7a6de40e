// Factories, fills and resizing: values for every dtype, dtype inference, layouts of the *_like
// factories, out= variants, arange's lengths and errors, and the same metadata on Meta.
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/cpu_fallback.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"
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

// Every element of `t` converted to double (real part), row-major.
std::vector<double> as_doubles(const Tensor& t) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<double> out;
    for (const T& v : values_of<T>(t)) out.push_back(element_cast<double>(v));
    return out;
  });
}

TEST(Empty, TakesDtypeDeviceAndMemoryFormat) {
  Tensor e = bp::empty({2, 3, 4, 5}, std::nullopt, std::nullopt, MemoryFormat::kChannelsLast);
  EXPECT_EQ(e.dtype(), ScalarType::kFloat32);
  EXPECT_EQ(e.device(), kCpu);
  EXPECT_EQ(strides_of(e), (Sizes{60, 1, 15, 3}));
  Tensor s = empty_strided({2, 3}, {1, 2}, ScalarType::kInt16, kMeta);
  EXPECT_EQ(strides_of(s), (Sizes{1, 2}));
  EXPECT_EQ(s.device(), kMeta);
  EXPECT_EQ(message_of([] {
              bp::empty({2, -1});
            }),
            "Trying to create tensor with negative dimension -1: [2, -1]");
}

TEST(Empty, OutResizesTheGivenTensor) {
  Tensor out = bp::empty({5}, ScalarType::kInt32);
  EXPECT_TRUE(empty_out(out, {2, 3}).is_same(out));
  EXPECT_EQ(sizes_of(out), (Sizes{2, 3}));
  EXPECT_EQ(out.dtype(), ScalarType::kInt32);
  EXPECT_EQ(message_of([&] { empty_out(out, {2}, MemoryFormat::kContiguous); }),
            "'memory_format' argument is incompatible with 'out' tensor argument");
  EXPECT_EQ(message_of([&] { empty_out(out, {-2}); }),
            "Trying to create tensor with negative dimension -2: [-2]");
}

TEST(EmptyLike, PreservesTheLayoutUnlessAskedOtherwise) {
  Tensor base = bp::empty({4, 6}, ScalarType::kFloat64);
  // Dense layouts are copied stride for stride.
  Tensor transposed = transpose(base, 0, 1);
  EXPECT_EQ(strides_of(empty_like(transposed)), (Sizes{1, 6}));
  // Gaps are closed, keeping the dim order.
  Tensor gappy = slice(transposed, 1, 0, std::nullopt, 2);  // sizes [6, 2], strides [1, 12]
  EXPECT_EQ(strides_of(empty_like(gappy)), (Sizes{1, 6}));
  // Expanded dims keep their row-major place.
  EXPECT_EQ(strides_of(empty_like(select(base, 0, 0).expand({3, 6}))), (Sizes{6, 1}));
  EXPECT_EQ(
      strides_of(empty_like(transposed, std::nullopt, std::nullopt, MemoryFormat::kContiguous)),
      (Sizes{4, 1}));
  Tensor nchw = bp::empty({2, 3, 4, 5});
  EXPECT_EQ(strides_of(empty_like(nchw, std::nullopt, std::nullopt, MemoryFormat::kChannelsLast)),
            (Sizes{60, 1, 15, 3}));
  Tensor like = empty_like(base, ScalarType::kInt8, kMeta);
  EXPECT_EQ(like.dtype(), ScalarType::kInt8);
  EXPECT_EQ(like.device(), kMeta);
  EXPECT_FALSE(empty_like(base).is_alias_of(base));
  EXPECT_EQ(message_of(
                [&] { empty_like(base, std::nullopt, std::nullopt, MemoryFormat::kChannelsLast); }),
            "required rank 4 tensor to use channels_last format");
}

TEST(Factories, FillEveryDtype) {
  for (ScalarType dtype : kAllDtypes) {
    SCOPED_TRACE(scalar_type_name(dtype));
    EXPECT_THAT(as_doubles(zeros({2, 2}, dtype)), ElementsAre(0, 0, 0, 0));
    EXPECT_THAT(as_doubles(ones({3}, dtype)), ElementsAre(1, 1, 1));
    EXPECT_THAT(as_doubles(full({2}, 1, dtype)), ElementsAre(1, 1));
    Tensor base = bp::empty({2, 1}, dtype);
    EXPECT_THAT(as_doubles(zeros_like(base)), ElementsAre(0, 0));
    EXPECT_THAT(as_doubles(ones_like(base)), ElementsAre(1, 1));
    EXPECT_THAT(as_doubles(full_like(base, true)), ElementsAre(1, 1));
    EXPECT_EQ(zeros({1}, dtype).dtype(), dtype);
  }
  EXPECT_THAT(values_of<float>(full({3}, 2.5)), ElementsAre(2.5f, 2.5f, 2.5f));
  EXPECT_THAT(values_of<int8_t>(full({2}, -7, ScalarType::kInt8)), ElementsAre(-7, -7));
  EXPECT_THAT(
      values_of<complex<double>>(full({1}, complex<double>(1, -2), ScalarType::kComplex128)),
      ElementsAre(complex<double>(1, -2)));
}

TEST(Factories, DefaultDtypes) {
  EXPECT_EQ(zeros({1}).dtype(), ScalarType::kFloat32);
  EXPECT_EQ(ones({1}).dtype(), ScalarType::kFloat32);
  // full takes the fill value's kind.
  EXPECT_EQ(full({1}, true).dtype(), ScalarType::kBool);
  EXPECT_EQ(full({1}, 3).dtype(), ScalarType::kInt64);
  EXPECT_EQ(full({1}, 3.0).dtype(), ScalarType::kFloat32);
  EXPECT_EQ(full({1}, complex<double>(0, 1)).dtype(), ScalarType::kComplex64);
  // The *_like factories take self's dtype, or the one given.
  Tensor h = bp::empty({2}, ScalarType::kFloat16);
  EXPECT_EQ(zeros_like(h).dtype(), ScalarType::kFloat16);
  EXPECT_EQ(full_like(h, 7, ScalarType::kInt32).dtype(), ScalarType::kInt32);
  EXPECT_THAT(values_of<int32_t>(full_like(h, 7, ScalarType::kInt32)), ElementsAre(7, 7));
}

TEST(Factories, OutVariantsResizeAndFill) {
  Tensor out = bp::empty({7}, ScalarType::kInt16);
  EXPECT_TRUE(zeros_out(out, {2, 2}).is_same(out));
  EXPECT_THAT(values_of<int16_t>(out), ElementsAre(0, 0, 0, 0));
  ones_out(out, {3});
  EXPECT_THAT(values_of<int16_t>(out), ElementsAre(1, 1, 1));
  full_out(out, {1, 2}, 9);
  EXPECT_EQ(sizes_of(out), (Sizes{1, 2}));
  EXPECT_THAT(values_of<int16_t>(out), ElementsAre(9, 9));
  EXPECT_EQ(out.dtype(), ScalarType::kInt16);  // out keeps its dtype.
}

TEST(Factories, FillValuesMustFitTheDtype) {
  EXPECT_EQ(message_of([] { full({2}, 300, ScalarType::kUInt8); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(message_of([] { full({2}, 1e5, ScalarType::kFloat16); }),
            "value cannot be converted to type at::Half without overflow");
}

TEST(Fill, ScalarOverloadWritesEveryElementOfAnyLayout) {
  Tensor t = zeros({3, 4}, ScalarType::kInt32);
  Tensor column = select(t, 1, 2);
  const uint32_t version = t.version();
  EXPECT_TRUE(fill_(column, 5).is_same(column));
  EXPECT_THAT(values_of<int32_t>(t), ElementsAre(0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5, 0));
  EXPECT_EQ(t.version(), version + 1);
  // Filling an expanded tensor writes each memory location once more: allowed.
  Tensor one = zeros({1}, ScalarType::kFloat64);
  Tensor expanded = one.expand({4});
  expanded.fill_(2.5);
  EXPECT_THAT(values_of<double>(one), ElementsAre(2.5));
  Tensor flags = zeros({2}, ScalarType::kBool);
  flags.fill_(-3);  // Anything non-zero is true.
  EXPECT_THAT(values_of<bool>(flags), ElementsAre(true, true));
  Tensor c = zeros({1}, ScalarType::kComplex64);
  c.fill_(complex<double>(1.5, -1));
  EXPECT_THAT(values_of<complex<float>>(c), ElementsAre(complex<float>(1.5f, -1)));
  EXPECT_EQ(message_of([&] { zeros({1}, ScalarType::kInt8).fill_(128); }),
            "value cannot be converted to type int8_t without overflow");
}

TEST(Fill, TensorOverloadTakesAZeroDimValue) {
  Tensor t = zeros({2, 2}, ScalarType::kFloat32);
  Tensor value = full({}, 3, ScalarType::kInt64);
  EXPECT_TRUE(fill_(t, value).is_same(t));
  EXPECT_THAT(values_of<float>(t), ElementsAre(3, 3, 3, 3));
  // A value inside self is read before anything is written.
  Tensor v = tensor_of<int64_t>({3}, {4, 5, 6});
  Tensor inside = select(v, 0, 1);
  v.fill_(inside);
  EXPECT_THAT(values_of<int64_t>(v), ElementsAre(5, 5, 5));
  // A value on another device is read as a number.
  Tensor meta = bp::empty({2}, ScalarType::kFloat32, kMeta);
  EXPECT_TRUE(meta.fill_(value).is_same(meta));
  EXPECT_EQ(message_of([&] { t.fill_(bp::empty({1}, ScalarType::kFloat32)); }),
            "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  Error e = error_of([&] { t.fill_(bp::empty({}, ScalarType::kFloat32, kMeta)); });
  EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  EXPECT_EQ(e.message(), "Cannot copy out of meta tensor; no data!");
}

// torch.zeros(2).fill_(torch.tensor(1+2j)) raises "value cannot be converted to type float
// without overflow" (1.13 fills with value.item()): the message fill_.Scalar gives for the same
// number. A zero imaginary part fills the real part.
TEST(Fill, TensorOverloadConvertsAComplexValueForARealTensorAsTheScalarOneDoes) {
  const complex<double> z(1.5, 2);
  const Tensor value = full({}, z, ScalarType::kComplex64);
  for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kFloat16,
                           ScalarType::kInt32, ScalarType::kUInt8}) {
    SCOPED_TRACE(scalar_type_name(dtype));
    Tensor t = zeros({2}, dtype);
    const std::string scalar_message = message_of([&] { t.fill_(Scalar(z)); });
    EXPECT_EQ(message_of([&] { t.fill_(value); }), scalar_message);
    EXPECT_THAT(as_doubles(t), ElementsAre(0, 0));  // unchanged
  }
  Tensor t = zeros({2}, ScalarType::kFloat32);
  EXPECT_EQ(message_of([&] { t.fill_(value); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(message_of([&] { zeros({1}, ScalarType::kFloat64).fill_(value); }),
            "value cannot be converted to type double without overflow");
  t.fill_(full({}, complex<double>(-3, 0), ScalarType::kComplex128));
  EXPECT_THAT(values_of<float>(t), ElementsAre(-3, -3));
  // Into a complex tensor the value is copied as it is.
  Tensor c = zeros({2}, ScalarType::kComplex128);
  c.fill_(value);
  EXPECT_THAT(values_of<complex<double>>(c), ElementsAre(z, z));
}

TEST(Fill, ZeroWritesZeros) {
  Tensor t = full({2, 3}, 4, ScalarType::kFloat64);
  Tensor row = select(t, 0, 1);
  EXPECT_TRUE(zero_(row).is_same(row));
  EXPECT_THAT(values_of<double>(t), ElementsAre(4, 4, 4, 0, 0, 0));
  t.zero_();
  EXPECT_THAT(values_of<double>(t), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(Arange, InfersInt64FromIntegersAndTheDefaultDtypeOtherwise) {
  EXPECT_EQ(arange(5).dtype(), ScalarType::kInt64);
  EXPECT_THAT(values_of<int64_t>(arange(5)), ElementsAre(0, 1, 2, 3, 4));
  EXPECT_EQ(arange(true, 3).dtype(), ScalarType::kInt64);  // Bools count as integers.
  EXPECT_EQ(arange(0, 5, 0.5).dtype(), ScalarType::kFloat32);
  EXPECT_EQ(arange(2.0).dtype(), ScalarType::kFloat32);
  EXPECT_EQ(arange(0, 3, 1, ScalarType::kFloat64).dtype(), ScalarType::kFloat64);
  EXPECT_THAT(values_of<float>(arange(1, 2.5, 0.5)), ElementsAre(1, 1.5, 2));
  EXPECT_THAT(values_of<int64_t>(arange(10, 0, -3)), ElementsAre(10, 7, 4, 1));
  EXPECT_THAT(values_of<double>(arange(-1, 1, 0.5, ScalarType::kFloat64)),
              ElementsAre(-1, -0.5, 0, 0.5));
}

TEST(Arange, LengthIsTheCeilingOfTheSteps) {
  EXPECT_EQ(arange(0, 10, 3).numel(), 4);
  EXPECT_EQ(arange(0, 9, 3).numel(), 3);
  EXPECT_EQ(arange(0, -10, -3).numel(), 4);
  EXPECT_EQ(arange(3, 3).numel(), 0);
  EXPECT_EQ(arange(0, 1, 0.1).numel(), 10);
  EXPECT_EQ(arange(0, 1, 0.3).numel(), 4);
  // int64 lengths are exact beyond double's precision.
  const int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_EQ(arange(big - 2, big, 1, ScalarType::kInt64, kMeta).numel(), 2);
}

TEST(Arange, ComputesEveryNumericDtype) {
  for (ScalarType dtype : kAllDtypes) {
    if (dtype == ScalarType::kBool) continue;
    SCOPED_TRACE(scalar_type_name(dtype));
    Tensor r = arange(2, 12, 3, dtype);
    EXPECT_EQ(r.dtype(), dtype);
    EXPECT_THAT(as_doubles(r), ElementsAre(2, 5, 8, 11));
  }
  // Values are computed in int64 for integers: a fractional start or step truncates first.
  EXPECT_THAT(values_of<int32_t>(arange(0.5, 5, 1.5, ScalarType::kInt32)), ElementsAre(0, 1, 2));
  EXPECT_THAT(values_of<complex<float>>(arange(0, 2, 0.5, ScalarType::kComplex64)),
              ElementsAre(complex<float>(0), complex<float>(0.5f), complex<float>(1),
                          complex<float>(1.5f)));
  Error e = error_of([] { arange(0, 2, 1, ScalarType::kBool); });
  EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  EXPECT_EQ(e.message(), "\"arange\" not implemented for 'bool'");
}

TEST(Arange, ReportsPyTorchsErrors) {
  EXPECT_EQ(message_of([] { arange(0, 5, 0); }), "step must be nonzero");
  EXPECT_EQ(message_of([] { arange(0, 5, -1); }),
            "upper bound and lower bound inconsistent with step sign");
  EXPECT_EQ(message_of([] { arange(5, 0); }),
            "upper bound and lower bound inconsistent with step sign");
  EXPECT_EQ(message_of([] { arange(0, std::numeric_limits<double>::infinity()); }),
            "unsupported range: 0 -> inf");
  EXPECT_EQ(message_of([] { arange(std::numeric_limits<double>::quiet_NaN(), 1); }),
            "unsupported range: nan -> 1");
  EXPECT_EQ(message_of([] { arange(0, 1e30, 1e-30); }), "invalid size, possible overflow?");
}

// Integral dtypes convert start, end and step to int64 before anything else, as PyTorch's
// arange_out (values from torch 1.13): int64 ranges are then measured in int64, the other integral
// dtypes from the numbers as given; floating dtypes are unaffected.
TEST(Arange, IntegralDtypesConvertStartEndAndStepToInt64First) {
  // torch.arange(0, 4.5, dtype=torch.int64) is [0, 1, 2, 3]; int32 gives [0, 1, 2, 3, 4].
  EXPECT_THAT(values_of<int64_t>(arange(0, 4.5, 1, ScalarType::kInt64)), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(values_of<int32_t>(arange(0, 4.5, 1, ScalarType::kInt32)),
              ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(values_of<float>(arange(0, 4.5, 1, ScalarType::kFloat32)),
              ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(values_of<int16_t>(arange(3.9, 0, -1.5, ScalarType::kInt16)), ElementsAre(3, 2, 1));
  // A step that truncates to 0, for every integral dtype; floating dtypes take it as it is.
  for (ScalarType dtype : {ScalarType::kUInt8, ScalarType::kInt8, ScalarType::kInt16,
                           ScalarType::kInt32, ScalarType::kInt64}) {
    SCOPED_TRACE(scalar_type_name(dtype));
    EXPECT_EQ(message_of([&] { arange(1, 2, 0.25, dtype); }), "step must be nonzero");
    EXPECT_EQ(message_of([&] { arange(0, std::numeric_limits<double>::infinity(), 1, dtype); }),
              "value cannot be converted to type int64_t without overflow");
    Tensor out = bp::empty({0}, dtype);
    EXPECT_EQ(message_of([&] { arange_out(out, 0.5, 2, 0.5); }), "step must be nonzero");
  }
  EXPECT_THAT(values_of<float>(arange(1, 2, 0.25, ScalarType::kFloat32)),
              ElementsAre(1, 1.25, 1.5, 1.75));
  // -0.5 to 0.5 by -1: 0 to 0 in int64 (empty); int32 measures -1 steps.
  EXPECT_EQ(arange(-0.5, 0.5, -1, ScalarType::kInt64).numel(), 0);
  EXPECT_EQ(message_of([] { arange(-0.5, 0.5, -1, ScalarType::kInt32); }),
            "invalid size, possible overflow?");
  // arange(3.5, out=): 3 elements into int64 (the 2x2 out is resized), 4 into int32.
  WarningCapture capture;
  Tensor int64_out = bp::empty({2, 2}, ScalarType::kInt64);
  arange_out(int64_out, 3.5);
  EXPECT_EQ(sizes_of(int64_out), (Sizes{3}));
  EXPECT_THAT(values_of<int64_t>(int64_out), ElementsAre(0, 1, 2));
  Tensor int32_out = bp::empty({2, 2}, ScalarType::kInt32);
  arange_out(int32_out, 3.5);
  EXPECT_EQ(sizes_of(int32_out), (Sizes{2, 2}));
  EXPECT_THAT(values_of<int32_t>(int32_out), ElementsAre(0, 1, 2, 3));
}

TEST(Arange, ComplexBoundsStepBothParts) {
  Tensor r = arange(complex<double>(0, 0), complex<double>(2, 4), complex<double>(1, 2),
                    ScalarType::kComplex64);
  EXPECT_THAT(values_of<complex<float>>(r),
              ElementsAre(complex<float>(0, 0), complex<float>(1, 2)));
  EXPECT_EQ(message_of([] {
              arange(complex<double>(0, 0), complex<double>(2, 1), complex<double>(1, 0),
                     ScalarType::kComplex64);
            }),
            "step imaginary part is zero but range is nonzero");
  EXPECT_EQ(message_of([] {
              arange(complex<double>(0, 0), complex<double>(2, 6), complex<double>(1, 1),
                     ScalarType::kComplex64);
            }),
            "cannot perform step due to incorrect upper and lower bounds");
  EXPECT_EQ(message_of([] {
              arange(complex<double>(0, 0), complex<double>(-2, 0), complex<double>(1, 0),
                     ScalarType::kComplex64);
            }),
            "upper bound and lower bound inconsistent with step sign for real part");
}

TEST(Arange, OutIsResizedWithAWarningWhenItHadOtherElements) {
  Tensor out = bp::empty({0}, ScalarType::kInt32);
  {
    WarningCapture capture;
    arange_out(out, 4);
    EXPECT_TRUE(capture.messages().empty());
  }
  EXPECT_THAT(values_of<int32_t>(out), ElementsAre(0, 1, 2, 3));
  WarningCapture capture;
  arange_out(out, 1, 3);
  EXPECT_THAT(values_of<int32_t>(out), ElementsAre(1, 2));
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_EQ(capture.messages()[0],
            "The number of elements in the out tensor of shape [4] is 4 which does not match the "
            "computed number of elements 2. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (2,).");
  // The same number of elements: out keeps its shape, even a non-contiguous one.
  Tensor grid = transpose(bp::empty({3, 2}, ScalarType::kFloat64), 0, 1);
  arange_out(grid, 0, 6);
  EXPECT_EQ(sizes_of(grid), (Sizes{2, 3}));
  EXPECT_THAT(values_of<double>(grid), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(Resize, GrowsTheStorageAndKeepsTheElements) {
  Tensor t = tensor_of<int32_t>({2, 2}, {1, 2, 3, 4});
  const uint32_t version = t.version();
  EXPECT_TRUE(t.resize_({3}).is_same(t));
  EXPECT_THAT(values_of<int32_t>(t), ElementsAre(1, 2, 3));
  t.resize_({2, 3});
  EXPECT_EQ(strides_of(t), (Sizes{3, 1}));
  EXPECT_EQ(t.storage().nbytes(), 6 * sizeof(int32_t));
  EXPECT_THAT(values_of<int32_t>(slice(t.view({6}), 0, 0, 4)), ElementsAre(1, 2, 3, 4));
  EXPECT_EQ(t.version(), version);  // No element was written.
  EXPECT_EQ(message_of([&] {
              t.resize_({-1, 2});
            }),
            "Trying to create tensor with negative dimension -1: [-1, 2]");
}

TEST(Resize, KeepsStridesForTheSameSizesUnlessAFormatIsGiven) {
  Tensor t = transpose(bp::empty({3, 2}), 0, 1);
  t.resize_({2, 3});
  EXPECT_EQ(strides_of(t), (Sizes{1, 2}));
  t.resize_({2, 3}, MemoryFormat::kContiguous);
  EXPECT_EQ(strides_of(t), (Sizes{3, 1}));
  Tensor image = bp::empty({0});
  image.resize_({2, 3, 4, 5}, MemoryFormat::kChannelsLast);
  EXPECT_EQ(strides_of(image), (Sizes{60, 1, 15, 3}));
  EXPECT_EQ(message_of([&] {
              t.resize_({2, 3}, MemoryFormat::kPreserve);
            }),
            "Unsupported memory formatPreserve");
  EXPECT_EQ(message_of([&] {
              t.resize_({2, 3}, MemoryFormat::kChannelsLast);
            }),
            "required rank 4 tensor to use channels_last format");
}

TEST(Resize, AsTemplateTakesItsSizesAndOptionallyItsLayout) {
  Tensor t = bp::empty({1});
  Tensor nhwc = bp::empty({2, 3, 4, 5}, std::nullopt, std::nullopt, MemoryFormat::kChannelsLast);
  EXPECT_TRUE(resize_as_(t, nhwc).is_same(t));
  EXPECT_EQ(sizes_of(t), (Sizes{2, 3, 4, 5}));
  EXPECT_EQ(strides_of(t), (Sizes{60, 20, 5, 1}));
  t.resize_as_(nhwc, MemoryFormat::kPreserve);
  EXPECT_EQ(strides_of(t), (Sizes{60, 1, 15, 3}));
  t.resize_as_(nhwc, MemoryFormat::kContiguous);
  EXPECT_EQ(strides_of(t), (Sizes{60, 20, 5, 1}));
}

// Every factory and fill on Meta gives the CPU's sizes, strides and dtype, without data.
TEST(Factories, MetaResultsMatchTheCpusMetadata) {
  auto cases = [](Device d) {
    Tensor base = transpose(bp::empty({3, 2}, ScalarType::kInt16, d), 0, 1);
    Tensor out = bp::empty({5}, ScalarType::kFloat64, d);
    arange_out(out, 0, 3);
    Tensor filled = bp::empty({2}, ScalarType::kInt8, d);
    filled.fill_(4).zero_().fill_(full({}, 2, std::nullopt, d));
    Tensor resized = bp::empty({1}, ScalarType::kInt32, d);
    resized.resize_({2, 3, 4, 5}, MemoryFormat::kChannelsLast);
    return std::vector<Tensor>{
        bp::empty({2, 3}, ScalarType::kInt32, d),
        empty_strided({2, 3}, {1, 2}, std::nullopt, d),
        empty_like(base),
        zeros({2, 3}, std::nullopt, d),
        ones({4}, ScalarType::kBool, d),
        full({2}, 3, std::nullopt, d),
        zeros_like(base),
        ones_like(base, ScalarType::kFloat16),
        full_like(base, 2.5, ScalarType::kFloat64, std::nullopt, MemoryFormat::kContiguous),
        arange(0, 5, 2, std::nullopt, d),
        arange(4.5, std::nullopt, d),
        out,
        filled,
        resized,
        linspace(0, 1, 7, ScalarType::kFloat16, d),
        logspace(0, 1, 0, 2.0, std::nullopt, d),
        eye(3, 5, ScalarType::kBool, d),
        tril(base, 1),
        triu(bp::empty({2, 3, 4}, ScalarType::kComplex64, d), -1)};
  };
  const std::vector<Tensor> cpu = cases(kCpu);
  const std::vector<Tensor> meta = cases(kMeta);
  for (size_t i = 0; i < cpu.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(meta[i].device(), kMeta);
    EXPECT_EQ(meta[i].data_ptr(), nullptr);
    EXPECT_EQ(sizes_of(meta[i]), sizes_of(cpu[i]));
    EXPECT_EQ(strides_of(meta[i]), strides_of(cpu[i]));
    EXPECT_EQ(meta[i].dtype(), cpu[i].dtype());
  }
}

// A plugin with only an allocator and copy functions gets the factories through the composites;
// the element writes (fill_) reach it through its CPU fallback.
TEST(Factories, WorkOnAPluginDeviceWithACpuFallback) {
  FakeDevice dev("factories_test_device");
  Library lib("_");
  lib.fallback(dev.key(), KernelFunction::make_from_boxed(&cpu_fallback), "cpu_fallback");
  Tensor z = zeros({2, 2}, ScalarType::kFloat32, dev.device());
  EXPECT_EQ(z.device(), dev.device());
  EXPECT_THAT(FakeDevice::to_floats(z), ElementsAre(0, 0, 0, 0));
  Tensor f = full_like(z, 1.5);
  EXPECT_EQ(f.device(), dev.device());
  EXPECT_THAT(FakeDevice::to_floats(f), ElementsAre(1.5, 1.5, 1.5, 1.5));
  Tensor r = arange(0, 4, 1, ScalarType::kFloat32, dev.device());
  EXPECT_THAT(FakeDevice::to_floats(r), ElementsAre(0, 1, 2, 3));
  // eye, tril and triu are composites of ops the device has (or its fallback runs).
  EXPECT_THAT(FakeDevice::to_floats(eye(2, 3, ScalarType::kFloat32, dev.device())),
              ElementsAre(1, 0, 0, 0, 1, 0));
  Tensor t = full({2, 2}, 2.0, ScalarType::kFloat32, dev.device());
  EXPECT_THAT(FakeDevice::to_floats(tril(t)), ElementsAre(2, 0, 2, 2));
  EXPECT_THAT(FakeDevice::to_floats(triu(t, 1)), ElementsAre(0, 2, 0, 0));
  EXPECT_THAT(FakeDevice::to_floats(linspace(0, 3, 4, ScalarType::kFloat32, dev.device())),
              ElementsAre(0, 1, 2, 3));
}

// linspace counts the first half up from start and the second half down from end, each in the
// dtype's own arithmetic: float16 rounds the step (0.1 / 3 = 0.033325195) and every product.
TEST(Linspace, ComputesTheTwoSidedFormulaInTheDtype) {
  const Tensor h = linspace(0, 0.1, 4, ScalarType::kFloat16);
  const Half start(0.0f), end(0.1f);
  const Half step = (end - start) / Half(3.0f);
  EXPECT_THAT(as_doubles(h),
              ElementsAre(0.0, static_cast<float>(start + step * Half(1.0f)),
                          static_cast<float>(end - step * Half(1.0f)), static_cast<float>(end)));
  // Integers: a double step, truncated: 10 / 3 = 3.33 gives 0, 3, then 10 - 3.33 = 6.67 -> 6, 10.
  EXPECT_THAT(as_doubles(linspace(0, 10, 4, ScalarType::kInt32)), ElementsAre(0, 3, 6, 10));
  EXPECT_THAT(as_doubles(linspace(5, -5, 1, ScalarType::kInt64)), ElementsAre(5));
  EXPECT_EQ(linspace(0, 1, 0).numel(), 0);
  EXPECT_EQ(linspace(0, 1, 3).dtype(), ScalarType::kFloat32);
  EXPECT_EQ(linspace(Scalar(complex<double>(0, 1)), 1, 3).dtype(), ScalarType::kComplex64);
}

TEST(Linspace, ReportsPyTorchsErrors) {
  EXPECT_EQ(message_of([] { linspace(0, 1, -1); }), "number of steps must be non-negative");
  EXPECT_THAT(message_of([] { linspace(0, 1, 3, ScalarType::kBool); }),
              HasSubstr("\"linspace_cpu\" not implemented for 'bool'"));
  EXPECT_THAT(message_of([] { linspace(0, 1000, 3, ScalarType::kInt8); }),
              HasSubstr("value cannot be converted to type int8_t without overflow"));
  EXPECT_THAT(
      message_of([] { linspace(Scalar(complex<double>(0, 1)), 1, 3, ScalarType::kFloat32); }),
      HasSubstr("torch.linspace(): inferred dtype complex64 can't be safely cast to passed dtype "
                "float32"));
  EXPECT_THAT(message_of([] { logspace(0, 1, 3, 10.0, ScalarType::kFloat16); }),
              HasSubstr("\"logspace_cpu\" not implemented for 'float16'"));
  // One step is a fill: bool is fine.
  EXPECT_THAT(as_doubles(linspace(1, 0, 1, ScalarType::kBool)), ElementsAre(1));
}

TEST(Linspace, OutIsResizedAndANonContiguousOutIsWrittenThroughACopy) {
  Tensor base = bp::empty({5, 2}, ScalarType::kFloat64);
  Tensor column = base.select(1, 0);
  linspace_out(column, 1, 5, 5);
  EXPECT_THAT(as_doubles(column), ElementsAre(1, 2, 3, 4, 5));
  EXPECT_EQ(strides_of(column), (Sizes{2}));
  Tensor small = bp::empty({2, 2}, ScalarType::kFloat32);
  logspace_out(small, 0, 2, 3, 10.0);
  EXPECT_EQ(sizes_of(small), (Sizes{3}));
  EXPECT_THAT(as_doubles(small), ElementsAre(1, 10, 100));
}

// logspace of real dtypes: pow(base, exponent) in double, converted: int32 of base 2.
TEST(Logspace, PowersOfTheLinspaceValues) {
  EXPECT_THAT(as_doubles(logspace(0, 4, 5, 2.0, ScalarType::kInt32)), ElementsAre(1, 2, 4, 8, 16));
  EXPECT_THAT(as_doubles(logspace(2, 3, 1, 10.0, ScalarType::kFloat64)), ElementsAre(100));
  const std::vector<double> half_powers = as_doubles(logspace(0, 1, 3, 4.0, ScalarType::kFloat64));
  EXPECT_THAT(half_powers, ElementsAre(1, 2, 4));
}

TEST(Eye, OnesOnTheDiagonalOfAnyOutAndPyTorchsErrors) {
  EXPECT_THAT(as_doubles(eye(2, 3, ScalarType::kInt16)), ElementsAre(1, 0, 0, 0, 1, 0));
  EXPECT_EQ(eye(3).dtype(), ScalarType::kFloat32);
  Tensor out = transpose(bp::empty({3, 3}, ScalarType::kFloat64), 0, 1);
  eye_out(out, 3);
  EXPECT_EQ(strides_of(out), (Sizes{1, 3}));
  EXPECT_THAT(as_doubles(out.contiguous()), ElementsAre(1, 0, 0, 0, 1, 0, 0, 0, 1));
  EXPECT_EQ(message_of([] { eye(-1); }), "n must be greater or equal to 0, got -1");
  EXPECT_EQ(message_of([] { eye(2, -3); }), "m must be greater or equal to 0, got -3");
  EXPECT_THAT(message_of([] { eye(2, ScalarType::kBFloat16); }),
              HasSubstr("\"eye\" not implemented for 'bfloat16'"));
}

TEST(Tril, KeepsTheLowerTriangleOfTheLastTwoDimsInEveryVariant) {
  const Tensor x = arange(1, 13, 1, ScalarType::kFloat32).view({2, 2, 3});
  EXPECT_THAT(as_doubles(tril(x)), ElementsAre(1, 0, 0, 4, 5, 0, 7, 0, 0, 10, 11, 0));
  EXPECT_THAT(as_doubles(triu(x, 1)), ElementsAre(0, 2, 3, 0, 0, 6, 0, 8, 9, 0, 0, 12));
  // In place on a transposed (non-contiguous) self: the elements of self's own layout.
  Tensor square = arange(1, 10, 1, ScalarType::kInt64).view({3, 3});
  Tensor t = transpose(square, 0, 1);
  t.tril_(-1);
  EXPECT_THAT(as_doubles(t.contiguous()), ElementsAre(0, 0, 0, 2, 0, 0, 3, 6, 0));
  EXPECT_THAT(as_doubles(square), ElementsAre(0, 2, 3, 0, 0, 6, 0, 0, 0));
  // The functional result is contiguous; out= takes self's dtype only.
  EXPECT_EQ(strides_of(tril(t)), (Sizes{3, 1}));
  Tensor wrong = bp::empty({3, 3}, ScalarType::kFloat64);
  EXPECT_THAT(message_of([&] { tril_out(wrong, square); }),
              HasSubstr("Expected out tensor to have dtype int64, but got float64 instead"));
  EXPECT_THAT(message_of([] { tril(bp::empty({3}, ScalarType::kFloat32)); }),
              HasSubstr("Dimension out of range (expected to be in range of [-1, 0], but got -2)"));
  Tensor b = tensor_of<bool>({2, 2}, {true, true, true, true});
  EXPECT_THAT(as_doubles(triu(b)), ElementsAre(1, 1, 0, 1));
}

}  // namespace
}  // namespace bp
