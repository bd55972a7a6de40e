#include "sdk/core/views.h"

#include <numeric>

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);
using V = DimVector;
V vec(IntArrayRef r) { return V(r.begin(), r.end()); }

template <typename F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorCode::kInternal, "no error");
}

// A CPU int64 tensor holding 0, 1, 2, ... in row-major order.
Tensor arange(IntArrayRef sizes) {
  Tensor t = native::empty(sizes, ScalarType::kInt64, kCpu);
  std::iota(t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel(), 0);
  return t;
}

// The elements of the int64 tensor `t` in row-major order (any strides).
std::vector<int64_t> values(const Tensor& t) {
  const int64_t* base = t.data_ptr<int64_t>();
  std::vector<int64_t> out;
  DimVector index(t.dim(), 0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.stride(d);
    out.push_back(base[offset]);
    for (int64_t d = t.dim() - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
  return out;
}

void expect_view(const Tensor& view, const Tensor& base, V sizes, V strides, int64_t offset) {
  EXPECT_EQ(vec(view.sizes()), sizes);
  EXPECT_EQ(vec(view.strides()), strides);
  EXPECT_EQ(view.storage_offset(), offset);
  EXPECT_TRUE(view.is_alias_of(base));
  EXPECT_FALSE(view.is_same(base));
}

TEST(AsStrided, ViewsTheStorageWithTheGivenGeometry) {
  Tensor t = arange({6});
  Tensor v = native::as_strided(t, {2, 2}, {1, 2}, 1);
  expect_view(v, t, {2, 2}, {1, 2}, 1);
  EXPECT_EQ(values(v), (std::vector<int64_t>{1, 3, 2, 4}));
  expect_view(native::as_strided(v, {3}, {1}), t, {3}, {1}, 1);  // Keeps the offset by default.
}

TEST(AsStrided, RejectsGeometryOutsideTheStorage) {
  Tensor t = native::empty({6}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] {
              native::as_strided(t, {2, 3}, {3, 1}, 1);
            }).message(),
            "setStorage: sizes [2, 3], strides [3, 1], storage offset 1, and itemsize 4 requiring "
            "a storage size "
            "of 28 are out of bounds for storage of size 24");
  EXPECT_EQ(error_of([&] { native::as_strided(t, {2}, {-1}); }).message(),
            "as_strided: Negative strides are not supported at the moment, got strides: [-1]");
  EXPECT_EQ(error_of([&] {
              native::as_strided(t, {2}, {1, 1});
            }).message(),
            "mismatch in length of strides and shape");
  EXPECT_EQ(error_of([&] { native::as_strided(t, {2}, {1}, -1); }).message(),
            "Tensor: invalid storage offset -1");
  // No elements: any offset fits.
  EXPECT_EQ(native::as_strided(t, {0}, {1}, 100).numel(), 0);
  Tensor meta = native::empty({6}, ScalarType::kFloat32, kMeta);
  EXPECT_THROW(native::as_strided(meta, {7}, {1}), Error);  // Meta storages are checked too.
}

TEST(View, ComputesStridesForCompatibleShapes) {
  Tensor t = arange({2, 3, 4});
  expect_view(native::view(t, {6, 4}), t, {6, 4}, {4, 1}, 0);
  expect_view(native::view(t, {-1}), t, {24}, {1}, 0);
  expect_view(native::view(t, {2, 1, 12}), t, {2, 1, 12}, {12, 12, 1}, 0);
  // Transposed inner dims can still split/merge the outer one.
  Tensor tr = native::transpose(t, 1, 2);  // [2, 4, 3] strides [12, 1, 4]
  expect_view(native::view(tr, {2, 2, 2, 3}), t, {2, 2, 2, 3}, {12, 2, 1, 4}, 0);
  Tensor s = native::empty({}, ScalarType::kFloat32, kCpu);
  expect_view(native::view(s, {1, 1}), s, {1, 1}, {1, 1}, 0);
  Tensor z = native::empty({0, 3}, ScalarType::kFloat32, kCpu);
  expect_view(native::view(z, {3, 0}), z, {3, 0}, {1, 1}, 0);
}

