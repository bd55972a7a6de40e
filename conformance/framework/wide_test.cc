#include "conformance/framework/wide.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

TEST(Int, ArithmeticWrapsInsteadOfOverflowing) {
  const Int max(std::numeric_limits<int64_t>::max());
  EXPECT_EQ((max + Int(1)).v, std::numeric_limits<int64_t>::min());
  EXPECT_EQ((max * Int(2)).v, -2);
  EXPECT_EQ((-Int(std::numeric_limits<int64_t>::min())).v, std::numeric_limits<int64_t>::min());
}

TEST(Int, FloorDivisionAndModuloFollowTheDivisorsSign) {
  EXPECT_EQ(floor_div(Int(-7), Int(2)).v, -4);
  EXPECT_EQ(trunc_div(Int(-7), Int(2)).v, -3);
  EXPECT_EQ(floor_mod(Int(-7), Int(2)).v, 1);
  EXPECT_EQ(floor_mod(Int(7), Int(-2)).v, -1);
  EXPECT_EQ(trunc_mod(Int(-7), Int(2)).v, -1);
}

TEST(Cast, IntegersWrapToTheTargetWidth) {
  EXPECT_EQ(cast(from_int(Int(300)), ScalarType::kInt64, ScalarType::kUInt8).i, 44);
  EXPECT_EQ(cast(from_int(Int(-1)), ScalarType::kInt64, ScalarType::kUInt8).i, 255);
  EXPECT_EQ(cast(from_int(Int(128)), ScalarType::kInt32, ScalarType::kInt8).i, -128);
  EXPECT_EQ(cast(from_int(Int(2)), ScalarType::kInt32, ScalarType::kBool).i, 1);
}

TEST(Cast, FloatingRoundsToTheTargetPrecision) {
  EXPECT_TRUE(
      std::isinf(cast(from_real(1e5), ScalarType::kFloat64, ScalarType::kFloat16).z.real()));
  EXPECT_EQ(cast(from_real(1.0 / 3), ScalarType::kFloat64, ScalarType::kFloat32).z.real(),
            static_cast<double>(1.0f / 3));
  EXPECT_EQ(cast(from_real(-2.7), ScalarType::kFloat64, ScalarType::kInt32).i, -2);
  EXPECT_EQ(cast(from_complex(cd(1.5, 2)), ScalarType::kComplex128, ScalarType::kFloat32).z.real(),
            1.5);
  EXPECT_EQ(cast(from_real(0.0), ScalarType::kFloat32, ScalarType::kBool).i, 0);
  EXPECT_EQ(cast(from_complex(cd(0, 1)), ScalarType::kComplex64, ScalarType::kBool).i, 1);
}

TEST(Identical, TellsSignedZerosApartAndMatchesNaNs) {
  EXPECT_FALSE(identical(from_real(0.0), from_real(-0.0), ScalarType::kFloat32));
  EXPECT_TRUE(identical(from_real(std::nan("")), from_real(-std::nan("")), ScalarType::kFloat32));
  EXPECT_EQ(to_string(from_real(-0.0), ScalarType::kFloat32), "-0");
  EXPECT_EQ(to_string(from_complex(cd(1, -2)), ScalarType::kComplex64), "(1, -2)");
}

}  // namespace
}  // namespace bp::conformance
