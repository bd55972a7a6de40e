// The matrix products on the CPU (reference_backend/cpu/matmul.cc, sdk/ops/native/linalg.cc):
// values against a naive loop in every dtype and operand layout, on one and two threads; the
// output paths (non-contiguous out, in place with aliased operands, beta = 0); errors and Meta
// geometry. The conformance suite checks the same ops against its own reference.
#include <cmath>
#include <complex>
#include <cstdint>
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

// Small non-negative integers: exact in every dtype; their sums exact in float and double, and
// wrapping in the integral dtypes.
Tensor ramp(ScalarType dtype, std::vector<int64_t> sizes, int64_t seed) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = static_cast<double>((i * 7 + seed) % 9);
  return tensor_of(dtype, v, sizes);
}

// Exact values `want` (logical order) as `dtype` computes them: wrapped to an integral dtype,
// rounded once to a floating one.
void expect_product(const Tensor& r, ScalarType dtype, const std::vector<double>& want) {
  const ScalarType exact = is_integral(dtype, false) ? ST::kInt64 : ST::kFloat64;
  expect_same(r.contiguous().reshape({-1}), tensor_of(exact, want).to(dtype));
}

// a [n, k] @ b [k, p] in double, from the tensors' values in logical order.
std::vector<double> naive_product(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = values_of(a.contiguous()), y = values_of(b.contiguous());
  const int64_t n = a.size(0), k = a.size(1), p = b.size(1);
  std::vector<double> out(static_cast<size_t>(n * p), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      for (int64_t c = 0; c < p; ++c) out[i * p + c] += x[i * k + j] * y[j * p + c];
  return out;
}

class MatmulDtypes : public testing::TestWithParam<ScalarType> {};

TEST_P(MatmulDtypes, MmMatchesTheNaiveProductInEveryLayout) {
  const ScalarType dtype = GetParam();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    // Sizes past the parallel threshold (2^18 multiply-adds) split rows across threads.
    for (auto [n, k, p] : {std::tuple{3, 4, 5}, std::tuple{1, 7, 1}, std::tuple{96, 80, 72}}) {
      const Tensor a = ramp(dtype, {n, k}, 1), b = ramp(dtype, {k, p}, 2);
      const std::vector<double> want = naive_product(a, b);
      const Tensor at = a.t().contiguous().t();                          // a, column-major
      Tensor b_sliced = empty({k, 2 * p}, dtype).slice(1, 0, 2 * p, 2);  // b, every other column
      bp::copy_(b_sliced, b);
      for (const auto& [x, y] : {std::pair{a, b}, std::pair{at, b}, std::pair{a, b_sliced}}) {
        const Tensor r = mm(x, y);
        EXPECT_EQ(r.dtype(), dtype);
        EXPECT_THAT(r.sizes(), ElementsAre(n, p));
        EXPECT_TRUE(r.is_contiguous());
        expect_product(r, dtype, want);
      }
    }
  }
  set_num_threads(1);
}

TEST_P(MatmulDtypes, BmmAndBaddbmmMatchPerBatch) {
  const ScalarType dtype = GetParam();
  const Tensor a = ramp(dtype, {3, 4, 5}, 1), b = ramp(dtype, {3, 5, 2}, 2);
  const Tensor self = ramp(dtype, {2}, 5);
  const Tensor r = bmm(a, b), r2 = baddbmm(self, a, b, 2, 3);
  ASSERT_THAT(r.sizes(), ElementsAre(3, 4, 2));
  const std::vector<double> s = values_of(self);
  for (int64_t i = 0; i < 3; ++i) {
    const std::vector<double> want = naive_product(a.select(0, i), b.select(0, i));
    expect_product(r.select(0, i), dtype, want);
    std::vector<double> scaled;
    for (size_t j = 0; j < want.size(); ++j) scaled.push_back(2 * s[j % 2] + 3 * want[j]);
    expect_product(r2.select(0, i), dtype, scaled);
  }
}

INSTANTIATE_TEST_SUITE_P(Products, MatmulDtypes,
                         testing::Values(ST::kUInt8, ST::kInt8, ST::kInt16, ST::kInt32, ST::kInt64,
                                         ST::kBFloat16, ST::kFloat32, ST::kFloat64, ST::kComplex64,
                                         ST::kComplex128),
                         [](const testing::TestParamInfo<ScalarType>& info) {
                           return std::string(scalar_type_name(info.param));
                         });