TEST(View, RejectsIncompatibleShapesAndStrides) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] {
              native::view(t, {2, 5});
            }).message(),
            "shape '[2, 5]' is invalid for input of size 6");
  EXPECT_EQ(error_of([&] {
              native::view(t, {-1, -1});
            }).message(),
            "only one dimension can be inferred");
  EXPECT_EQ(error_of([&] { native::view(t, {-2, 3}); }).message(), "invalid shape dimension -2");
  EXPECT_EQ(error_of([&] {
              native::view(t, {4, -1});
            }).message(),
            "shape '[4, -1]' is invalid for input of size 6");
  EXPECT_EQ(error_of([&] { native::view(native::transpose(t, 0, 1), {6}); }).message(),
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.");
  Tensor z = native::empty({0, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] {
              native::view(z, {-1, 0});
            }).message(),
            "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified "
            "dimension size -1 can be "
            "any value and is ambiguous");
}

TEST(TryView, GivesAViewOrNothing) {
  Tensor t = arange({2, 3});
  std::optional<Tensor> v = native::try_view(t, {3, -1});
  ASSERT_TRUE(v.has_value());
  expect_view(*v, t, {3, 2}, {2, 1}, 0);
  EXPECT_FALSE(native::try_view(native::transpose(t, 0, 1), {6}).has_value());
  // Errors about the shape itself are raised, not reported as "no view".
  EXPECT_EQ(error_of([&] { native::try_view(t, {4}); }).message(),
            "shape '[4]' is invalid for input of size 6");
}

TEST(Reshape, TheCoreVersionOnlyViews) {
  Tensor t = arange({2, 3});
  expect_view(native::reshape(t, {6}), t, {6}, {1}, 0);
  Error e = error_of([&] { native::reshape(native::transpose(t, 0, 1), {6}); });
  EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  EXPECT_EQ(e.message(),
            "native::reshape only makes views; reshaping Tensor(int64[3, 2], cpu) to [6] needs a "
            "copy: call bp::reshape (sdk/ops)");
}

TEST(Permute, ReordersDims) {
  Tensor t = native::empty({2, 3, 4}, ScalarType::kFloat32, kCpu);
  expect_view(native::permute(t, {2, 0, 1}), t, {4, 2, 3}, {1, 12, 4}, 0);
  expect_view(native::permute(t, {-1, -2, -3}), t, {4, 3, 2}, {1, 4, 12}, 0);
  EXPECT_EQ(error_of([&] {
              native::permute(t, {0, 1});
            }).message(),
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the "
            "desired ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2");
  EXPECT_EQ(error_of([&] {
              native::permute(t, {0, 1, -3});
            }).message(),
            "permute(): duplicate dims are not allowed.");
  EXPECT_EQ(error_of([&] { native::permute(t, {0, 1, 3}); }).code(), ErrorCode::kIndexError);
}

TEST(Transpose, SwapsTwoDims) {
  Tensor t = native::empty({2, 3, 4}, ScalarType::kFloat32, kCpu);
  Tensor v = native::transpose(t, 0, -1);
  expect_view(v, t, {4, 3, 2}, {1, 4, 12}, 0);
  EXPECT_FALSE(v.is_contiguous());
  EXPECT_TRUE(v.is_non_overlapping_and_dense());
  expect_view(native::transpose(t, 1, 1), t, {2, 3, 4}, {12, 4, 1}, 0);
  Tensor s = native::empty({}, ScalarType::kFloat32, kCpu);
  expect_view(native::transpose(s, 0, -1), s, {}, {}, 0);
}

TEST(T, TransposesUpToTwoDims) {
  Tensor m = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  expect_view(native::t(m), m, {3, 2}, {1, 3}, 0);
  Tensor v = native::empty({5}, ScalarType::kFloat32, kCpu);
  expect_view(native::t(v), v, {5}, {1}, 0);
  Tensor c = native::empty({2, 3, 4}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] { native::t(c); }).message(),
            "t() expects a tensor with <= 2 dimensions, but self is 3D");
}

