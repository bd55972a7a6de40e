#include "conformance/framework/layouts.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;

std::vector<int64_t> strides_of(const Tensor& t) {
  return std::vector<int64_t>(t.strides().begin(), t.strides().end());
}

TEST(Layouts, EachLayoutHasItsGeometryAndKeepsTheValues) {
  ValueSource src(7);
  const RefTensor values = src.draw(ScalarType::kInt16, {2, 3, 4, 5});
  struct Case {
    Layout layout;
    std::vector<int64_t> strides;
    int64_t offset;
  };
  for (const Case& c :
       {Case{Layout::kContiguous, {60, 20, 5, 1}, 0}, Case{Layout::kTransposed, {60, 20, 1, 4}, 0},
        Case{Layout::kSliced, {132, 44, 11, 2}, 1}, Case{Layout::kChannelsLast, {60, 1, 15, 3}, 0},
        Case{Layout::kOffset, {60, 20, 5, 1}, 5}}) {
    Tensor t = lay_out(values, c.layout);
    EXPECT_EQ(strides_of(t), c.strides) << layout_name(c.layout);
    EXPECT_EQ(t.storage_offset(), c.offset) << layout_name(c.layout);
    RefTensor back = read_tensor(t);
    for (size_t i = 0; i < values.values.size(); ++i) {
      ASSERT_EQ(back.values[i].i, values.values[i].i) << layout_name(c.layout);
    }
  }
}

TEST(Layouts, ExpandedTensorsRepeatAlongAStrideZeroDim) {
  ValueSource src(3);
  Tensor t = make_tensor(src, ScalarType::kFloat32, {4, 3}, Layout::kExpanded);
  EXPECT_THAT(strides_of(t), ElementsAre(0, 1));
  RefTensor r = read_tensor(t);
  EXPECT_EQ(r.at({0, 2}).z, r.at({3, 2}).z);
}

TEST(Layouts, WrappedNumbersAreZeroDimAndMarked) {
  Tensor n = wrapped_number(from_real(2.5), ScalarType::kFloat64);
  EXPECT_EQ(n.dim(), 0);
  EXPECT_TRUE(n.is_wrapped_number());
  EXPECT_EQ(read_tensor(n).values[0].z.real(), 2.5);
}

TEST(Values, SpecialsAndExtremesAppearInLargerTensors) {
  ValueSource src(11);
  RefTensor f = src.draw(ScalarType::kFloat32, {16});
  int nans = 0;
  for (const Wide& w : f.values) nans += std::isnan(w.z.real());
  EXPECT_EQ(nans, 1);
  RefTensor i = src.draw(ScalarType::kInt8, {16});
  bool min_seen = false;
  for (const Wide& w : i.values) min_seen |= w.i == -128;
  EXPECT_TRUE(min_seen);
  Domain no_zero{.exclude = {0.0}};
  for (const Wide& w : src.draw(ScalarType::kUInt8, {64}, no_zero).values) EXPECT_NE(w.i, 0);
}

}  // namespace
}  // namespace bp::conformance
