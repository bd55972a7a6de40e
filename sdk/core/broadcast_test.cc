#include "sdk/core/broadcast.h"

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

using V = DimVector;

TEST(InferSize, BroadcastsTwoShapes) {
  EXPECT_EQ(infer_size({3, 1}, {4}), (V{3, 4}));
  EXPECT_EQ(infer_size({1}, {2, 3}), (V{2, 3}));
  EXPECT_EQ(infer_size({}, {2, 3}), (V{2, 3}));
  EXPECT_EQ(infer_size({5, 1, 0}, {1, 7, 1}), (V{5, 7, 0}));  // 0 broadcasts like any size.
  EXPECT_EQ(infer_size({}, {}), V{});
}

TEST(InferSize, ReportsTheMismatchingDimInTheResult) {
  try {
    infer_size({2, 3}, {4});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(e.message(),
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
              "dimension 1");
  }
  try {
    infer_size({2, 3, 1}, {5, 1});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "The size of tensor a (3) must match the size of tensor b (5) at non-singleton "
              "dimension 1");
  }
}

TEST(InferSize, FoldsAnyNumberOfShapes) {
  EXPECT_EQ(infer_size({{2, 1, 4}, {3, 1}, {}}), (V{2, 3, 4}));
  EXPECT_EQ(infer_size({IntArrayRef{6}}), (V{6}));
  EXPECT_EQ(infer_size(absl::Span<const IntArrayRef>()), V{});
  try {
    infer_size({{2, 1}, {1, 3}, {4}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
              "dimension 1");
  }
}

}  // namespace
}  // namespace bp
