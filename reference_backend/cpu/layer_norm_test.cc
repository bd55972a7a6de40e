// The CPU's fused native_layer_norm (reference_backend/cpu/layer_norm.cc): values against the
// definition computed in double, and against the composite every other device runs
// (sdk/ops/native/layer_norm.cc), over row lengths with and without a vector tail, every
// weight / bias combination, float32, float64 and bfloat16, strided input, empty shapes, and
// two threads; output geometry; the shared checks' messages.
#include <cmath>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using testing::HasSubstr;

// Deterministic values in [-3, 3) with a non-zero mean per row.
Tensor values(ScalarType dtype, const std::vector<int64_t>& sizes, int seed) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = static_cast<double>((i * 37 + seed * 11) % 61) / 10.0 - 2.5;
  return tensor_of(dtype, v, sizes);
}

// The definition in double over [rows, cols] of the input's values: y, mean, rstd.
struct Expected {
  std::vector<double> y, mean, rstd;
};
Expected reference(const Tensor& input, int64_t cols, const std::optional<Tensor>& weight,
                   const std::optional<Tensor>& bias, double eps) {
  const std::vector<double> x = values_of(input.contiguous());
  const std::vector<double> w = weight ? values_of(*weight) : std::vector<double>();
  const std::vector<double> b = bias ? values_of(*bias) : std::vector<double>();
  Expected e;
  const int64_t rows = cols == 0 ? 0 : static_cast<int64_t>(x.size()) / cols;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0, squares = 0;
    for (int64_t c = 0; c < cols; ++c) sum += x[static_cast<size_t>(r * cols + c)];
    const double mean = sum / static_cast<double>(cols);
    for (int64_t c = 0; c < cols; ++c) {
      const double d = x[static_cast<size_t>(r * cols + c)] - mean;
      squares += d * d;
    }
    const double rstd = 1 / std::sqrt(squares / static_cast<double>(cols) + eps);
    e.mean.push_back(mean);
    e.rstd.push_back(rstd);
    for (int64_t c = 0; c < cols; ++c) {
      double y = (x[static_cast<size_t>(r * cols + c)] - mean) * rstd;
      if (weight) y *= w[static_cast<size_t>(c)];
      if (bias) y += b[static_cast<size_t>(c)];
      e.y.push_back(y);
    }
  }
  return e;
}

struct Case {
  std::vector<int64_t> sizes, normalized;
};

// Row lengths below, at and past the widest vector (8 floats, 4 doubles), with tails; one row,
// several leading dims, a 2-D normalised shape, GPT-2's rows.
const Case kCases[] = {
    {{3, 5}, {5}},   {{2, 3, 37}, {37}}, {{4, 6, 8}, {6, 8}}, {{17}, {17}},
    {{2, 16}, {16}}, {{3, 1}, {1}},      {{128, 768}, {768}},
};

class LayerNormCpu : public testing::TestWithParam<ScalarType> {};

