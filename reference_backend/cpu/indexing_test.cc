// The indexing kernels on the CPU (reference_backend/cpu/indexing.cc): values against naive
// loops at sizes past the parallel grain, on one and two threads, in both index_select paths
// (contiguous rows, strided lines) and every element size; a bad index leaves an in-place self
// and an out= tensor untouched; masked_select and embedding through them. The conformance suite
// checks the same ops on small tensors against its own reference.
#include <cstdint>
#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using testing::ElementsAre;
using testing::HasSubstr;

// 0, 1, ..., n - 1 as `dtype` in `sizes` (wrapping in the 8-bit dtypes, as PyTorch converts).
Tensor iota(ScalarType dtype, std::vector<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return bp::arange(n).to(dtype).reshape(sizes);
}

// Indices i * step % size (deterministic, repeating), as int64 or int32.
Tensor indices(int64_t n, int64_t step, int64_t size, ScalarType dtype = ST::kInt64) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i * step % size;
  return int_tensor_of(ST::kInt64, v).to(dtype);
}

class ThreadCounts : public testing::TestWithParam<int> {
 protected:
  void SetUp() override { set_num_threads(GetParam()); }
  void TearDown() override { set_num_threads(1); }
};

TEST_P(ThreadCounts, IndexSelectCopiesTheIndexedSlicesInBothPaths) {
  // 300 x 257 rows: past the contiguous path's 64 KiB grain; every element size.
  for (ScalarType dtype : {ST::kBool, ST::kInt16, ST::kFloat32, ST::kFloat64, ST::kComplex128}) {
    const Tensor self = iota(dtype, {300, 257});
    for (ScalarType index_dtype : {ST::kInt64, ST::kInt32}) {
      const Tensor index = indices(500, 7, 300, index_dtype);
      const std::vector<int64_t> k = int_values_of(index);
      const Tensor rows = index_select(self, 0, index);
      ASSERT_THAT(rows.sizes(), ElementsAre(500, 257));
      const Tensor cols = index_select(self.t(), 1, index);  // strided lines
      ASSERT_THAT(cols.sizes(), ElementsAre(257, 500));
      for (int64_t j : {int64_t{0}, int64_t{1}, int64_t{255}, int64_t{499}}) {
        expect_same(rows.select(0, j), self.select(0, k[static_cast<size_t>(j)]));
        expect_same(cols.select(1, j), self.t().select(1, k[static_cast<size_t>(j)]));
      }
    }
  }
}

TEST_P(ThreadCounts, GatherAndScatterInvertEachOtherOnAPermutation) {
  // Each row of index is a permutation of 0..999: scatter puts back what gather took.
  const int64_t rows = 64, n = 1000;
  std::vector<int64_t> v;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < n; ++i) v.push_back((i * 7 + r) % n);  // 7 is prime to 1000
  }
  const Tensor index = int_tensor_of(ST::kInt64, v).view({rows, n});
  for (ScalarType dtype : {ST::kUInt8, ST::kFloat16, ST::kFloat32, ST::kComplex64}) {
    const Tensor self = iota(dtype, {rows, n});
    const Tensor gathered = gather(self, 1, index);
    for (int64_t r : {int64_t{0}, int64_t{17}, rows - 1}) {
      for (int64_t i : {int64_t{0}, int64_t{3}, n - 1}) {
        expect_same(gathered.select(0, r).select(0, i),
                    self.select(0, r).select(0, (i * 7 + r) % n));
      }
    }
    expect_same(scatter(zeros_like(self), 1, index, gathered), self);
  }
}

TEST_P(ThreadCounts, ScatterReductionsFoldRepeatedIndices) {
  // 5000 ones into 10 bins per row: 500 each, exact in float32 and int32.
  const Tensor index = indices(5000, 1, 10).view({1, 5000}).expand({8, 5000}).contiguous();
  for (ScalarType dtype : {ST::kInt32, ST::kFloat32, ST::kFloat64}) {
    const Tensor sums = scatter_add(zeros({8, 10}, dtype), 1, index, ones({8, 5000}, dtype));
    expect_same(sums, full({8, 10}, 500, dtype));
    // 200 twos into 10 bins per row: 2^20 each, exact in every one of these dtypes.
    const Tensor few = indices(200, 1, 10).view({1, 200}).expand({8, 200}).contiguous();
    const Tensor products =
        scatter(ones({8, 10}, dtype), 1, few, full({8, 200}, 2, dtype), /*reduce=*/"multiply");
    expect_same(products, full({8, 10}, 1 << 20, dtype));
  }
}