TEST(Expand, StretchesSizeOneDimsWithZeroStride) {
  Tensor t = native::empty({3, 1}, ScalarType::kFloat32, kCpu);
  Tensor e = native::expand(t, {2, 3, 4});
  expect_view(e, t, {2, 3, 4}, {0, 1, 0}, 0);
  EXPECT_FALSE(e.is_non_overlapping_and_dense());
  expect_view(native::expand(t, {-1, 5}), t, {3, 5}, {1, 0}, 0);
  expect_view(native::expand(t, {1, 3, 1}), t, {1, 3, 1}, {3, 1, 1},
              0);  // Size-1 new dim keeps a real stride.
  expect_view(native::expand_as(t, native::empty({7, 3, 2}, ScalarType::kInt8, kCpu)), t, {7, 3, 2},
              {0, 1, 0}, 0);
  Tensor s = native::empty({}, ScalarType::kFloat32, kCpu);
  expect_view(native::expand(s, {2, 2}), s, {2, 2}, {0, 0}, 0);
}

TEST(Expand, ReportsPyTorchsErrors) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_of([&] { native::expand(t, {3}); }).message(),
            "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be "
            "greater or equal "
            "to the number of dimensions in the tensor (2)");
  EXPECT_EQ(error_of([&] {
              native::expand(t, {2, 4});
            }).message(),
            "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
            "dimension 1.  "
            "Target sizes: [2, 4].  Tensor sizes: [2, 3]");
  EXPECT_EQ(
      error_of([&] {
        native::expand(t, {-1, 2, 3});
      }).message(),
      "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
}

