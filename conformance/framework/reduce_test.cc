#include "conformance/framework/reduce.h"

#include "conformance/framework/expected.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

TEST(Reduce, HandsEachOutputItsSliceInRowMajorOrder) {
  RefTensor t{ScalarType::kInt64, {2, 3}, {}};
  for (int64_t v = 0; v < 6; ++v) t.values.push_back(from_int(Int(v)));
  auto sum = [](const std::vector<Wide>& xs) {
    Int s(0);
    for (const Wide& w : xs) s = s + Int(w.i);
    return std::vector<Wide>{from_int(s)};
  };
  RefTensor by_row =
      reduce(t, reduced_dims(2, std::vector<int64_t>{1}), false, {ScalarType::kInt64}, sum)[0];
  EXPECT_EQ(by_row.sizes, (Sizes{2}));
  EXPECT_EQ(by_row.values[0].i, 3);
  EXPECT_EQ(by_row.values[1].i, 12);
  RefTensor all = reduce(t, reduced_dims(2, std::nullopt), true, {ScalarType::kInt64}, sum)[0];
  EXPECT_EQ(all.sizes, (Sizes{1, 1}));
  EXPECT_EQ(all.values[0].i, 15);
}

TEST(Reduce, DimErrorsAreReportedAsPyTorchDoes) {
  try {
    reduced_dims(2, std::vector<int64_t>{2});
    FAIL();
  } catch (const RefError& e) {
    EXPECT_EQ(e.message, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
  try {
    reduced_dims(3, std::vector<int64_t>{0, -3});
    FAIL();
  } catch (const RefError& e) {
    EXPECT_EQ(e.message, "dim 0 appears multiple times in the list of dims");
  }
}

}  // namespace
}  // namespace bp::conformance
