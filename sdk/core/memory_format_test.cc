#include "sdk/core/memory_format.h"

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

using V = DimVector;

TEST(MemoryFormat, ContiguousStridesForEachFormat) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (V{12, 4, 1}));
  EXPECT_EQ(contiguous_strides({}), V{});
  EXPECT_EQ(contiguous_strides({2, 0, 4}), (V{4, 4, 1}));  // Size 0 counts as 1.
  EXPECT_EQ(contiguous_strides({2, 3, 4, 5}, MemoryFormat::kChannelsLast), (V{60, 1, 15, 3}));
  EXPECT_EQ(contiguous_strides({2, 3, 4, 5, 6}, MemoryFormat::kChannelsLast3d),
            (V{360, 1, 90, 18, 3}));
}

TEST(MemoryFormat, ChannelsLastNeedsTheRightRank) {
  try {
    contiguous_strides({2, 3, 4}, MemoryFormat::kChannelsLast);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "required rank 4 tensor to use channels_last format");
  }
  try {
    contiguous_strides({2, 3, 4, 5}, MemoryFormat::kChannelsLast3d);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "required rank 5 tensor to use channels_last_3d format");
  }
  try {
    contiguous_strides({2}, MemoryFormat::kPreserve);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "unsupported memory format torch.preserve_format");
  }
}

TEST(MemoryFormat, ContiguityIgnoresSizeOneDims) {
  EXPECT_TRUE(is_contiguous_strides({2, 1, 3}, {3, 99, 1}, MemoryFormat::kContiguous));
  EXPECT_TRUE(is_contiguous_strides({1, 1}, {7, 5}, MemoryFormat::kContiguous));
  EXPECT_FALSE(is_contiguous_strides({2, 3}, {1, 2}, MemoryFormat::kContiguous));
  EXPECT_FALSE(is_contiguous_strides({2, 3}, {4, 1}, MemoryFormat::kContiguous));
  EXPECT_TRUE(is_contiguous_strides({}, {}, MemoryFormat::kContiguous));
}

TEST(MemoryFormat, EmptyTensorsAreRowMajorContiguousButNotChannelsLast) {
  EXPECT_TRUE(is_contiguous_strides({0, 3}, {1, 7}, MemoryFormat::kContiguous));
  EXPECT_FALSE(is_contiguous_strides({0, 3, 4, 5}, {60, 20, 5, 1}, MemoryFormat::kChannelsLast));
  EXPECT_TRUE(is_contiguous_strides({0, 3, 4, 5}, {60, 1, 15, 3}, MemoryFormat::kChannelsLast));
}

TEST(MemoryFormat, ChannelsLastContiguity) {
  EXPECT_TRUE(is_contiguous_strides({2, 3, 4, 5}, {60, 1, 15, 3}, MemoryFormat::kChannelsLast));
  EXPECT_FALSE(is_contiguous_strides({2, 3, 4, 5}, {60, 1, 15, 3}, MemoryFormat::kContiguous));
  // C == 1: both layouts hold.
  EXPECT_TRUE(is_contiguous_strides({2, 1, 4, 5}, {20, 1, 5, 1}, MemoryFormat::kChannelsLast));
  EXPECT_TRUE(is_contiguous_strides({2, 1, 4, 5}, {20, 20, 5, 1}, MemoryFormat::kContiguous));
  EXPECT_FALSE(
      is_contiguous_strides({2, 3, 4}, {12, 1, 3}, MemoryFormat::kChannelsLast));  // Rank 3.
  EXPECT_TRUE(
      is_contiguous_strides({2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}, MemoryFormat::kChannelsLast3d));
  EXPECT_FALSE(
      is_contiguous_strides({2, 3, 4, 5, 6}, {360, 120, 30, 6, 1}, MemoryFormat::kChannelsLast3d));
}

TEST(MemoryFormat, NonOverlappingAndDenseAcceptsPermutationsOnly) {
  EXPECT_TRUE(is_non_overlapping_and_dense_strides({2, 3}, {1, 2}));  // Transposed.
  EXPECT_TRUE(is_non_overlapping_and_dense_strides({3, 1, 2}, {1, 100, 3}));
  EXPECT_FALSE(is_non_overlapping_and_dense_strides({2, 3}, {0, 1}));  // Expanded.
  EXPECT_FALSE(is_non_overlapping_and_dense_strides({2, 3}, {6, 2}));  // Gaps.
  EXPECT_FALSE(is_non_overlapping_and_dense_strides({4}, {2}));
  EXPECT_TRUE(is_non_overlapping_and_dense_strides({1}, {5}));
  EXPECT_TRUE(is_non_overlapping_and_dense_strides({}, {}));
}

TEST(MemoryFormat, SuggestsTheLayoutTheStridesLookLike) {
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5}, {60, 1, 15, 3}), MemoryFormat::kChannelsLast);
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5}, {60, 20, 5, 1}), MemoryFormat::kContiguous);
  // A channels-last tensor sliced along W keeps its layout.
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 2}, {60, 1, 15, 6}), MemoryFormat::kChannelsLast);
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}),
            MemoryFormat::kChannelsLast3d);
  // Ambiguous N111 tensors and trivial channels default to contiguous.
  EXPECT_EQ(suggest_memory_format({4, 1, 1, 1}, {1, 1, 1, 1}), MemoryFormat::kContiguous);
  EXPECT_EQ(suggest_memory_format({2, 3, 4, 5}, {60, 0, 15, 3}), MemoryFormat::kContiguous);
  EXPECT_EQ(suggest_memory_format({2, 3}, {1, 2}), MemoryFormat::kContiguous);
}

TEST(MemoryFormat, InferredDenseStridesKeepTheDimOrder) {
  EXPECT_EQ(infer_dense_strides({}, {}), V{});
  EXPECT_EQ(infer_dense_strides({5}, {3}), (V{1}));
  EXPECT_EQ(infer_dense_strides({2, 3, 4}, {24, 8, 2}), (V{12, 4, 1}));  // Gaps closed.
  EXPECT_EQ(infer_dense_strides({3, 2}, {2, 6}), (V{1, 3}));  // A sliced transpose stays one.
  EXPECT_EQ(infer_dense_strides({2, 3}, {0, 1}), (V{3, 1}));  // Stride 0 keeps row-major.
  EXPECT_EQ(infer_dense_strides({4, 3}, {0, 0}), (V{3, 1}));
  // Equal strides: the smaller dim goes inside.
  EXPECT_EQ(infer_dense_strides({2, 3}, {1, 1}), (V{1, 2}));
  EXPECT_EQ(infer_dense_strides({3, 2}, {1, 1}), (V{2, 1}));
  EXPECT_EQ(infer_dense_strides({2, 3, 4, 5}, {120, 2, 30, 6}), (V{60, 1, 15, 3}));
  EXPECT_EQ(infer_dense_strides({2, 0, 3}, {0, 3, 1}), (V{3, 3, 1}));
}

}  // namespace
}  // namespace bp
