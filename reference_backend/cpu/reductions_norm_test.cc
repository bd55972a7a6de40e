// var and norm on CPU against naive loops (two-pass variance, direct p-norm sums, in double).
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/reductions_test_util.h"
#include "sdk/core/warning.h"

namespace bp::reductions_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<ScalarType> kFloatingAndComplex = {
    ScalarType::kFloat16, ScalarType::kBFloat16,  ScalarType::kFloat32,
    ScalarType::kFloat64, ScalarType::kComplex64, ScalarType::kComplex128};

ScalarType real_dtype(ScalarType t) {
  if (t == ScalarType::kComplex64) return ScalarType::kFloat32;
  if (t == ScalarType::kComplex128) return ScalarType::kFloat64;
  return t;
}

// Relative tolerance of a few roundings in `dtype`.
double tolerance(ScalarType dtype) {
  switch (real_dtype(dtype)) {
    case ScalarType::kFloat16:
      return 2e-3;
    case ScalarType::kBFloat16:
      return 1.6e-2;
    case ScalarType::kFloat32:
      return 4e-6;
    default:
      return 1e-12;
  }
}

// Equal where `want` is not finite, within `rel` relative to it otherwise.
void expect_close(const std::vector<double>& got, const std::vector<double>& want, double rel) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i << ": " << got[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << i;
    } else {
      EXPECT_NEAR(got[i], want[i], rel * (1e-30 + std::abs(want[i]))) << i;
    }
  }
}

double naive_var(const std::vector<Complex>& g, double correction) {
  if (g.empty()) return std::nan("");
  Complex mean = 0;
  for (const Complex& v : g) mean += v;
  mean /= double(g.size());
  double m2 = 0;
  for (const Complex& v : g) m2 += std::norm(v - mean);
  return m2 / std::max(0.0, double(g.size()) - correction);
}

double naive_norm(const std::vector<Complex>& g, double p) {
  if (p == 0) {
    double n = 0;
    for (const Complex& v : g) n += v != Complex(0) ? 1 : 0;
    return n;
  }
  if (std::isinf(p)) {
    double best = p > 0 ? 0 : kInf;
    for (const Complex& v : g)
      best = p > 0 ? std::max(best, std::abs(v)) : std::min(best, std::abs(v));
    return best;
  }
  double s = 0;
  for (const Complex& v : g) s += std::pow(std::abs(v), p);
  return std::pow(s, 1 / p);
}

template <typename Fn>
std::vector<double> each_group(const Groups& groups, Fn fn) {
  std::vector<double> out;
  for (const auto& g : groups) out.push_back(fn(g));
  return out;
}

// ---- var ------------------------------------------------------------------------------------

TEST(Var, FloatingAndComplexDtypesOverEveryDimListMatchNaiveLoop) {
  for (ScalarType dtype : kFloatingAndComplex) {
    const Tensor x = random_tensor({3, 4, 5}, dtype, 5);
    for (const std::vector<int64_t>& dims : kDimLists) {
      for (double correction : {0.0, 1.0, 2.5}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " dims " << int_list_string(dims) << " correction " << correction);
        const Tensor r = x.var(IntArrayRef(dims), Scalar(correction), /*keepdim=*/true);
        EXPECT_EQ(r.dtype(), real_dtype(dtype));
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, true));
        expect_close(
            real_elements(r),
            each_group(reduction_groups(x, dims),
                       [&](const std::vector<Complex>& g) { return naive_var(g, correction); }),
            tolerance(dtype));
      }
    }
  }
}

TEST(Var, DefaultsToEveryDimWithCorrectionOne) {
  const Tensor x = random_tensor({4, 6}, ScalarType::kFloat64, 8);
  const Tensor r = x.var();
  EXPECT_EQ(r.dim(), 0);
  expect_close(real_elements(r), {naive_var(elements(x), 1)}, 1e-14);
  expect_close(real_elements(var(x, IntArrayRef({1}), std::nullopt)),
               each_group(reduction_groups(x, {1}),
                          [](const std::vector<Complex>& g) { return naive_var(g, 1); }),
               1e-14);
}

TEST(Var, IsStableForValuesFarFromZero) {
  // 1e9 + {1, 2, 3} repeated: the sum of squares would lose every digit of the variance.
  std::vector<double> values;
  for (int i = 0; i < 3000; ++i) values.push_back(1e9 + 1 + i % 3);
  const Tensor x = tensor_of({3000}, ScalarType::kFloat64, values);
  expect_close(real_elements(var(x, IntArrayRef({0}))), {2.0 / 3 * 3000 / 2999}, 1e-8);
}

