#include "sdk/core/result_type.h"

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/scalar_tensor.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

Tensor make(IntArrayRef sizes, ScalarType dtype) {
  return native::empty(sizes, dtype, Device(DeviceType::kMeta));
}

TEST(ResultType, TensorsWithDimsPromoteTogether) {
  EXPECT_EQ(promoted_dtype(make({2}, ScalarType::kUInt8), make({2}, ScalarType::kInt8)),
            ScalarType::kInt16);
  EXPECT_EQ(promoted_dtype(make({2}, ScalarType::kInt32), make({3, 2}, ScalarType::kFloat16)),
            ScalarType::kFloat16);
}

TEST(ResultType, ZeroDimTensorsOnlyMatterInAHigherCategory) {
  Tensor i32 = make({3}, ScalarType::kInt32);
  Tensor f16 = make({3}, ScalarType::kFloat16);
  Tensor f64_scalar = make({}, ScalarType::kFloat64);
  Tensor i64_scalar = make({}, ScalarType::kInt64);
  EXPECT_EQ(promoted_dtype(i32, f64_scalar), ScalarType::kFloat64);
  EXPECT_EQ(promoted_dtype(f16, f64_scalar), ScalarType::kFloat16);
  EXPECT_EQ(promoted_dtype(i32, i64_scalar), ScalarType::kInt32);
  EXPECT_EQ(promoted_dtype(f64_scalar, i64_scalar), ScalarType::kFloat64);  // Both zero-dim.
}

TEST(ResultType, ScalarsCountAsDefaultDtypes) {
  Tensor i8 = make({3}, ScalarType::kInt8);
  EXPECT_EQ(promoted_dtype(i8, Scalar(2.5)), ScalarType::kFloat32);
  EXPECT_EQ(promoted_dtype(i8, Scalar(int64_t{1000})), ScalarType::kInt8);
  EXPECT_EQ(promoted_dtype(make({3}, ScalarType::kBool), Scalar(int64_t{1})), ScalarType::kInt64);
  EXPECT_EQ(promoted_dtype(make({}, ScalarType::kInt32), Scalar(1.5)), ScalarType::kFloat32);
}

TEST(ResultType, ListsMixTensorsAndScalarsAndSkipUndefined) {
  Tensor i32 = make({3}, ScalarType::kInt32);
  Tensor f64_scalar = make({}, ScalarType::kFloat64);
  EXPECT_EQ(promoted_dtype({i32, Tensor(), f64_scalar}, {Scalar(int64_t{1})}),
            ScalarType::kFloat64);
  EXPECT_EQ(promoted_dtype({i32}, {Scalar(complex<double>(1, 2))}), ScalarType::kComplex64);
}

TEST(ResultType, WrappedNumbersPromoteLikeScalars) {
  Tensor i8 = make({3}, ScalarType::kInt8);
  Tensor wrapped_double = wrapped_scalar_tensor(Scalar(2.5));
  Tensor wrapped_int = wrapped_scalar_tensor(Scalar(int64_t{7}));
  EXPECT_TRUE(wrapped_double.is_wrapped_number());
  EXPECT_EQ(wrapped_double.dtype(), ScalarType::kFloat64);
  EXPECT_EQ(wrapped_double.dim(), 0);
  EXPECT_EQ(*static_cast<double*>(wrapped_double.data_ptr()), 2.5);
  // As promoted_dtype(i8, Scalar): the default float dtype, and integers keep int8.
  EXPECT_EQ(promoted_dtype(i8, wrapped_double), ScalarType::kFloat32);
  EXPECT_EQ(promoted_dtype(i8, wrapped_int), ScalarType::kInt8);
  // A plain zero-dim float64 tensor is a zero-dim tensor, not a number.
  EXPECT_EQ(
      promoted_dtype(make({}, ScalarType::kInt8), scalar_tensor(Scalar(2.5), ScalarType::kFloat64)),
      ScalarType::kFloat64);
  EXPECT_EQ(promoted_dtype(make({}, ScalarType::kInt8), wrapped_double), ScalarType::kFloat32);
}

}  // namespace
}  // namespace bp
