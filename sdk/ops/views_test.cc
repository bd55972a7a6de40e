// The view ops through the dispatcher: geometry, values, aliasing and version counters, the
// in-place variants, reshape / flatten's copies, and the same results on Meta and on a plugin
// device (views are metadata only; one implementation serves every backend).
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp {
namespace {

using ::testing::ElementsAre;
using namespace bp::testing;

// A CPU int64 tensor holding 0, 1, 2, ... in row-major order.
Tensor iota(IntArrayRef sizes, Device device = kCpu) {
  std::vector<int64_t> values(static_cast<size_t>(multiply_integers(sizes)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  return tensor_of<int64_t>(sizes, values, device);
}

void expect_view(const Tensor& view, const Tensor& base, std::vector<int64_t> sizes,
                 std::vector<int64_t> strides, int64_t offset) {
  EXPECT_EQ(sizes_of(view), sizes);
  EXPECT_EQ(strides_of(view), strides);
  EXPECT_EQ(view.storage_offset(), offset);
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_FALSE(view.is_same(base));
}

TEST(Views, ComputeTheGeometryAndShowTheBaseElements) {
  Tensor t = iota({2, 3, 4});
  expect_view(as_strided(t, {2, 2}, {1, 4}, 1), t, {2, 2}, {1, 4}, 1);
  EXPECT_THAT(values_of<int64_t>(as_strided(t, {2, 2}, {1, 4}, 1)), ElementsAre(1, 5, 2, 6));
  expect_view(alias(t), t, {2, 3, 4}, {12, 4, 1}, 0);
  expect_view(t.view({6, -1}), t, {6, 4}, {4, 1}, 0);
  expect_view(permute(t, {2, 0, 1}), t, {4, 2, 3}, {1, 12, 4}, 0);
  expect_view(transpose(t, 0, -1), t, {4, 3, 2}, {1, 4, 12}, 0);
  expect_view(bp::t(select(t, 0, 1)), t, {4, 3}, {1, 4}, 12);
  expect_view(select(t, 1, -1), t, {2, 4}, {12, 1}, 8);
  EXPECT_THAT(values_of<int64_t>(select(select(t, 1, -1), 0, 1)), ElementsAre(20, 21, 22, 23));
  expect_view(slice(t, 2, 1, std::nullopt, 2), t, {2, 3, 2}, {12, 4, 2}, 1);
  expect_view(narrow(t, 1, -2, 2), t, {2, 2, 4}, {12, 4, 1}, 4);
  expect_view(diagonal(t, 1, 1, 2), t, {2, 3}, {12, 5}, 1);
  EXPECT_THAT(values_of<int64_t>(diagonal(t, 1, 1, 2)), ElementsAre(1, 6, 11, 13, 18, 23));
  expect_view(unsqueeze(t, -1), t, {2, 3, 4, 1}, {12, 4, 1, 1}, 0);
}

TEST(Views, ExpandStretchesSizeOneDimsWithStrideZero) {
  Tensor col = iota({3, 1});
  Tensor e = col.expand({2, 3, 4});
  expect_view(e, col, {2, 3, 4}, {0, 1, 0}, 0);
  EXPECT_THAT(values_of<int64_t>(col.expand({-1, 2})), ElementsAre(0, 0, 1, 1, 2, 2));
  // `implicit` only tells autograd who expanded: same result.
  EXPECT_EQ(strides_of(col.expand({2, 3, 4}, /*implicit=*/true)), strides_of(e));
  expect_view(col.expand_as(iota({5, 3, 2})), col, {5, 3, 2}, {0, 1, 0}, 0);
  expect_view(broadcast_to(col, {2, 3, 4}), col, {2, 3, 4}, {0, 1, 0}, 0);
  EXPECT_EQ(message_of([&] {
              col.expand({3, 2, 4});
            }),
            "The expanded size of the tensor (2) must match the existing size (3) at "
            "non-singleton dimension 1.  Target sizes: [3, 2, 4].  Tensor sizes: [3, 1]");
}

TEST(Views, SqueezeDropsSizeOneDims) {
  Tensor t = iota({1, 3, 1, 2});
  expect_view(squeeze(t), t, {3, 2}, {2, 1}, 0);
  expect_view(squeeze(t, 2), t, {1, 3, 2}, {6, 2, 1}, 0);
  expect_view(squeeze(t, 1), t, {1, 3, 1, 2}, {6, 2, 2, 1}, 0);  // Size 3: kept.
  expect_view(squeeze(t, IntArrayRef{0, -2, 1}), t, {3, 2}, {2, 1}, 0);
  EXPECT_EQ(message_of([&] {
              squeeze(t, IntArrayRef{0, -4});
            }),
            "dim 0 appears multiple times in the list of dims");
}

TEST(Views, ShareTheStorageAndTheVersionCounter) {
  Tensor t = iota({2, 3});
  std::vector<Tensor> views = {as_strided(t, {3}, {2}), alias(t),           t.view({6}),
                               reshape(t, {3, 2}),      flatten(t),         permute(t, {1, 0}),
                               transpose(t, 0, 1),      bp::t(t),           t.expand({4, 2, 3}),
                               unsqueeze(t, 0),         squeeze(t),         select(t, 0, 1),
                               slice(t, 1, 1),          narrow(t, 1, 0, 2), diagonal(t)};
  for (const Tensor& v : views) {
    EXPECT_TRUE(v.is_alias_of(t));
    const uint32_t before = t.version();
    Tensor element = v.dim() == 0 ? v : select(v, 0, 0);
    bp::fill_(element, 7);               // Writing through the view...
    EXPECT_EQ(t.version(), before + 1);  // ...bumps the base's counter.
  }
  t.add_(t);
  for (const Tensor& v : views) EXPECT_EQ(v.version(), t.version());
}

TEST(Reshape, ViewsWhenTheStridesAllowAndCopiesOtherwise) {
  Tensor t = iota({2, 3});
  expect_view(reshape(t, {3, -1}), t, {3, 2}, {2, 1}, 0);
  Tensor tr = transpose(t, 0, 1);
  Tensor copy = reshape(tr, {6});
  EXPECT_FALSE(copy.is_alias_of(t));
  EXPECT_EQ(strides_of(copy), (std::vector<int64_t>{1}));
  EXPECT_THAT(values_of<int64_t>(copy), ElementsAre(0, 3, 1, 4, 2, 5));
  // The copy has a counter of its own.
  const uint32_t base_version = t.version();
  bp::fill_(copy, 0);
  EXPECT_EQ(t.version(), base_version);
  EXPECT_EQ(message_of([&] {
              reshape(t, {4, -1});
            }),
            "shape '[4, -1]' is invalid for input of size 6");
  EXPECT_EQ(message_of([&] { reshape(t, {-1, -1}); }), "only one dimension can be inferred");
}

TEST(Flatten, MergesARangeOfDimsCopyingOnlyWhenNeeded) {
  Tensor t = iota({2, 3, 4});
  expect_view(flatten(t), t, {24}, {1}, 0);
  expect_view(flatten(t, 1), t, {2, 12}, {12, 1}, 0);
  expect_view(flatten(t, 0, -2), t, {6, 4}, {4, 1}, 0);
  EXPECT_TRUE(flatten(t, 1, 1).is_same(t));
  Tensor s = iota({});
  expect_view(flatten(s), s, {1}, {1}, 0);
  EXPECT_EQ(sizes_of(flatten(iota({0, 1, 3, 0}), 1, 2)), (std::vector<int64_t>{0, 3, 0}));
  Tensor copy = flatten(transpose(t, 0, 2), 1);
  EXPECT_FALSE(copy.is_alias_of(t));
  EXPECT_EQ(sizes_of(copy), (std::vector<int64_t>{4, 6}));
  EXPECT_THAT(values_of<int64_t>(select(copy, 0, 1)), ElementsAre(1, 13, 5, 17, 9, 21));
  EXPECT_EQ(message_of([&] { flatten(t, 2, 1); }),
            "flatten() has invalid args: start_dim cannot come after end_dim");
}

TEST(Movedim, MovesDimsToTheirDestinationsKeepingTheOthersInOrder) {
  Tensor t = iota({2, 3, 4});
  expect_view(movedim(t, {0, 1}, {2, 0}), t, {3, 4, 2}, {4, 1, 12}, 0);
  expect_view(t.movedim(-1, 0), t, {4, 2, 3}, {1, 12, 4}, 0);
  expect_view(moveaxis(t, 0, 2), t, {3, 4, 2}, {4, 1, 12}, 0);
  Tensor s = iota({});
  expect_view(movedim(s, 0, -1), s, {}, {}, 0);
  EXPECT_EQ(message_of([&] {
              movedim(t, {0, 0}, {1, 2});
            }),
            "movedim: repeated dim in `source` ([0, 0])");
  EXPECT_EQ(message_of([&] {
              movedim(t, {0, 1}, {2});
            }),
            "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the "
            "same number of dims as destination ([2] dims)");
  // Every dim is wrapped before any is checked for repeats, as in PyTorch.
  EXPECT_EQ(message_of([&] {
              movedim(t, {0, 0}, {1, 3});
            }),
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(Unflatten, SplitsADimIntoAViewInferringOneSize) {
  Tensor t = iota({2, 12});
  expect_view(unflatten(t, 1, {3, -1}), t, {2, 3, 4}, {12, 4, 1}, 0);
  expect_view(t.unflatten(0, {2, 1}), t, {2, 1, 12}, {12, 12, 1}, 0);
  Tensor tr = transpose(t, 0, 1);
  expect_view(unflatten(tr, 0, {6, 2}), t, {6, 2, 2}, {2, 1, 12}, 0);
  EXPECT_EQ(message_of([&] {
              unflatten(t, 1, {5, -1});
            }),
            "unflatten: Provided sizes [5, -1] don't multiply up to the size of dim 1 (12) in the "
            "input tensor");
  EXPECT_EQ(message_of([&] {
              unflatten(t, 1, {-1, -1});
            }),
            "unflatten got an unexpected error:\nonly one dimension can be inferred");
  EXPECT_EQ(message_of([&] { unflatten(t, 1, {}); }), "unflatten: sizes must be non-empty");
  EXPECT_EQ(message_of([&] { unflatten(t, 1, {-2, -1}); }), "invalid shape dimension -2");
}

TEST(Unfold, MakesWindowsAlongADimAsANewLastDim) {
  Tensor t = iota({2, 5});
  Tensor windows = t.unfold(1, 2, 2);
  expect_view(windows, t, {2, 2, 2}, {5, 2, 1}, 0);
  EXPECT_THAT(values_of<int64_t>(windows), ElementsAre(0, 1, 2, 3, 5, 6, 7, 8));
  Tensor s = iota({});
  expect_view(s.unfold(0, 1, 1), s, {1}, {1}, 0);
  EXPECT_EQ(message_of([&] { t.unfold(1, 6, 1); }),
            "maximum size for tensor at dimension 1 is 5 but size is 6");
  EXPECT_EQ(message_of([&] { t.unfold(1, 2, 0); }), "step is 0 but must be > 0");
  EXPECT_EQ(message_of([&] { t.unfold(1, -1, 1); }), "size is -1 but must be >= 0");
}

TEST(ComplexViews, ReadAComplexTensorsPartsAndBack) {
  Tensor z = tensor_of<complex<float>>({2}, {{1.0f, 2.0f}, {3.0f, 4.0f}});
  Tensor parts = view_as_real(z);
  EXPECT_EQ(parts.dtype(), ScalarType::kFloat32);
  expect_view(parts, z, {2, 2}, {2, 1}, 0);
  EXPECT_THAT(values_of<float>(parts), ElementsAre(1.0f, 2.0f, 3.0f, 4.0f));
  EXPECT_THAT(values_of<float>(imag(z)), ElementsAre(2.0f, 4.0f));
  expect_view(imag(z), z, {2}, {2}, 1);
  expect_view(real(z), z, {2}, {2}, 0);
  // A write through a part is a write to z.
  Tensor re = real(z);
  bp::fill_(re, 0.0f);
  EXPECT_EQ(values_of<complex<float>>(z)[1], complex<float>(0.0f, 4.0f));
  Tensor back = view_as_complex(parts);
  EXPECT_EQ(back.dtype(), ScalarType::kComplex64);
  expect_view(back, z, {2}, {1}, 0);
  // real of a real tensor is the tensor itself; imag is an error.
  Tensor x = iota({3});
  EXPECT_TRUE(real(x).is_same(x));
  EXPECT_EQ(message_of([&] { imag(x); }),
            "imag is not implemented for tensors with non-complex dtypes.");
  EXPECT_EQ(message_of([&] { view_as_real(x); }),
            "view_as_real is only supported for complex tensors");
  EXPECT_EQ(message_of([&] {
              view_as_complex(tensor_of<float>({3}, {1, 2, 3}));
            }),
            "Tensor must have a last dimension of size 2");
  EXPECT_EQ(message_of([&] {
              view_as_complex(transpose(tensor_of<float>({2, 2}, {1, 2, 3, 4}), 0, 1));
            }),
            "Tensor must have a last dimension with stride 1");
}

TEST(InplaceViews, GiveSelfTheViewsGeometry) {
  Tensor t = iota({2, 1, 3});
  Tensor same = t;
  const uint32_t version = t.version();
  EXPECT_TRUE(t.transpose_(0, 2).is_same(same));
  EXPECT_EQ(sizes_of(t), (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 3, 3}));
  t.squeeze_(1);
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 3}));
  t.t_();
  EXPECT_THAT(values_of<int64_t>(t), ElementsAre(0, 1, 2, 3, 4, 5));
  t.unsqueeze_(0).unsqueeze_(-1);
  EXPECT_EQ(sizes_of(t), (std::vector<int64_t>{1, 2, 3, 1}));
  t.squeeze_();
  EXPECT_EQ(sizes_of(t), (std::vector<int64_t>{2, 3}));
  t.squeeze_(IntArrayRef{0});
  as_strided_(t, {2}, {2}, 1);
  EXPECT_THAT(values_of<int64_t>(t), ElementsAre(1, 3));
  EXPECT_EQ(t.storage_offset(), 1);
  EXPECT_EQ(t.version(), version);  // Metadata only: no element was written.
  EXPECT_TRUE(t.is_same(same));
  EXPECT_EQ(message_of([&] { as_strided_(t, {7}, {1}); }),
            "setStorage: sizes [7], strides [1], storage offset 1, and itemsize 8 requiring a "
            "storage size of 64 are out of bounds for storage of size 48");
  EXPECT_EQ(sizes_of(t), (std::vector<int64_t>{2}));  // Unchanged after the error.
}

// torch.ones(2, 3, 4).t_() says "t_() expects a tensor with <= 2 dimensions, but self is 3D"
// (and .t() says "t() ..."): the message names the op called.
TEST(InplaceViews, TransposeInPlaceNamesItselfWhenSelfHasMoreThanTwoDims) {
  Tensor t = iota({2, 3, 4});
  EXPECT_EQ(message_of([&] { t.t_(); }),
            "t_() expects a tensor with <= 2 dimensions, but self is 3D");
  EXPECT_EQ(sizes_of(t), (std::vector<int64_t>{2, 3, 4}));  // unchanged
  EXPECT_EQ(message_of([&] { t.t(); }),
            "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

// Every view op applied to `t` (3-d, at least [2, 3, 4]); for comparing devices.
std::vector<Tensor> every_view(const Tensor& t) {
  Tensor tr = transpose(t, 0, 2);
  return {as_strided(t, {2, 2}, {1, 5}, 3),
          alias(t),
          t.view({-1}),
          reshape(t, {4, -1}),
          reshape(tr, {-1}),
          flatten(tr, 1),
          permute(t, {1, 2, 0}),
          tr,
          bp::t(select(t, 2, 1)),
          unsqueeze(t, 1).expand({2, 5, 3, 4}),
          squeeze(unsqueeze(t, 0)),
          slice(t, 1, -2, std::nullopt, 2),
          narrow(t, 2, 1, 2),
          diagonal(t, -1, 0, 1)};
}

TEST(Views, MetaAndPluginTensorsGetTheCpuGeometry) {
  FakeDevice dev("views_test_device");
  const Tensor cpu = iota({2, 3, 4});
  const Tensor meta = bp::empty({2, 3, 4}, ScalarType::kInt64, kMeta);
  const Tensor plugin = iota({2, 3, 4}, dev.device());
  const std::vector<Tensor> want = every_view(cpu);
  const std::vector<Tensor> on_meta = every_view(meta);
  const std::vector<Tensor> on_plugin = every_view(plugin);
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    for (const Tensor& got : {on_meta[i], on_plugin[i]}) {
      EXPECT_EQ(sizes_of(got), sizes_of(want[i]));
      EXPECT_EQ(strides_of(got), strides_of(want[i]));
      EXPECT_EQ(got.storage_offset(), want[i].storage_offset());
    }
    EXPECT_EQ(on_meta[i].device(), kMeta);
    EXPECT_EQ(on_plugin[i].device(), dev.device());
    EXPECT_EQ(values_of<int64_t>(on_plugin[i]), values_of<int64_t>(want[i]));
  }
  // reshape's copies stay on their device.
  EXPECT_FALSE(on_meta[4].is_alias_of(meta));
  EXPECT_FALSE(on_plugin[4].is_alias_of(plugin));
}

}  // namespace
}  // namespace bp