TEST(Var, LargeInputsOnSeveralThreadsMatchNaiveLoop) {
  ThreadCount threads(2);
  WarningCapture capture;  // [1, n] over dim 0 reduces one element: no degrees of freedom
  for (const std::vector<int64_t>& sizes :
       std::vector<std::vector<int64_t>>{{1, 100003}, {40000, 3}, {300, 517}}) {
    const Tensor x = random_tensor(sizes, ScalarType::kFloat32, 21);
    for (int64_t dim : {0, 1}) {
      SCOPED_TRACE(::testing::Message() << int_list_string(sizes) << " dim " << dim);
      expect_close(real_elements(var(x, IntArrayRef({dim}))),
                   each_group(reduction_groups(x, {dim}),
                              [](const std::vector<Complex>& g) { return naive_var(g, 1); }),
                   1e-6);
    }
  }
}

TEST(Var, WarnsWhenDegreesOfFreedomRunOutAndGivesNaNForNothing) {
  const Tensor x = tensor_of({2, 1}, ScalarType::kFloat32, std::vector<double>{1, 2});
  WarningCapture capture;
  const std::vector<double> r = real_elements(var(x, IntArrayRef({1})));
  EXPECT_TRUE(std::isnan(r[0]) && std::isnan(r[1]));  // 0 / 0
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_EQ(capture.messages()[0],
            "var(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).");
  EXPECT_EQ(real_elements(var(x, IntArrayRef({0}), Scalar(2))), std::vector<double>{kInf});
  const std::vector<double> of_nothing =
      real_elements(var(random_tensor({0, 2}, ScalarType::kFloat64), IntArrayRef({0}), Scalar(-1)));
  EXPECT_TRUE(std::isnan(of_nothing[0]) && std::isnan(of_nothing[1]));
  EXPECT_EQ(capture.messages().size(), 2u);  // none for nothing reduced with correction -1
}

TEST(Var, RejectsIntegralInputsAndOutsItCannotCastTo) {
  EXPECT_EQ(error_message([&] { var(random_tensor({3}, ScalarType::kInt32)); }),
            "std and var only support floating point and complex dtypes");
  const Tensor x = random_tensor({3, 4}, ScalarType::kFloat32, 4);
  Tensor int_out = empty({3}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(error_message([&] { var_out(int_out, x, IntArrayRef({1})); }),
            "result type float32 can't be cast to the desired output type int64");
  Tensor wide = empty({3}, ScalarType::kFloat64, kCpu);
  var_out(wide, x, IntArrayRef({1}));
  expect_close(real_elements(wide),
               each_group(reduction_groups(x, {1}),
                          [](const std::vector<Complex>& g) { return naive_var(g, 1); }),
               1e-14);
}

// ---- norm -----------------------------------------------------------------------------------

TEST(Norm, EveryPOverEveryDimListMatchesNaiveLoop) {
  for (ScalarType dtype : kFloatingAndComplex) {
    const Tensor x = random_tensor({3, 4, 5}, dtype, 9);
    for (const std::vector<int64_t>& dims : kDimLists) {
      for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, kInf, -kInf, -1.5}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " dims " << int_list_string(dims) << " p " << p);
        const Tensor r = x.norm(Scalar(p), dims);
        EXPECT_EQ(r.dtype(), real_dtype(dtype));
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, false));
        expect_close(real_elements(r),
                     each_group(reduction_groups(x, dims),
                                [&](const std::vector<Complex>& g) { return naive_norm(g, p); }),
                     tolerance(dtype));
      }
    }
  }
}