// A single row or column of output runs gemv, with either operand in either layout.
TEST(Matmul, RowAndColumnProductsInEveryLayout) {
  for (ScalarType dtype : {ST::kFloat32, ST::kComplex128}) {
    for (auto [n, k, p] : {std::tuple{1, 9, 6}, std::tuple{6, 9, 1}}) {
      const Tensor a = ramp(dtype, {n, k}, 1), b = ramp(dtype, {k, p}, 2);
      const std::vector<double> want = naive_product(a, b);
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          const Tensor x = ta ? a.t().contiguous().t() : a, y = tb ? b.t().contiguous().t() : b;
          expect_product(mm(x, y), dtype, want);
          expect_product(addmm(ramp(dtype, {p}, 3), x, y, 0), dtype, want);
        }
      }
    }
  }
}

TEST(Matmul, IntegersWrapInTheirDtype) {
  const Tensor a = int_tensor_of(ST::kUInt8, {200, 100}).view({1, 2});
  const Tensor b = int_tensor_of(ST::kUInt8, {1, 1}).view({2, 1});
  expect_int_values(mm(a, b).view({-1}), ST::kUInt8, {44});  // 300 mod 256
}

TEST(Matmul, BFloat16SumsInFloatAndRoundsOnce) {
  const Tensor a = tensor_of(ST::kBFloat16, {256, 1, 1}, {1, 3});
  const Tensor b = tensor_of(ST::kBFloat16, {1, 1, 1}, {3, 1});
  expect_values(mm(a, b).view({-1}), ST::kBFloat16, {258});
}

TEST(Matmul, AddmmScalesAndBroadcastsSelf) {
  const Tensor m1 = tensor_of(ST::kFloat32, {1, 2, 3, 4}, {2, 2});
  const Tensor m2 = tensor_of(ST::kFloat32, {1, 0, 0, 1}, {2, 2});
  const Tensor row = tensor_of(ST::kFloat32, {10, 20});
  expect_values(addmm(row, m1, m2, 0.5, 2).view({-1}), ST::kFloat32, {7, 14, 11, 18});
  // beta = 0 ignores self, NaN included.
  const Tensor nans = tensor_of(ST::kFloat32, {kNan, kNan});
  expect_values(addmm(nans, m1, m2, 0).view({-1}), ST::kFloat32, {1, 2, 3, 4});
  expect_values(addmm(nans, m1, m2).view({-1}), ST::kFloat32, {kNan, kNan, kNan, kNan});
}

TEST(Matmul, OutOfAnyLayoutAndInPlaceWithAliasedOperands) {
  const Tensor a = tensor_of(ST::kFloat64, {1, 2, 3, 4}, {2, 2});
  Tensor out = empty({2, 2}, ST::kFloat64).t();  // column-major: not BLAS's row-major out
  mm_out(out, a, a);
  EXPECT_THAT(out.strides(), ElementsAre(1, 2));
  expect_values(out.contiguous().view({-1}), ST::kFloat64, {7, 10, 15, 22});
  // self is also mat1 and mat2: the product is taken before self is written.
  Tensor x = a.clone();
  x.addmm_(x, x);
  expect_values(x.view({-1}), ST::kFloat64, {8, 12, 18, 26});
  // An empty contraction leaves beta * self.
  Tensor y = a.clone();
  y.addmm_(empty({2, 0}, ST::kFloat64), empty({0, 2}, ST::kFloat64), 3);
  expect_values(y.view({-1}), ST::kFloat64, {3, 6, 9, 12});
}

