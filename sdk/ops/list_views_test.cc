// The view ops returning lists (split, chunk, tensor_split, unbind, broadcast_tensors) and
// result_type through the C++ API and Tensor methods: each piece's geometry, values and aliasing,
// PyTorch's messages, and the same geometry on Meta; unsafe_split's out= ops, which copy the
// pieces into a list of outs.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/core/warning.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp {
namespace {

using ::testing::ElementsAre;
using namespace bp::testing;

Tensor iota(IntArrayRef sizes, Device device = kCpu) {
  std::vector<int64_t> values(static_cast<size_t>(multiply_integers(sizes)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  return tensor_of<int64_t>(sizes, values, device);
}

// Each piece's sizes, in order.
std::vector<std::vector<int64_t>> sizes_of_all(const std::vector<Tensor>& pieces) {
  std::vector<std::vector<int64_t>> out;
  for (const Tensor& t : pieces) out.push_back(sizes_of(t));
  return out;
}

TEST(ListViews, SplitGivesViewsOfSplitSizeWithAShorterLastPiece) {
  Tensor t = iota({5, 2});
  std::vector<Tensor> pieces = split(t, 2);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(sizes_of_all(pieces), (std::vector<std::vector<int64_t>>{{2, 2}, {2, 2}, {1, 2}}));
  for (const Tensor& p : pieces) EXPECT_TRUE(p.is_alias_of(t));
  EXPECT_EQ(pieces[1].storage_offset(), 4);
  EXPECT_THAT(values_of<int64_t>(pieces[2]), ElementsAre(8, 9));
  // The method and the sizes overload agree.
  EXPECT_EQ(sizes_of_all(t.split(2)), sizes_of_all(pieces));
  EXPECT_EQ(sizes_of_all(t.split({1, 4})), (std::vector<std::vector<int64_t>>{{1, 2}, {4, 2}}));
  EXPECT_EQ(sizes_of_all(split(t, 1, /*dim=*/-1)),
            (std::vector<std::vector<int64_t>>{{5, 1}, {5, 1}}));
}

TEST(ListViews, SplitRaisesPyTorchsMessages) {
  EXPECT_EQ(message_of([] { split(iota({3}), 0); }),
            "split_size can only be 0 if dimension size is 0, but got dimension size of 3");
  EXPECT_EQ(message_of([] { split(iota({3}), -1); }),
            "split expects split_size be non-negative, but got split_size=-1");
  EXPECT_EQ(message_of([] {
              split_with_sizes(iota({3}), {4, -2});
            }),
            "split_with_sizes expects split_sizes have only non-negative entries, but got "
            "split_sizes=[4, -2]");
  EXPECT_EQ(message_of([] {
              split_with_sizes(iota({3}), {1, 1});
            }),
            "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at "
            "dimension 0), but got split_sizes=[1, 1]");
  EXPECT_EQ(split(iota({0, 3}), 0).size(), 1u);
}

TEST(ListViews, UnsafeSplitSharesStorageButNotTheVersionCounter) {
  Tensor t = iota({4});
  std::vector<Tensor> pieces = unsafe_split(t, 2);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_TRUE(pieces[1].is_alias_of(t));
  EXPECT_THAT(values_of<int64_t>(pieces[1]), ElementsAre(2, 3));
  const uint32_t before = pieces[0].version();
  t.add_(Scalar(int64_t{1}));
  EXPECT_EQ(pieces[0].version(), before);
  EXPECT_THAT(values_of<int64_t>(pieces[0]), ElementsAre(1, 2));
}

TEST(ListViews, UnsafeSplitOutCopiesEachPieceIntoItsOutResizedAndCast) {
  Tensor t = iota({5, 2});
  // An out with elements of another shape is resized with PyTorch's warning; an empty one is
  // resized silently; one of the right shape keeps its strides. Each takes its piece in its
  // own dtype, as copy_ casts.
  Tensor first = bp::empty({3}, ScalarType::kFloat64);
  Tensor second = bp::empty({0}, ScalarType::kInt64);
  Tensor third = bp::empty({2, 1}, ScalarType::kFloat32).transpose(0, 1);
  const std::vector<Tensor> outs = {first, second, third};
  WarningCapture capture;
  unsafe_split_out(outs, t, 2);
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_THAT(capture.messages()[0],
              ::testing::HasSubstr("An output with one or more elements was resized since it "
                                   "had shape [3], which does not match the required output "
                                   "shape [2, 2]"));
  EXPECT_THAT(sizes_of(first), ElementsAre(2, 2));
  EXPECT_THAT(values_of<double>(first), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(values_of<int64_t>(second), ElementsAre(4, 5, 6, 7));
  EXPECT_THAT(third.strides(), ElementsAre(1, 1));
  EXPECT_THAT(values_of<float>(third), ElementsAre(8, 9));
  EXPECT_FALSE(first.is_alias_of(t));

  const std::vector<Tensor> three = {bp::empty({0}, ScalarType::kInt64),
                                     bp::empty({0}, ScalarType::kInt64),
                                     bp::empty({0}, ScalarType::kInt64)};
  unsafe_split_with_sizes_out(three, t, {1, 0, 1}, 1);
  EXPECT_THAT(values_of<int64_t>(three[2]), ElementsAre(1, 3, 5, 7, 9));
  EXPECT_THAT(sizes_of(three[1]), ElementsAre(5, 0));
  // One out per piece; the functional op's errors come first.
  EXPECT_EQ(message_of([&] { unsafe_split_with_sizes_out(three, t, {5}); }),
            "unsafe_split_with_sizes_out() expected an out= argument of size 1, got size 3");
  EXPECT_EQ(message_of([&] { unsafe_split_out(three, t, -1); }),
            "split expects split_size be non-negative, but got split_size=-1");
}

TEST(ListViews, ChunkRoundsUpAndKeepsEmptyChunksOfAnEmptyDim) {
  EXPECT_EQ(sizes_of_all(chunk(iota({5}), 3)), (std::vector<std::vector<int64_t>>{{2}, {2}, {1}}));
  EXPECT_EQ(sizes_of_all(chunk(iota({4}), 3)), (std::vector<std::vector<int64_t>>{{2}, {2}}));
  EXPECT_EQ(chunk(iota({0}), 3).size(), 3u);
  EXPECT_EQ(message_of([] { chunk(iota({3}), 0); }),
            "chunk expects `chunks` to be greater than 0, got: 0");
  EXPECT_EQ(message_of([] { chunk(iota({}), 1); }),
            "chunk expects at least a 1-dimensional tensor");
}

TEST(ListViews, TensorSplitTakesSectionsIndicesOrATensorOfEither) {
  Tensor t = iota({5});
  EXPECT_EQ(sizes_of_all(tensor_split(t, 3)), (std::vector<std::vector<int64_t>>{{2}, {2}, {1}}));
  std::vector<Tensor> by_indices = t.tensor_split(IntArrayRef({4, 1, -1, 9}));
  EXPECT_EQ(sizes_of_all(by_indices), (std::vector<std::vector<int64_t>>{{4}, {0}, {3}, {1}, {0}}));
  EXPECT_THAT(values_of<int64_t>(by_indices[2]), ElementsAre(1, 2, 3));
  EXPECT_EQ(sizes_of_all(tensor_split(t, tensor_of<int64_t>({2}, {1, 3}))),
            (std::vector<std::vector<int64_t>>{{1}, {2}, {2}}));
  EXPECT_EQ(sizes_of_all(tensor_split(t, tensor_of<int64_t>({}, {2}))),
            (std::vector<std::vector<int64_t>>{{3}, {2}}));
  EXPECT_EQ(message_of([&] { tensor_split(t, tensor_of<float>({1}, {1.0f})); }),
            "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
            "float32");
  EXPECT_EQ(message_of([&] { tensor_split(t, 0); }),
            "number of sections must be larger than 0, got 0");
  EXPECT_EQ(message_of([] { tensor_split(iota({}), 2); }),
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
}

TEST(ListViews, UnbindSelectsEveryIndex) {
  Tensor t = iota({2, 3});
  std::vector<Tensor> columns = t.unbind(1);
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_THAT(values_of<int64_t>(columns[2]), ElementsAre(2, 5));
  EXPECT_EQ(columns[2].storage_offset(), 2);
  EXPECT_EQ(strides_of(columns[2]), std::vector<int64_t>{3});
  const Error e = error_of([] { unbind(iota({})); });
  EXPECT_EQ(e.code(), ErrorCode::kIndexError);
  EXPECT_EQ(e.message(), "Dimension specified as 0 but tensor has no dimensions");
}

TEST(ListViews, BroadcastTensorsExpandsOnlyWhatNeedsIt) {
  Tensor a = iota({3, 1});
  Tensor b = iota({2});
  Tensor c = iota({3, 2});
  std::vector<Tensor> out = broadcast_tensors({a, b, c});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(strides_of(out[0]), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(strides_of(out[1]), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(out[2].is_same(c));  // already of the shape: returned as it is
  EXPECT_TRUE(broadcast_tensors({}).empty());
  EXPECT_EQ(message_of([] {
              broadcast_tensors({iota({2}), iota({1, 2}), iota({3, 3})});
            }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 1");
}

TEST(ListViews, MetaGivesTheSameGeometry) {
  Tensor t = empty({5, 2}, ScalarType::kFloat32, kMeta);
  std::vector<Tensor> pieces = chunk(t, 2, 0);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[1].device().type, DeviceType::kMeta);
  EXPECT_EQ(pieces[1].storage_offset(), 6);
}

TEST(ResultType, FollowsPromotionForEveryOverload) {
  Tensor i8 = tensor_of<int8_t>({2}, {1, 2});
  Tensor f64_zero_dim = tensor_of<double>({}, {1.0});
  // A zero-dim tensor of a higher category wins over a tensor with dims; of the same one, not.
  EXPECT_EQ(result_type(i8, f64_zero_dim), ScalarType::kFloat64);
  EXPECT_EQ(result_type(i8, tensor_of<int64_t>({}, {7})), ScalarType::kInt8);
  EXPECT_EQ(result_type(i8, Scalar(2.5)), ScalarType::kFloat32);
  EXPECT_EQ(result_type(Scalar(int64_t{2}), i8), ScalarType::kInt8);
  EXPECT_EQ(result_type(Scalar(int64_t{1}), Scalar(int64_t{2})), ScalarType::kInt64);
  EXPECT_EQ(result_type(Scalar(1.5), Scalar(int64_t{2})), ScalarType::kFloat32);
  EXPECT_EQ(result_type(Scalar(true), Scalar(false)), ScalarType::kBool);
  EXPECT_EQ(result_type(Scalar(complex<double>(0, 1)), Scalar(int64_t{2})), ScalarType::kComplex64);
}

}  // namespace
}  // namespace bp