TEST(Norm, DefaultPIsTwoAndTheDtypeVariantComputesInDtype) {
  const Tensor x = random_tensor({4, 5}, ScalarType::kFloat32, 3);
  EXPECT_EQ(real_elements(norm(x, std::nullopt, {1})), real_elements(norm(x, Scalar(2), {1})));
  const Tensor r = norm(x, Scalar(3), {1}, /*keepdim=*/true, ScalarType::kFloat64);
  EXPECT_EQ(r.dtype(), ScalarType::kFloat64);
  EXPECT_EQ(sizes_of(r), (std::vector<int64_t>{4, 1}));
  expect_close(real_elements(r),
               each_group(reduction_groups(x, {1}),
                          [](const std::vector<Complex>& g) { return naive_norm(g, 3); }),
               1e-14);
  // float16 values whose squares overflow float16 accumulate in float.
  const Tensor big = tensor_of({2}, ScalarType::kFloat16, std::vector<double>{300, 400});
  EXPECT_EQ(real_elements(norm(big, Scalar(2), {0})), std::vector<double>{500});
  const Tensor c = random_tensor({3, 2}, ScalarType::kComplex64, 6);
  const Tensor cr = norm(c, Scalar(2), {1}, false, ScalarType::kComplex128);
  EXPECT_EQ(cr.dtype(), ScalarType::kFloat64);
}

TEST(Norm, OverSizeOneDimsIsTheAbsoluteValue) {
  const Tensor x = tensor_of({3, 1}, ScalarType::kFloat32, std::vector<double>{3.3, -0.7, 0});
  EXPECT_EQ(real_elements(norm(x, Scalar(3), {1})),
            real_elements(tensor_of({3}, ScalarType::kFloat32, std::vector<double>{3.3, 0.7, 0})));
  EXPECT_EQ(real_elements(norm(x, Scalar(0), {1})), (std::vector<double>{1, 1, 0}));
  const Tensor z = tensor_of({1}, ScalarType::kComplex128, std::vector<Complex>{{3, 4}});
  EXPECT_EQ(real_elements(norm(z, Scalar(0.5), {0})), std::vector<double>{5});
}

TEST(Norm, LargeInputsOnSeveralThreadsMatchNaiveLoop) {
  ThreadCount threads(2);
  const Tensor x = random_tensor({2, 100003}, ScalarType::kFloat64, 2);
  for (double p : {1.0, 2.0, 3.0, kInf}) {
    expect_close(real_elements(norm(x, Scalar(p), {1})),
                 each_group(reduction_groups(x, {1}),
                            [&](const std::vector<Complex>& g) { return naive_norm(g, p); }),
                 1e-10);
  }
}

TEST(Norm, ReportsPyTorchErrors) {
  const Tensor ints = random_tensor({2, 3}, ScalarType::kInt64);
  EXPECT_EQ(error_message([&] { norm(ints, Scalar(2), {1}); }),
            "norm(): input dtype should be either floating point or complex. Got int64 instead.");
  const Tensor x = random_tensor({2, 3}, ScalarType::kFloat64);
  EXPECT_EQ(error_message([&] { norm(x, Scalar(2), {1}, false, ScalarType::kInt32); }),
            "norm(): the desired output dtype should be either floating point or complex. Got "
            "int32 instead.");
  EXPECT_EQ(error_message([&] { norm(ints, Scalar(2), {1}, false, ScalarType::kFloat32); }),
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got int64");
  EXPECT_EQ(error_message([&] { norm(x, Scalar(2), {1}, false, ScalarType::kComplex128); }),
            "linalg.vector_norm: dtype should be real for real inputs, but got complex128");
  EXPECT_EQ(error_message([&] { norm(x, Scalar(2), {1}, false, ScalarType::kFloat32); }),
            "linalg.vector_norm: the dtype of the input (float64) should be convertible without "
            "narrowing to the specified dtype (float32)");
  const Tensor none = random_tensor({0, 3}, ScalarType::kFloat32);
  EXPECT_EQ(error_message([&] { norm(none, Scalar(kInf), {}); }),
            "linalg.vector_norm cannot compute the inf norm on an empty tensor because the "
            "operation does not have an identity");
  EXPECT_EQ(error_message([&] { norm(none, Scalar(-1), {0}); }),
            "linalg.vector_norm cannot compute the -1 norm on the dimension 0because this "
            "dimension is empty and the operation does not have an identity");
  EXPECT_EQ(real_elements(norm(none, Scalar(2), {0})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(sizes_of(norm(none, Scalar(-1), {1})), std::vector<int64_t>{0});
  Tensor wide = empty({2}, ScalarType::kFloat64, kCpu);
  EXPECT_EQ(error_message([&] {
              norm_out(wide, random_tensor({2, 3}, ScalarType::kFloat32), Scalar(2), {1});
            }),
            "Expected out tensor to have dtype float32, but got float64 instead");
}

}  // namespace
}  // namespace bp::reductions_test
