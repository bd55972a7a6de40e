// Backplane's own ops that return lists (split, unbind, broadcast_tensors) and a ScalarType
// (result_type), called through the C ABI as a client does: a `Tensor[]` result is one
// TENSOR_LIST whose entries are views of the input, value_release frees the list and its
// references (the tests run under ASan/LSan in CI: a leak fails them), an entry retained before
// the release outlives it, an empty list is a list, an out= op writes the tensors of a list
// argument and returns nothing, and result_type gives a DTYPE value.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::ElementsAre;

Tensor iota(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[i] = i;
  return Tensor::from_host<int64_t>(api(), values, sizes);
}

TEST(ListOps, SplitReturnsViewsOfItsInputAsOneTensorList) {
  const Tensor t = iota({5, 2});
  Op split(api(), "split.Tensor");
  Results r = split.call({arg(t), arg(2)});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].tag, BP_VALUE_TENSOR_LIST);
  ASSERT_EQ(r[0].u.tensors.size, 3u);
  std::vector<Tensor> pieces = r.tensor_list(0);
  EXPECT_THAT(pieces[2].sizes(), ElementsAre(1, 2));
  EXPECT_THAT(pieces[1].to_host<int64_t>(), ElementsAre(4, 5, 6, 7));
  // A view: its first element is inside the input's memory, 4 elements in.
  EXPECT_EQ(static_cast<char*>(pieces[1].data()), static_cast<char*>(t.data()) + 4 * 8);
}

TEST(ListOps, AnEntryRetainedBeforeTheReleaseOutlivesTheList) {
  const Op unbind(api(), "unbind.int");
  bp_value results[1];
  size_t n = 0;
  const Tensor t = iota({3, 2});
  const bp_value args[] = {arg(t)};
  ASSERT_EQ(api()->op_call(unbind.get(), args, 1, results, 1, &n), nullptr);
  ASSERT_EQ(n, 1u);
  ASSERT_EQ(results[0].u.tensors.size, 3u);
  bp_tensor* kept = results[0].u.tensors.data[2];
  api()->tensor_retain(kept);
  api()->value_release(&results[0]);
  EXPECT_EQ(results[0].tag, BP_VALUE_NONE);
  const Tensor row(api(), kept);  // adopts the reference tensor_retain added
  EXPECT_THAT(row.to_host<int64_t>(), ElementsAre(4, 5));
}

TEST(ListOps, AnEmptyListIsAListOfSizeZero) {
  Results r = Op(api(), "unbind.int").call({arg(iota({0, 3}))});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].tag, BP_VALUE_TENSOR_LIST);
  EXPECT_EQ(r[0].u.tensors.size, 0u);
  EXPECT_TRUE(r.tensor_list(0).empty());
}

TEST(ListOps, BroadcastTensorsTakesAndReturnsTensorLists) {
  const Tensor column = iota({3, 1});
  const Tensor row = iota({2});
  const std::vector<bp_tensor*> tensors = {column.get(), row.get()};
  Results r = Op(api(), "broadcast_tensors").call({arg(tensors)});
  std::vector<Tensor> out = r.tensor_list(0);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(out[0].sizes(), ElementsAre(3, 2));
  EXPECT_THAT(out[1].to_host<int64_t>(), ElementsAre(0, 1, 0, 1, 0, 1));
  const Tensor three = iota({3});
  const std::vector<bp_tensor*> mismatched = {row.get(), three.get()};
  EXPECT_EQ(error_of([&] { Op(api(), "broadcast_tensors").call({arg(mismatched)}); }),
            "[broadcast_tensors] The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 0");
}

TEST(ListOps, AnOutOpWritesTheTensorsOfItsListAndReturnsNothing) {
  const Tensor t = iota({5, 2});
  // Outs of another dtype and size: each is resized to its piece and the piece cast into it.
  const Tensor a = Tensor::empty(api(), {0}, BP_DTYPE_FLOAT64);
  const Tensor b = Tensor::empty(api(), {0}, BP_DTYPE_FLOAT64);
  const Tensor c = Tensor::empty(api(), {0}, BP_DTYPE_FLOAT64);
  const std::vector<bp_tensor*> outs = {a.get(), b.get(), c.get()};
  Results r = Op(api(), "unsafe_split.Tensor_out").call({arg(t), arg(2), arg(0), arg(outs)});
  EXPECT_EQ(r.size(), 0u);
  EXPECT_THAT(b.sizes(), ElementsAre(2, 2));
  EXPECT_THAT(b.to_host<double>(), ElementsAre(4, 5, 6, 7));
  EXPECT_THAT(c.to_host<double>(), ElementsAre(8, 9));
  const std::vector<bp_tensor*> two = {a.get(), b.get()};
  EXPECT_EQ(error_of([&] {
              Op(api(), "unsafe_split.Tensor_out").call({arg(t), arg(2), arg(0), arg(two)});
            }),
            "[unsafe_split.Tensor_out] unsafe_split_Tensor_out() expected an out= argument of "
            "size 3, got size 2");
}

TEST(ListOps, ResultTypeReturnsADtypeValue) {
  const Tensor i8 = Tensor::from_host<int8_t>(api(), {1, 2}, {2});
  EXPECT_EQ(Op(api(), "result_type.Scalar").call({arg(i8), arg(2.5)}).dtype(0), BP_DTYPE_FLOAT32);
  EXPECT_EQ(Op(api(), "result_type.Scalar_Tensor").call({arg(3), arg(i8)}).dtype(0), BP_DTYPE_INT8);
  EXPECT_EQ(Op(api(), "result_type.Tensor").call({arg(i8), arg(iota({2}))}).dtype(0),
            BP_DTYPE_INT64);
  Results both = Op(api(), "result_type.Scalar_Scalar").call({arg(true), arg(false)});
  EXPECT_EQ(both[0].tag, BP_VALUE_DTYPE);
  EXPECT_EQ(both.dtype(0), BP_DTYPE_BOOL);
}

}  // namespace
}  // namespace backplane::testing
