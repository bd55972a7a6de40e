#include "sdk/core/result_type.h"

#include "gtest/gtest.h"
#include "sdk/core/empty.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

Tensor make(IntArrayRef sizes, ScalarType dtype) {
  return empty(sizes, dtype, Device(DeviceType::kMeta));
}

TEST(ResultType, TensorsWithDimsPromoteTogether) {
  EXPECT_EQ(result_type(make({2}, ScalarType::kUInt8), make({2}, ScalarType::kInt8)),
            ScalarType::kInt16);
  EXPECT_EQ(result_type(make({2}, ScalarType::kInt32), make({3, 2}, ScalarType::kFloat16)),
            ScalarType::kFloat16);
}

TEST(ResultType, ZeroDimTensorsOnlyMatterInAHigherCategory) {
  Tensor i32 = make({3}, ScalarType::kInt32);
  Tensor f16 = make({3}, ScalarType::kFloat16);
  Tensor f64_scalar = make({}, ScalarType::kFloat64);
  Tensor i64_scalar = make({}, ScalarType::kInt64);
  EXPECT_EQ(result_type(i32, f64_scalar), ScalarType::kFloat64);
  EXPECT_EQ(result_type(f16, f64_scalar), ScalarType::kFloat16);
  EXPECT_EQ(result_type(i32, i64_scalar), ScalarType::kInt32);
  EXPECT_EQ(result_type(f64_scalar, i64_scalar), ScalarType::kFloat64);  // Both zero-dim.
}

TEST(ResultType, ScalarsCountAsDefaultDtypes) {
  Tensor i8 = make({3}, ScalarType::kInt8);
  EXPECT_EQ(result_type(i8, Scalar(2.5)), ScalarType::kFloat32);
  EXPECT_EQ(result_type(i8, Scalar(int64_t{1000})), ScalarType::kInt8);
  EXPECT_EQ(result_type(make({3}, ScalarType::kBool), Scalar(int64_t{1})), ScalarType::kInt64);
  EXPECT_EQ(result_type(make({}, ScalarType::kInt32), Scalar(1.5)), ScalarType::kFloat32);
}

TEST(ResultType, ListsMixTensorsAndScalarsAndSkipUndefined) {
  Tensor i32 = make({3}, ScalarType::kInt32);
  Tensor f64_scalar = make({}, ScalarType::kFloat64);
  EXPECT_EQ(result_type({i32, Tensor(), f64_scalar}, {Scalar(int64_t{1})}), ScalarType::kFloat64);
  EXPECT_EQ(result_type({i32}, {Scalar(complex<double>(1, 2))}), ScalarType::kComplex64);
}

}  // namespace
}  // namespace bp