TEST_P(LayerNormCpu, MatchesTheDefinitionAndTheComposite) {
  const ScalarType dtype = GetParam();
  // bfloat16 results are rounded once from float32: a few of its ulps. The others: float32's
  // sums of a few hundred elements.
  const double tol = dtype == ST::kBFloat16 ? 2e-2 : dtype == ST::kFloat32 ? 2e-5 : 1e-12;
  for (const Case& c : kCases) {
    int64_t cols = 1;
    for (int64_t s : c.normalized) cols *= s;
    const Tensor x = values(dtype, c.sizes, 1);
    for (int affine = 0; affine < 4; ++affine) {
      SCOPED_TRACE(testing::Message() << int_list_string(c.sizes) << " affine " << affine);
      std::optional<Tensor> weight, bias;
      if (affine & 1) weight = values(dtype, c.normalized, 2);
      if (affine & 2) bias = values(dtype, c.normalized, 3);
      const auto [y, mean, rstd] = bp::native_layer_norm(x, c.normalized, weight, bias, 1e-5);
      const Expected e = reference(x, cols, weight, bias, 1e-5);
      expect_values(y.reshape({-1}), dtype, e.y, tol);
      expect_values(mean.reshape({-1}), dtype, e.mean, tol);
      expect_values(rstd.reshape({-1}), dtype, e.rstd, tol);
      const auto [cy, cmean, crstd] =
          native::native_layer_norm(x, c.normalized, weight, bias, 1e-5);
      expect_same_geometry(y, cy);
      expect_same_geometry(mean, cmean);
      expect_same_geometry(rstd, crstd);
      expect_values(y.reshape({-1}), dtype, values_of(cy.reshape({-1})), tol);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LayerNormCpu,
                         testing::Values(ST::kFloat32, ST::kFloat64, ST::kBFloat16));

TEST(LayerNormCpu, StridedInputIsNormalisedInItsLogicalOrder) {
  const Tensor x = values(ST::kFloat32, {9, 4}, 5).t();  // [4, 9], column-major
  const Tensor weight = values(ST::kFloat32, {9}, 6);
  const auto [y, mean, rstd] = bp::native_layer_norm(x, {9}, weight, std::nullopt, 1e-5);
  const Expected e = reference(x, 9, weight, std::nullopt, 1e-5);
  EXPECT_TRUE(y.is_contiguous());
  EXPECT_EQ(y.sizes(), IntArrayRef({4, 9}));
  expect_values(y.reshape({-1}), ST::kFloat32, e.y, 2e-5);
  expect_values(mean.reshape({-1}), ST::kFloat32, e.mean, 2e-5);
}

TEST(LayerNormCpu, EmptyShapes) {
  // No rows: empty outputs of the right shapes.
  const auto [y, mean, rstd] =
      bp::native_layer_norm(values(ST::kFloat32, {0, 7}, 1), {7}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(y.sizes(), IntArrayRef({0, 7}));
  EXPECT_EQ(mean.sizes(), IntArrayRef({0, 1}));
  // Empty rows: the mean of nothing is NaN, as the composite's (and PyTorch's) mean.
  const auto [y2, mean2, rstd2] =
      bp::native_layer_norm(values(ST::kFloat32, {3, 0}, 1), {0}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(y2.sizes(), IntArrayRef({3, 0}));
  expect_values(mean2.reshape({-1}), ST::kFloat32, {kNan, kNan, kNan});
  expect_values(rstd2.reshape({-1}), ST::kFloat32, {kNan, kNan, kNan});
}

TEST(LayerNormCpu, TwoThreadsGiveTheSameValuesAsOne) {
  const Tensor x = values(ST::kFloat32, {512, 96}, 7);
  const Tensor bias = values(ST::kFloat32, {96}, 8);
  const int threads = get_num_threads();
  set_num_threads(1);
  const Tensor one = std::get<0>(bp::native_layer_norm(x, {96}, std::nullopt, bias, 1e-5));
  set_num_threads(2);
  const Tensor two = std::get<0>(bp::native_layer_norm(x, {96}, std::nullopt, bias, 1e-5));
  set_num_threads(threads);
  expect_same(two, one);
}

TEST(LayerNormCpu, ChecksAreTheSharedOnes) {
  const Tensor x = values(ST::kFloat32, {2, 3}, 1);
  EXPECT_THAT(message_of([&] { bp::native_layer_norm(x, {4}, std::nullopt, std::nullopt, 1e-5); }),
              HasSubstr("Given normalized_shape=[4], expected input with shape [*, 4], but got "
                        "input of size[2, 3]"));
  EXPECT_THAT(
      message_of([&] {
        bp::native_layer_norm(values(ST::kInt32, {2, 3}, 1), {3}, std::nullopt, std::nullopt, 1e-5);
      }),
      HasSubstr("\"native_layer_norm\" not implemented for 'int32'"));
  EXPECT_THAT(message_of([&] {
                bp::native_layer_norm(x, {3}, values(ST::kFloat64, {3}, 1), std::nullopt, 1e-5);
              }),
              HasSubstr("expected scalar type float32 but found float64"));
}

}  // namespace
}  // namespace bp
