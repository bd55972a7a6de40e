#include "sdk/dispatch/value.h"

#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/dispatch/fake_device.h"

namespace bp {
namespace {

TEST(Value, BoxesEachSupportedType) {
  EXPECT_EQ(Value().tag(), Value::Tag::kNone);
  EXPECT_EQ(Value(std::nullopt).tag(), Value::Tag::kNone);
  EXPECT_EQ(Value(true).tag(), Value::Tag::kBool);
  EXPECT_EQ(Value(3).tag(), Value::Tag::kInt);
  EXPECT_EQ(Value(int64_t{3}).tag(), Value::Tag::kInt);
  EXPECT_EQ(Value(1.5).tag(), Value::Tag::kDouble);
  EXPECT_EQ(Value(1.5f).tag(), Value::Tag::kDouble);
  EXPECT_EQ(Value(complex<double>(1, 2)).tag(), Value::Tag::kComplex);
  EXPECT_EQ(Value("floor").tag(), Value::Tag::kString);
  EXPECT_EQ(Value(ScalarType::kInt8).tag(), Value::Tag::kScalarType);
  EXPECT_EQ(Value(Device(DeviceType::kCPU)).tag(), Value::Tag::kDevice);
  EXPECT_EQ(Value(MemoryFormat::kChannelsLast).tag(), Value::Tag::kMemoryFormat);
  EXPECT_EQ(Value(std::vector<int64_t>{1, 2}).tag(), Value::Tag::kIntList);
  std::vector<int64_t> sizes{4, 5};
  EXPECT_EQ(Value(IntArrayRef(sizes)).tag(), Value::Tag::kIntList);
  EXPECT_EQ(Value(std::vector<double>{1.0}).tag(), Value::Tag::kDoubleList);
  EXPECT_EQ(Value(std::vector<bool>{true}).tag(), Value::Tag::kBoolList);
  EXPECT_EQ(Value(cpu_tensor({1})).tag(), Value::Tag::kTensor);
  EXPECT_EQ(Value(std::vector<Tensor>{cpu_tensor({1})}).tag(), Value::Tag::kTensorList);
  EXPECT_EQ(Value(std::vector<std::optional<Tensor>>{std::nullopt}).tag(),
            Value::Tag::kOptionalTensorList);
  EXPECT_EQ(Value(Scalar(2)).tag(), Value::Tag::kScalar);
  EXPECT_EQ(Value(std::optional<int64_t>()).tag(), Value::Tag::kNone);
  EXPECT_EQ(Value(std::optional<int64_t>(4)).tag(), Value::Tag::kInt);
}

TEST(Value, UnboxesValuesOptionalsSpansAndScalars) {
  Value v(std::vector<int64_t>{1, 2, 3});
  IntArrayRef span = v.to<IntArrayRef>();
  EXPECT_EQ(span.size(), 3u);
  EXPECT_EQ(span.data(), v.ref<std::vector<int64_t>>().data());  // a view, not a copy
  EXPECT_EQ(Value(std::nullopt).to<std::optional<int64_t>>(), std::nullopt);
  EXPECT_EQ(Value(5).to<std::optional<int64_t>>(), 5);
  EXPECT_EQ(Value(5).to<Scalar>(), Scalar(int64_t{5}));
  EXPECT_EQ(Value(2.5).to<Scalar>(), Scalar(2.5));
  EXPECT_EQ(Value(Scalar(true)).to<Scalar>(), Scalar(true));
  Tensor t = cpu_tensor({2});
  Value tv(t);
  EXPECT_TRUE(tv.ref<Tensor>().is_same(t));
  EXPECT_EQ(t.use_count(), 2u);  // ref<Tensor>() does not copy the handle
}

TEST(Value, MismatchIsATypeErrorNamingBothTypes) {
  try {
    Value(std::vector<int64_t>{1}).to<double>();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeError);
    EXPECT_EQ(e.message(), "expected a value of type float but got int[]");
  }
  EXPECT_THAT([] { Value("x").ref<Tensor>(); },
              ::testing::ThrowsMessage<Error>("expected a value of type Tensor but got str"));
  EXPECT_THAT([] { Value(std::nullopt).to<Scalar>(); },
              ::testing::ThrowsMessage<Error>("expected a value of type Scalar but got None"));
}

TEST(Value, PrintsReadably) {
  std::ostringstream out;
  out << Value(std::vector<int64_t>{1, 2}) << " " << Value(true) << " " << Value(std::nullopt)
      << " " << Value("s");
  EXPECT_EQ(out.str(), "[1, 2] True None \"s\"");
}

}  // namespace
}  // namespace bp