TEST(Matmul, ErrorsArePyTorchs) {
  const Tensor m = empty({2, 3}, ST::kFloat32);
  EXPECT_THAT(message_of([&] { mm(empty({3}, ST::kFloat32), m); }),
              HasSubstr("self must be a matrix"));
  EXPECT_THAT(message_of([&] { mm(m, m); }),
              HasSubstr("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"));
  EXPECT_THAT(message_of([&] {
                mm(m, empty({3, 2}, ST::kFloat64));
              }),
              HasSubstr("expected scalar type float32 but found float64"));
  EXPECT_THAT(message_of([&] {
                mm(empty({2, 2}, ST::kBool), empty({2, 2}, ST::kBool));
              }),
              HasSubstr("\"mm\" not implemented for 'bool'"));
  EXPECT_THAT(message_of([&] {
                bmm(empty({2, 3, 4}, ST::kFloat32), empty({2, 5, 2}, ST::kFloat32));
              }),
              HasSubstr("Expected size for first two dimensions of batch2 tensor to be: [2, 4] "
                        "but got: [2, 5]."));
  EXPECT_THAT(message_of([&] {
                addmm(empty({2, 2}, ST::kFloat64), m, empty({3, 2}, ST::kFloat32));
              }),
              HasSubstr("self and mat2 must have the same dtype"));
  EXPECT_THAT(message_of([&] {
                Tensor s = empty({2}, ST::kFloat32);
                s.addmm_(m, empty({3, 2}, ST::kFloat32));
              }),
              HasSubstr("Bad in-place call: input tensor size [2] and output tensor size [2, 2]"));
  EXPECT_THAT(message_of([&] {
                Tensor out = empty({2, 2}, ST::kFloat64);
                mm_out(out, m, empty({3, 2}, ST::kFloat32));
              }),
              HasSubstr("Expected out tensor to have dtype float32, but got float64 instead"));
  EXPECT_THAT(message_of([&] { matmul(empty({}, ST::kFloat32), empty({3}, ST::kFloat32)); }),
              HasSubstr("both arguments to matmul need to be at least 1D, but they are 0D and 1D"));
  EXPECT_THAT(message_of([&] { matmul(empty({3}, ST::kFloat32), empty({4}, ST::kFloat32)); }),
              HasSubstr("inconsistent tensor size, expected tensor [3] and src [4]"));
}

TEST(Matmul, MetaTensorsGetTheProductsGeometry) {
  const Tensor r = addmm(empty({5}, ST::kFloat32, kMeta), empty({3, 4}, ST::kFloat32, kMeta),
                         empty({4, 5}, ST::kFloat32, kMeta));
  EXPECT_EQ(r.device(), kMeta);
  EXPECT_THAT(r.sizes(), ElementsAre(3, 5));
  EXPECT_THAT(r.strides(), ElementsAre(5, 1));
  EXPECT_THAT(bmm(empty({2, 3, 4}, ST::kInt64, kMeta), empty({2, 4, 6}, ST::kInt64, kMeta)).sizes(),
              ElementsAre(2, 3, 6));
}

TEST(Matmul, MatmulFollowsNumpysRules) {
  const auto shape = [](std::vector<int64_t> a, std::vector<int64_t> b) {
    const Tensor r = matmul(ramp(ST::kFloat32, a, 1), ramp(ST::kFloat32, b, 2));
    return std::vector<int64_t>(r.sizes().begin(), r.sizes().end());
  };
  EXPECT_THAT(shape({4}, {4}), ElementsAre());
  EXPECT_THAT(shape({3, 4}, {4}), ElementsAre(3));
  EXPECT_THAT(shape({4}, {4, 3}), ElementsAre(3));
  EXPECT_THAT(shape({2, 3, 4}, {4}), ElementsAre(2, 3));
  EXPECT_THAT(shape({2, 3, 4}, {4, 5}), ElementsAre(2, 3, 5));
  EXPECT_THAT(shape({4}, {2, 4, 3}), ElementsAre(2, 3));
  EXPECT_THAT(shape({2, 1, 3, 4}, {5, 4, 2}), ElementsAre(2, 5, 3, 2));
  // Values of a broadcast batch: each [3, 4] of a against the one [4, 2] of b.
  const Tensor a = ramp(ST::kFloat64, {2, 3, 4}, 1), b = ramp(ST::kFloat64, {1, 4, 2}, 2);
  const Tensor r = matmul(a, b);
  for (int64_t i = 0; i < 2; ++i) {
    expect_product(r.select(0, i), ST::kFloat64, naive_product(a.select(0, i), b.select(0, 0)));
  }
}

TEST(Matmul, LinearIsInputTimesWeightTransposedPlusBias) {
  const Tensor input = tensor_of(ST::kFloat32, {1, 2, 3, 4, 5, 6}, {1, 2, 3});
  const Tensor weight = tensor_of(ST::kFloat32, {1, 0, 0, 0, 1, 1}, {2, 3});
  const Tensor bias = tensor_of(ST::kFloat32, {10, 20});
  const Tensor r = linear(input, weight, bias);
  EXPECT_THAT(r.sizes(), ElementsAre(1, 2, 2));
  expect_values(r.view({-1}), ST::kFloat32, {11, 25, 14, 31});
  expect_values(linear(input.select(0, 0), weight, std::nullopt).view({-1}), ST::kFloat32,
                {1, 5, 4, 11});
}

}  // namespace
}  // namespace bp
