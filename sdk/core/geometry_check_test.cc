#include "sdk/core/geometry_check.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMax = INT64_MAX;

// The message of the error `f` throws ("no error" when it throws none).
template <typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    return e.message();
  }
  return "no error";
}

TEST(CheckTensorGeometry, GivesTheElementsAndTheStorageReached) {
  const TensorGeometry g = check_tensor_geometry({2, 2}, {1, 2}, 1, 8, 5);
  EXPECT_EQ(g.numel, 4);
  EXPECT_EQ(g.storage_numel, 5);  // 1 + 1 * 1 + 1 * 2 + 1
  EXPECT_EQ(g.storage_nbytes, 40);
  const TensorGeometry scalar = check_tensor_geometry({}, {}, 3, 4);
  EXPECT_EQ(scalar.numel, 1);
  EXPECT_EQ(scalar.storage_numel, 4);
}

TEST(CheckTensorGeometry, ATensorWithoutElementsReachesNoStorage) {
  const TensorGeometry g = check_tensor_geometry({0, 5}, {kMax, kMax}, 1000, 4, 0);
  EXPECT_EQ(g.numel, 0);
  EXPECT_EQ(g.storage_numel, 0);
  EXPECT_EQ(g.storage_nbytes, 0);
}

TEST(CheckTensorGeometry, NamesANegativeSizeStrideOrOffset) {
  EXPECT_EQ(message_of([] {
              check_tensor_geometry({2, -3}, {1, 1}, 0, 4);
            }),
            "sizes[1] is -3: sizes must be non-negative");
  EXPECT_EQ(message_of([] {
              check_tensor_geometry({2, 2}, {1, -4}, 0, 4);
            }),
            "strides[1] is -4: strides must be non-negative");
  EXPECT_EQ(message_of([] { check_tensor_geometry({2}, {1}, -1, 4); }),
            "storage_offset is -1: it must be non-negative");
  EXPECT_EQ(message_of([] {
              check_tensor_geometry({2}, {1, 1}, 0, 4);
            }),
            "sizes and strides differ in length (1 sizes, 2 strides)");
}

TEST(CheckTensorGeometry, RefusesNegativeStridesEvenWhenTheyStayInsideTheStorage) {
  // Offset 4 with stride -1 reads elements 4..0, but negative strides are not supported.
  EXPECT_THAT(message_of([] { check_tensor_geometry({5}, {-1}, 4, 4, 5); }),
              HasSubstr("strides[0] is -1"));
}

TEST(CheckTensorGeometry, NamesAnOverflowInsteadOfWrappingAround) {
  // (3 - 1) * 2^62 wraps to INT64_MIN: the unchecked sum would pass any bounds check.
  EXPECT_EQ(message_of([] { check_tensor_geometry({3}, {int64_t{1} << 62}, 0, 4, 10); }),
            "sizes and strides overflow int64 at dimension 0: (size - 1) * stride is (3 - 1) * "
            "4611686018427387904");
  EXPECT_THAT(message_of([] {
                check_tensor_geometry({2, 2}, {kMax / 2, kMax / 2 + 1}, 0, 1);
              }),
              HasSubstr("overflow int64"));
  EXPECT_THAT(message_of([] { check_tensor_geometry({2}, {1}, kMax - 1, 1); }),
              HasSubstr("overflow int64"));
  EXPECT_THAT(message_of([] {
                check_tensor_geometry({int64_t{1} << 32, int64_t{1} << 32}, {0, 0}, 0, 1);
              }),
              HasSubstr("the number of elements overflows at sizes[1]"));
  EXPECT_THAT(message_of([] { check_tensor_geometry({2}, {kMax / 4}, 0, 8); }),
              HasSubstr("overflow int64 in bytes"));
}

TEST(CheckTensorGeometry, NamesAStorageTooSmall) {
  EXPECT_EQ(message_of([] {
              check_tensor_geometry({2, 3}, {3, 1}, 1, 4, 6);
            }),
            "sizes, strides and storage_offset need a storage of 7 elements, but it holds 6");
  EXPECT_EQ(message_of([] { check_tensor_geometry({2, 3}, {3, 1}, 0, 4, 6); }), "no error");
}

TEST(CheckTensorSizes, GivesTheNumberOfElementsOrNamesTheBadSize) {
  EXPECT_EQ(check_tensor_sizes({2, 3}), 6);
  EXPECT_EQ(check_tensor_sizes({}), 1);
  EXPECT_EQ(check_tensor_sizes({0, kMax}), 0);
  // 0 counts as 1 in the product, as in native::empty: the contiguous strides would overflow.
  EXPECT_THAT(message_of([] {
                check_tensor_sizes({0, kMax, 2});
              }),
              HasSubstr("overflows at sizes[2] (2)"));
  EXPECT_EQ(message_of([] {
              check_tensor_sizes({2, -1});
            }),
            "sizes[1] is -1: sizes must be non-negative");
  EXPECT_THAT(message_of([] {
                check_tensor_sizes({kMax, 2});
              }),
              HasSubstr("the number of elements overflows at sizes[1] (2)"));
}

TEST(CheckTensorGeometry, PrefixesItsMessagesWithTheContext) {
  EXPECT_EQ(message_of([] { check_tensor_geometry({-1}, {1}, 0, 4, std::nullopt, "f"); }),
            "f: sizes[0] is -1: sizes must be non-negative");
}

}  // namespace
}  // namespace bp
