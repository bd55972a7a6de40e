// cat and stack (sdk/ops/native/join.cc): values, promotion, the legacy skip of 1-D empty
// tensors, out= (casts, resizes, refuses overlap), PyTorch's errors, Meta tensors and a plugin
// device (FakeDevice: its copy_ does the work).
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace bp::testing;

TEST(Cat, PutsTheTensorsSideBySideAlongDim) {
  const Tensor a = tensor_of<float>({2, 2}, {1, 2, 3, 4});
  const Tensor b = tensor_of<float>({2, 1}, {5, 6});
  const Tensor rows = cat({a, a.t()}, 0);
  EXPECT_THAT(sizes_of(rows), ElementsAre(4, 2));
  EXPECT_THAT(strides_of(rows), ElementsAre(2, 1));
  EXPECT_THAT(values_of<float>(rows), ElementsAre(1, 2, 3, 4, 1, 3, 2, 4));
  EXPECT_THAT(values_of<float>(cat({a, b}, -1)), ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(Cat, PromotesAndSkipsLegacyEmptyTensors) {
  const Tensor i = tensor_of<int64_t>({2}, {1, 2});
  const Tensor d = tensor_of<double>({1}, {0.5});
  const Tensor r = cat({i, d});
  EXPECT_EQ(r.dtype(), ScalarType::kFloat64);
  EXPECT_THAT(values_of<double>(r), ElementsAre(1, 2, 0.5));
  const Tensor legacy = bp::empty({0}, ScalarType::kFloat32);
  EXPECT_THAT(sizes_of(cat({legacy, tensor_of<float>({2, 3}, {1, 2, 3, 4, 5, 6})}, 1)),
              ElementsAre(2, 3));
}

TEST(Cat, OutCastsResizesAndRefusesOverlap) {
  const Tensor a = tensor_of<int32_t>({2}, {1, 2});
  Tensor out = bp::empty({0}, ScalarType::kFloat64);
  cat_out(out, {a, a});
  EXPECT_THAT(values_of<double>(out), ElementsAre(1, 2, 1, 2));
  Tensor ints = bp::empty({0}, ScalarType::kInt64);
  EXPECT_THAT(message_of([&] { cat_out(ints, {tensor_of<float>({1}, {1.5f})}); }),
              HasSubstr("torch.cat(): input types can't be cast to the desired output type int64"));
  Tensor self = tensor_of<float>({4}, {1, 2, 3, 4});
  EXPECT_THAT(message_of([&] {
                cat_out(self, {self.narrow(0, 0, 2), self.narrow(0, 2, 2)});
              }),
              HasSubstr("unsupported operation"));
}

TEST(Cat, ErrorsArePyTorchs) {
  const Tensor m = bp::empty({2, 3}, ScalarType::kFloat32);
  EXPECT_THAT(message_of([] { cat(std::vector<Tensor>{}); }),
              HasSubstr("torch.cat(): expected a non-empty list of Tensors"));
  EXPECT_THAT(message_of([&] {
                cat({m, bp::empty({}, ScalarType::kFloat32)});
              }),
              HasSubstr("zero-dimensional tensor (at position 1) cannot be concatenated"));
  EXPECT_THAT(message_of([&] {
                cat({m, bp::empty({3}, ScalarType::kFloat32)});
              }),
              HasSubstr("Tensors must have same number of dimensions: got 2 and 1"));
  EXPECT_THAT(message_of([&] {
                cat({m, bp::empty({3, 3}, ScalarType::kFloat32)}, 1);
              }),
              HasSubstr("Sizes of tensors must match except in dimension 1. Expected size 2 but "
                        "got size 3 for tensor number 1 in the list."));
  EXPECT_THAT(message_of([&] {
                cat({m, m}, 2);
              }),
              HasSubstr("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
}

TEST(Cat, MetaAndPluginDevices) {
  const Tensor meta = cat({bp::empty({2, 3}, ScalarType::kFloat32, kMeta),
                           bp::empty({1, 3}, ScalarType::kFloat32, kMeta)});
  EXPECT_EQ(meta.device(), kMeta);
  EXPECT_THAT(sizes_of(meta), ElementsAre(3, 3));
  FakeDevice fake("joins_test");
  const Tensor a = tensor_of<float>({2}, {1, 2}, fake.device());
  const Tensor r = cat({a, a});
  EXPECT_EQ(r.device(), fake.device());
  EXPECT_THAT(values_of<float>(r), ElementsAre(1, 2, 1, 2));
}

TEST(Stack, AddsANewDim) {
  const Tensor a = tensor_of<float>({2}, {1, 2}), b = tensor_of<float>({2}, {3, 4});
  const Tensor first = stack({a, b}), last = stack({a, b}, -1);
  EXPECT_THAT(sizes_of(first), ElementsAre(2, 2));
  EXPECT_THAT(values_of<float>(first), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(values_of<float>(last), ElementsAre(1, 3, 2, 4));
  EXPECT_THAT(sizes_of(stack({bp::empty({}, ScalarType::kInt64)})), ElementsAre(1));
  EXPECT_THAT(message_of([] { stack(std::vector<Tensor>{}); }),
              HasSubstr("stack expects a non-empty TensorList"));
  EXPECT_THAT(message_of([&] {
                stack({a, tensor_of<float>({3}, {1, 2, 3})});
              }),
              HasSubstr("stack expects each tensor to be equal size, but got [2] at entry 0 and "
                        "[3] at entry 1"));
}

}  // namespace
}  // namespace bp