TEST(Squeeze, RemovesSizeOneDims) {
  Tensor t = native::empty({1, 3, 1, 2}, ScalarType::kFloat32, kCpu);
  expect_view(native::squeeze(t), t, {3, 2}, {2, 1}, 0);
  expect_view(native::squeeze(t, 2), t, {1, 3, 2}, {6, 2, 1}, 0);
  expect_view(native::squeeze(t, 1), t, {1, 3, 1, 2}, {6, 2, 2, 1}, 0);  // Not size 1: kept.
  expect_view(native::squeeze(t, IntArrayRef{0, -2}), t, {3, 2}, {2, 1}, 0);
  EXPECT_EQ(error_of([&] {
              native::squeeze(t, IntArrayRef{0, -4});
            }).message(),
            "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(error_of([&] { native::squeeze(t, 4); }).message(),
            "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  Tensor s = native::empty({}, ScalarType::kFloat32, kCpu);
  expect_view(native::squeeze(s, 0), s, {}, {}, 0);
}

TEST(Unsqueeze, InsertsASizeOneDim) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  expect_view(native::unsqueeze(t, 0), t, {1, 2, 3}, {6, 3, 1}, 0);
  expect_view(native::unsqueeze(t, 1), t, {2, 1, 3}, {3, 3, 1}, 0);
  expect_view(native::unsqueeze(t, -1), t, {2, 3, 1}, {3, 1, 1}, 0);
  EXPECT_EQ(error_of([&] { native::unsqueeze(t, 3); }).message(),
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

TEST(Select, DropsADimAtAnIndex) {
  Tensor t = arange({2, 3});
  Tensor row = native::select(t, 0, 1);
  expect_view(row, t, {3}, {1}, 3);
  EXPECT_EQ(values(row), (std::vector<int64_t>{3, 4, 5}));
  expect_view(native::select(t, 1, -1), t, {2}, {3}, 2);
  Error e = error_of([&] { native::select(t, 1, 3); });
  EXPECT_EQ(e.code(), ErrorCode::kIndexError);
  EXPECT_EQ(e.message(), "select(): index 3 out of range for tensor of size [2, 3] at dimension 1");
  EXPECT_EQ(error_of([&] { native::select(t, -1, -4); }).message(),
            "select(): index -4 out of range for tensor of size [2, 3] at dimension 1");
  EXPECT_EQ(error_of([&] {
              native::select(native::empty({}, ScalarType::kFloat32, kCpu), 0, 0);
            }).message(),
            "select() cannot be applied to a 0-dim tensor.");
}

TEST(Slice, ClampsStartAndEndAndSteps) {
  Tensor t = arange({10});
  expect_view(native::slice(t, 0, 2, 8, 3), t, {2}, {3}, 2);
  EXPECT_EQ(values(native::slice(t, 0, 2, 8, 3)), (std::vector<int64_t>{2, 5}));
  expect_view(native::slice(t, 0, -3), t, {3}, {1}, 7);
  expect_view(native::slice(t, 0, -100, 100), t, {10}, {1}, 0);
  expect_view(native::slice(t, 0, 8, 2), t, {0}, {1}, 8);
  expect_view(native::slice(t, 0, 20), t, {0}, {1}, 10);
  Tensor m = native::empty({4, 6}, ScalarType::kFloat32, kCpu);
  expect_view(native::slice(m, 1, 1, std::nullopt, 2), m, {4, 3}, {6, 2}, 1);
  EXPECT_EQ(error_of([&] { native::slice(t, 0, 0, 5, 0); }).message(),
            "slice step must be positive");
  EXPECT_EQ(error_of([&] { native::slice(t, 0, 0, 5, -1); }).message(),
            "slice step must be positive");
  EXPECT_EQ(
      error_of([&] { native::slice(native::empty({}, ScalarType::kFloat32, kCpu)); }).message(),
      "slice() cannot be applied to a 0-dim tensor.");
}

TEST(Narrow, TakesARangeOfADim) {
  Tensor t = native::empty({3, 4}, ScalarType::kFloat32, kCpu);
  expect_view(native::narrow(t, 1, 1, 2), t, {3, 2}, {4, 1}, 1);
  expect_view(native::narrow(t, 0, -2, 2), t, {2, 4}, {4, 1}, 4);
  expect_view(native::narrow(t, 0, 3, 0), t, {0, 4}, {4, 1}, 12);
  Error e = error_of([&] { native::narrow(t, 0, 4, 0); });
  EXPECT_EQ(e.code(), ErrorCode::kIndexError);
  EXPECT_EQ(e.message(), "start out of range (expected to be in range of [-3, 3], but got 4)");
  EXPECT_EQ(error_of([&] { native::narrow(t, 0, 2, 2); }).message(),
            "start (2) + length (2) exceeds dimension size (3).");
  EXPECT_EQ(error_of([&] { native::narrow(t, 0, 0, -1); }).message(),
            "narrow(): length must be non-negative.");
  EXPECT_EQ(error_of([&] {
              native::narrow(native::empty({}, ScalarType::kFloat32, kCpu), 0, 0, 0);
            }).message(),
            "narrow() cannot be applied to a 0-dim tensor.");
}

TEST(Diagonal, ViewsADiagonalAsTheLastDim) {
  Tensor t = arange({3, 4});
  Tensor d = native::diagonal(t);
  expect_view(d, t, {3}, {5}, 0);
  EXPECT_EQ(values(d), (std::vector<int64_t>{0, 5, 10}));
  EXPECT_EQ(values(native::diagonal(t, 1)), (std::vector<int64_t>{1, 6, 11}));
  EXPECT_EQ(values(native::diagonal(t, -1)), (std::vector<int64_t>{4, 9}));
  expect_view(native::diagonal(t, 10), t, {0}, {5}, 0);
  Tensor b = native::empty({2, 3, 4}, ScalarType::kFloat32, kCpu);
  expect_view(native::diagonal(b, 0, 0, 2), b, {3, 2}, {4, 13}, 0);
  expect_view(native::diagonal(b, 1, -1, 1), b, {2, 2}, {12, 5}, 4);
  EXPECT_EQ(error_of([&] { native::diagonal(b, 0, 1, -2); }).message(),
            "diagonal dimensions cannot be identical 1, -2");
}

TEST(Alias, SharesEverythingButTheImpl) {
  Tensor t = native::empty({2, 3}, ScalarType::kFloat32, kCpu);
  Tensor a = native::alias(t);
  expect_view(a, t, {2, 3}, {3, 1}, 0);
  a.impl()->set_sizes_and_strides({6}, {1});
  EXPECT_EQ(vec(t.sizes()), (V{2, 3}));  // Metadata is per view.
}

}  // namespace
}  // namespace bp