INSTANTIATE_TEST_SUITE_P(Indexing, ThreadCounts, testing::Values(1, 2));

TEST(Indexing, ABadIndexLeavesAnInPlaceSelfAndAnOutAsTheyWere) {
  Tensor self = tensor_of(ST::kFloat32, {1, 2, 3, 4}, {2, 2});
  const Tensor index = int_tensor_of(ST::kInt64, {0, 5}).view({1, 2});  // 5 is out of range
  EXPECT_THAT(message_of([&] {
                self.scatter_(1, index, tensor_of(ST::kFloat32, {9, 9}, {1, 2}));
              }),
              HasSubstr("index 5 is out of bounds for dimension 1 with size 2"));
  EXPECT_THAT(message_of([&] {
                self.scatter_add_(1, index, ones({1, 2}, ST::kFloat32));
              }),
              HasSubstr("index 5 is out of bounds for dimension 1 with size 2"));
  expect_same(self, tensor_of(ST::kFloat32, {1, 2, 3, 4}, {2, 2}));
  Tensor out = full({2, 2}, 7, ST::kFloat32);
  EXPECT_THAT(message_of([&] { scatter_out(out, self, 1, index, 0.0); }),
              HasSubstr("index 5 is out of bounds"));
  expect_same(out, full({2, 2}, 7, ST::kFloat32));
}

TEST(Indexing, IndexSelectNamesTheBadIndexAsPyTorchDoes) {
  const Tensor self = iota(ST::kFloat32, {3, 4});
  EXPECT_EQ(message_of([&] { index_select(self, 0, int_tensor_of(ST::kInt64, {3})); }),
            "index out of range in self");
  EXPECT_EQ(message_of([&] { index_select(self, 1, int_tensor_of(ST::kInt64, {-1})); }),
            "INDICES element is out of DATA bounds, id=-1 axis_dim=4");
}

TEST(Indexing, MaskedSelectAndEmbeddingGoThroughIndexSelect) {
  const Tensor x = iota(ST::kFloat32, {2, 3});
  const Tensor mask = tensor_of(ST::kBool, {1, 0, 1});  // broadcast over the rows
  expect_same(masked_select(x, mask), tensor_of(ST::kFloat32, {0, 2, 3, 5}));
  const Tensor table = iota(ST::kFloat32, {5, 2});
  const Tensor tokens = int_tensor_of(ST::kInt32, {4, 0, 4, 1}).view({2, 2});
  const Tensor rows = embedding(table, tokens);
  ASSERT_THAT(rows.sizes(), ElementsAre(2, 2, 2));
  expect_same(rows.reshape({-1}), tensor_of(ST::kFloat32, {8, 9, 0, 1, 8, 9, 2, 3}));
  const auto meta = [](const Tensor& t) {
    return _to_copy(t, std::nullopt, Device(DeviceType::kMeta), false, std::nullopt);
  };
  EXPECT_THAT(message_of([&] { masked_select(meta(x), meta(mask)); }),
              HasSubstr("depends on the mask's values"));
}

TEST(Indexing, DropoutInEvaluationIsItsInputAndTrainingIsRefused) {
  const Tensor x = iota(ST::kFloat32, {4});
  EXPECT_TRUE(dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(dropout(x, 0.0, true).is_same(x));
  EXPECT_THAT(message_of([&] { dropout(x, 0.5, true); }), HasSubstr("no random generator"));
  EXPECT_THAT(message_of([&] { dropout(x, 1.5, false); }),
              HasSubstr("dropout probability has to be between 0 and 1, but got 1.5"));
}

}  // namespace
}  // namespace bp
