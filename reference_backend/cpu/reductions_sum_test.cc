// sum, mean, prod and logsumexp on CPU against naive loops.
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/reductions_test_util.h"
#include "sdk/core/views.h"
#include "sdk/core/warning.h"

namespace bp::reductions_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

// sum's and prod's result dtype without dtype=: int64 for integral and bool inputs.
ScalarType promoted(ScalarType t) { return is_integral(t, true) ? ScalarType::kInt64 : t; }

// `v` as a value of `dtype` (rounded, wrapped or truncated as PyTorch converts).
Complex as_dtype(Complex v, ScalarType dtype) {
  return elements(tensor_of({}, dtype, std::vector<Complex>{v}))[0];
}

template <typename Fn>
std::vector<Complex> each_group(const Groups& groups, ScalarType dtype, Fn fn) {
  std::vector<Complex> out;
  for (const auto& g : groups) out.push_back(as_dtype(fn(g), dtype));
  return out;
}

Complex naive_sum(const std::vector<Complex>& g) {
  return std::accumulate(g.begin(), g.end(), Complex(0));
}
Complex naive_prod(const std::vector<Complex>& g) {
  return std::accumulate(g.begin(), g.end(), Complex(1), std::multiplies<Complex>());
}
Complex naive_logsumexp(const std::vector<Complex>& g) {
  Complex s = 0;
  for (const Complex& v : g) s += std::exp(v);
  return std::log(s);
}

// Relative tolerance of one rounding to `dtype`.
double eps(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::kFloat16:
      return 1e-3;
    case ScalarType::kBFloat16:
      return 8e-3;
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return 2e-6;
    default:
      return 1e-12;
  }
}

void expect_close(const std::vector<Complex>& got, const std::vector<Complex>& want, double rel) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), rel * (1 + std::abs(want[i].real()))) << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), rel * (1 + std::abs(want[i].imag()))) << i;
  }
}

const std::vector<ScalarType> kFloatingAndComplex = {
    ScalarType::kFloat16, ScalarType::kBFloat16,  ScalarType::kFloat32,
    ScalarType::kFloat64, ScalarType::kComplex64, ScalarType::kComplex128};

// ---- sum ------------------------------------------------------------------------------------

TEST(Sum, EveryDtypeOverEveryDimListMatchesNaiveLoop) {
  for (ScalarType dtype : kAllDtypes) {
    const Tensor x = random_tensor({3, 4, 5}, dtype);
    for (const std::vector<int64_t>& dims : kDimLists) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " dims " << int_list_string(dims) << " keepdim " << keepdim);
        const Tensor r = sum(x, IntArrayRef(dims), keepdim);
        EXPECT_EQ(r.dtype(), promoted(dtype));
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, keepdim));
        EXPECT_EQ(elements(r), each_group(reduction_groups(x, dims), r.dtype(), naive_sum));
      }
    }
  }
}

TEST(Sum, DimNoneReducesEveryDimAndZeroDimInputsReduceTheirElement) {
  const Tensor x = random_tensor({2, 3}, ScalarType::kInt32);
  EXPECT_EQ(sizes_of(x.sum(std::optional<IntArrayRef>())), std::vector<int64_t>{});
  EXPECT_EQ(elements(x.sum(std::optional<IntArrayRef>()))[0], naive_sum(elements(x)));
  EXPECT_EQ(elements(x.sum())[0], naive_sum(elements(x)));  // the full overload
  EXPECT_EQ(sizes_of(sum(x, std::nullopt, /*keepdim=*/true)), (std::vector<int64_t>{1, 1}));
  const Tensor scalar = tensor_of({}, ScalarType::kFloat32, std::vector<double>{2.5});
  for (int64_t dim : {0, -1}) {
    const Tensor r = sum(scalar, IntArrayRef({dim}), /*keepdim=*/true);
    EXPECT_EQ(r.dim(), 0);
    EXPECT_EQ(real_elements(r), std::vector<double>{2.5});
  }
}

TEST(Sum, DtypeArgumentConvertsTheInputFirst) {
  const Tensor ints = random_tensor({4, 5}, ScalarType::kInt32);
  const Tensor wide = sum(ints, IntArrayRef({1}), false, ScalarType::kFloat64);
  EXPECT_EQ(wide.dtype(), ScalarType::kFloat64);
  EXPECT_EQ(elements(wide),
            each_group(reduction_groups(ints, {1}), ScalarType::kFloat64, naive_sum));
  // Floats into an integral dtype are truncated before they are added: 1 + 2, not 4.6.
  const Tensor floats = tensor_of({2}, ScalarType::kFloat32, std::vector<double>{1.7, 2.9});
  EXPECT_EQ(real_elements(sum(floats, IntArrayRef({0}), false, ScalarType::kInt32)),
            std::vector<double>{3});
  // Into float16 each element is rounded first: 3072 values 1 + 2^-11 round to 1 each (3072), a
  // float sum rounded at the end would give 3074.
  const Tensor near_one = tensor_of({3072}, ScalarType::kFloat32,
                                    std::vector<double>(3072, 1.0 + std::ldexp(1.0, -11)));
  EXPECT_EQ(real_elements(sum(near_one, IntArrayRef({0}), false, ScalarType::kFloat16)),
            std::vector<double>{3072});
  // bool into bool: logical or.
  const Tensor flags = tensor_of({2, 2}, ScalarType::kBool, std::vector<double>{1, 1, 0, 0});
  const Tensor any = sum(flags, IntArrayRef({1}), false, ScalarType::kBool);
  EXPECT_EQ(any.dtype(), ScalarType::kBool);
  EXPECT_EQ(real_elements(any), (std::vector<double>{1, 0}));
}

TEST(Sum, IntegersAccumulateInInt64UnlessDtypeSaysOtherwise) {
  const Tensor x = tensor_of({2}, ScalarType::kInt8, std::vector<double>{100, 100});
  EXPECT_EQ(real_elements(sum(x, IntArrayRef({0}))), std::vector<double>{200});
  EXPECT_EQ(real_elements(sum(x, IntArrayRef({0}), false, ScalarType::kInt8)),
            std::vector<double>{-56});
  const Tensor big = tensor_of({2}, ScalarType::kInt64, std::vector<double>{0x1p52, 0x1p52});
  EXPECT_EQ(real_elements(sum(big, IntArrayRef({0}))), std::vector<double>{0x1p53});
}

TEST(Sum, ReducedFloatsAccumulateInFloat) {
  // 4096 ones: a float16 accumulator would stop at 2048, a bfloat16 one at 256.
  for (ScalarType dtype : {ScalarType::kFloat16, ScalarType::kBFloat16}) {
    const Tensor ones = tensor_of({4096}, dtype, std::vector<double>(4096, 1.0));
    EXPECT_EQ(real_elements(sum(ones, IntArrayRef({0}))), std::vector<double>{4096}) << dtype;
    const Tensor mean_of_ones = mean(ones, IntArrayRef({0}));
    EXPECT_EQ(real_elements(mean_of_ones), std::vector<double>{1}) << dtype;
  }
}

TEST(Sum, NonContiguousInputsMatchNaiveLoop) {
  for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kInt32, ScalarType::kComplex128}) {
    const Tensor base = random_tensor({6, 40}, dtype);
    const std::vector<Tensor> inputs = {
        native::t(base),                   // transposed
        native::slice(base, 1, 1, 40, 3),  // every third column
        native::slice(base, 0, 1, 6, 2),   // every other row: rows 80 elements apart
        native::expand(native::unsqueeze(native::select(base, 0, 2), 0), {5, 40}),  // stride 0
    };
    for (const Tensor& x : inputs) {
      for (int64_t dim : {0, 1}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " strides " << int_list_string(x.strides()) << " dim " << dim);
        EXPECT_EQ(elements(sum(x, IntArrayRef({dim}))),
                  each_group(reduction_groups(x, {dim}), promoted(dtype), naive_sum));
      }
    }
  }
}

TEST(Sum, RowsOneStrideApartIntoAStridedOutMatchTheirContiguousCopy) {
  // Rows of floats one stride apart, summed into every other element of `storage`: the row
  // path (no offsets per row) must read and write with the tensors' strides.
  const Tensor base = random_tensor({7, 300}, ScalarType::kFloat32);
  const Tensor rows = native::slice(base, 0, 1, 7, 2);  // rows 1, 3, 5
  Tensor storage = empty({6}, ScalarType::kFloat32, kCpu);
  for (int64_t i = 0; i < 6; ++i) storage.data_ptr<float>()[i] = -7.0f;
  Tensor out = native::slice(storage, 0, 0, 6, 2);
  sum_out(out, rows, IntArrayRef({1}));
  EXPECT_EQ(out.strides(), IntArrayRef({2}));
  EXPECT_EQ(elements(out), elements(sum(rows.contiguous(), IntArrayRef({1}))));
  expect_close(elements(out),
               each_group(reduction_groups(rows, {1}), ScalarType::kFloat32, naive_sum),
               300 * eps(ScalarType::kFloat32));
  EXPECT_EQ(real_elements(native::slice(storage, 0, 1, 6, 2)), (std::vector<double>{-7, -7, -7}));
}

TEST(Sum, LargeInputsOnSeveralThreadsMatchNaiveLoop) {
  ThreadCount threads(2);
  // Many outputs (split over outputs), few outputs (split over the reduced elements), one output.
  for (const std::vector<int64_t>& sizes :
       std::vector<std::vector<int64_t>>{{300, 517}, {40000, 3}, {1, 200003}}) {
    const Tensor ints = random_tensor(sizes, ScalarType::kInt64, 7);
    std::vector<double> fraction_values;
    for (const Complex& v : elements(ints)) fraction_values.push_back(v.real() / 3);
    const Tensor floats = tensor_of(sizes, ScalarType::kFloat32, fraction_values);
    for (int64_t dim : {0, 1}) {
      SCOPED_TRACE(::testing::Message() << int_list_string(sizes) << " dim " << dim);
      EXPECT_EQ(elements(sum(ints, IntArrayRef({dim}))),
                each_group(reduction_groups(ints, {dim}), ScalarType::kInt64, naive_sum));
      expect_close(elements(sum(floats, IntArrayRef({dim}))),
                   each_group(reduction_groups(floats, {dim}), ScalarType::kFloat64, naive_sum),
                   1e-5);
    }
  }
}

// The values 0.1 + (i % 7) / 1000 as float32, and their exact sum.
Tensor long_float_ramp(std::vector<int64_t> sizes, double* total) {
  Tensor x = empty(sizes, ScalarType::kFloat32, kCpu);
  float* p = x.data_ptr<float>();
  *total = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    p[i] = 0.1f + static_cast<float>(i % 7) * 1e-3f;
    *total += p[i];
  }
  return x;
}

TEST(Sum, FloatSumsUseCascadeSummation) {
  // A float accumulator fed in order loses about 1e-3 relative precision on 2^22 such values
  // (1e-2 over 2^18 rows of an outer reduction); cascade summation stays near 1e-7.
  for (int threads : {1, 2}) {
    ThreadCount count(threads);
    double total = 0;
    const Tensor flat = long_float_ramp({1 << 22}, &total);
    EXPECT_NEAR(real_elements(sum(flat, IntArrayRef({0})))[0], total, 1e-6 * total);
    EXPECT_NEAR(real_elements(mean(flat, IntArrayRef({0})))[0], total / (1 << 22),
                1e-6 * total / (1 << 22));
    const Tensor rows = native::view(flat, {1 << 18, 16});
    const std::vector<double> column_sums = real_elements(sum(rows, IntArrayRef({0})));
    double all_columns = 0;
    for (double v : column_sums) all_columns += v;
    EXPECT_NEAR(all_columns, total, 1e-6 * total) << threads;
    const Tensor transposed = native::t(native::view(flat, {1 << 11, 1 << 11}));
    const std::vector<double> row_sums = real_elements(sum(transposed, IntArrayRef({1, 0})));
    EXPECT_NEAR(row_sums[0], total, 1e-6 * total) << threads;
  }
  const Tensor z = tensor_of({1 << 20}, ScalarType::kComplex64,
                             std::vector<Complex>(1 << 20, Complex(0.1, -0.2)));
  const Complex got = elements(sum(z, IntArrayRef({0})))[0];
  EXPECT_NEAR(got.real(), 0.1f * double(1 << 20), 1e-6 * 0.1 * (1 << 20));
  EXPECT_NEAR(got.imag(), -0.2f * double(1 << 20), 1e-6 * 0.2 * (1 << 20));
}

TEST(Sum, EmptyReductionsAreZero) {
  const Tensor x = random_tensor({0, 3}, ScalarType::kFloat32);
  const Tensor over_empty = sum(x, IntArrayRef({0}));
  EXPECT_EQ(sizes_of(over_empty), std::vector<int64_t>{3});
  EXPECT_EQ(real_elements(over_empty), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(sizes_of(sum(x, IntArrayRef({1}))), std::vector<int64_t>{0});
  const Tensor c = random_tensor({0}, ScalarType::kComplex64);
  EXPECT_EQ(elements(sum(c)), std::vector<Complex>{0});
}

TEST(Sum, OutVariantResizesAndTakesTheOutDtype) {
  const Tensor x = random_tensor({3, 4}, ScalarType::kFloat32);
  Tensor out = empty({0}, ScalarType::kFloat32, kCpu);
  {
    WarningCapture capture;
    Tensor& returned = sum_out(out, x, IntArrayRef({1}));
    EXPECT_TRUE(returned.is_same(out));
    EXPECT_TRUE(capture.messages().empty());
  }
  EXPECT_EQ(sizes_of(out), std::vector<int64_t>{3});
  EXPECT_EQ(elements(out), elements(sum(x, IntArrayRef({1}))));
  Tensor big_out = empty({7}, ScalarType::kFloat32, kCpu);
  {
    WarningCapture capture;
    sum_out(big_out, x, IntArrayRef({0}), /*keepdim=*/true);
    ASSERT_EQ(capture.messages().size(), 1u);
    EXPECT_THAT(capture.messages()[0], HasSubstr("was resized since it had shape [7]"));
  }
  EXPECT_EQ(sizes_of(big_out), (std::vector<int64_t>{1, 4}));
  // An int32 out: the input is truncated to int32 and summed there, as in PyTorch.
  const Tensor fractions = tensor_of({2}, ScalarType::kFloat32, std::vector<double>{1.7, 2.9});
  Tensor int_out = empty({}, ScalarType::kInt32, kCpu);
  sum_out(int_out, fractions, IntArrayRef({0}));
  EXPECT_EQ(real_elements(int_out), std::vector<double>{3});
  // dtype= wins over the out's dtype, and then they must agree.
  EXPECT_EQ(error_message([&] {
              sum_out(int_out, fractions, IntArrayRef({0}), false, ScalarType::kFloat64);
            }),
            "Expected out tensor to have dtype float64, but got int32 instead");
}

// ---- mean -----------------------------------------------------------------------------------

TEST(Mean, FloatingAndComplexDtypesOverEveryDimListMatchNaiveLoop) {
  for (ScalarType dtype : kFloatingAndComplex) {
    const Tensor x = random_tensor({3, 4, 5}, dtype);
    for (const std::vector<int64_t>& dims : kDimLists) {
      SCOPED_TRACE(::testing::Message() << dtype << " dims " << int_list_string(dims));
      const Tensor r = x.mean(IntArrayRef(dims), /*keepdim=*/true);
      EXPECT_EQ(r.dtype(), dtype);
      EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, true));
      expect_close(
          elements(r),
          each_group(reduction_groups(x, dims), ScalarType::kComplex128,
                     [](const std::vector<Complex>& g) { return naive_sum(g) / double(g.size()); }),
          eps(dtype));
    }
  }
}

TEST(Mean, IntegralInputsNeedAFloatingDtype) {
  const Tensor ints = random_tensor({2, 3}, ScalarType::kInt32);
  EXPECT_EQ(error_message([&] { mean(ints, IntArrayRef({1})); }),
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            "or complex dtype. Got: int32");
  EXPECT_EQ(error_message([&] { mean(ints, IntArrayRef({1}), false, ScalarType::kInt64); }),
            "mean(): could not infer output dtype. Optional dtype must be either a floating "
            "point or complex dtype. Got: int64");
  const Tensor r = mean(ints, IntArrayRef({1}), false, ScalarType::kFloat64);
  EXPECT_EQ(r.dtype(), ScalarType::kFloat64);
  expect_close(
      elements(r),
      each_group(reduction_groups(ints, {1}), ScalarType::kFloat64,
                 [](const std::vector<Complex>& g) { return naive_sum(g) / double(g.size()); }),
      1e-15);
  Tensor int_out = empty({2}, ScalarType::kInt64, kCpu);
  const Tensor floats = random_tensor({2, 3}, ScalarType::kFloat32);
  EXPECT_EQ(error_message([&] { mean_out(int_out, floats, IntArrayRef({1})); }),
            "result type float32 can't be cast to the desired output type int64");
}

TEST(Mean, OfNoElementsIsNaN) {
  const Tensor r = mean(random_tensor({0, 2}, ScalarType::kFloat32), IntArrayRef({0}));
  EXPECT_EQ(sizes_of(r), std::vector<int64_t>{2});
  for (double v : real_elements(r)) EXPECT_TRUE(std::isnan(v));
}

// ---- prod -----------------------------------------------------------------------------------

TEST(Prod, EveryDtypeOverEachDimMatchesNaiveLoop) {
  for (ScalarType dtype : kAllDtypes) {
    const Tensor x = random_tensor({3, 4, 5}, dtype, 3);
    for (int64_t dim : {0, 1, 2, -1}) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message() << dtype << " dim " << dim << " keepdim " << keepdim);
        const Tensor r = x.prod(dim, keepdim);
        EXPECT_EQ(r.dtype(), promoted(dtype));
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, {dim}, keepdim));
        EXPECT_EQ(elements(r), each_group(reduction_groups(x, {dim}), r.dtype(), naive_prod));
      }
    }
  }
}

TEST(Prod, OfBoolIntoBoolIsLogicalAndAndOfNothingIsOne) {
  const Tensor flags = tensor_of({2, 2}, ScalarType::kBool, std::vector<double>{1, 1, 1, 0});
  EXPECT_EQ(real_elements(prod(flags, 1, false, ScalarType::kBool)), (std::vector<double>{1, 0}));
  EXPECT_EQ(real_elements(prod(flags, 1)), (std::vector<double>{1, 0}));
  EXPECT_EQ(real_elements(prod(random_tensor({0, 2}, ScalarType::kInt16), 0)),
            (std::vector<double>{1, 1}));
  Tensor out = empty({}, ScalarType::kFloat64, kCpu);
  prod_out(out, tensor_of({3}, ScalarType::kFloat32, std::vector<double>{2, 3, 4}), 0);
  EXPECT_EQ(real_elements(out), std::vector<double>{24});
}

// ---- logsumexp ------------------------------------------------------------------------------

TEST(Logsumexp, FloatingAndComplexDtypesOverEveryDimListMatchNaiveLoop) {
  for (ScalarType dtype : kFloatingAndComplex) {
    const Tensor x = random_tensor({3, 4, 5}, dtype);
    for (const std::vector<int64_t>& dims : kDimLists) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " dims " << int_list_string(dims) << " keepdim " << keepdim);
        const Tensor r = logsumexp(x, IntArrayRef(dims), keepdim);
        EXPECT_EQ(r.dtype(), dtype);
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, keepdim));
        expect_close(
            elements(r),
            each_group(reduction_groups(x, dims), ScalarType::kComplex128, naive_logsumexp),
            4 * eps(dtype));
      }
    }
  }
}

TEST(Logsumexp, IntegralInputsComputeInFloat32) {
  for (ScalarType dtype : {ScalarType::kBool, ScalarType::kUInt8, ScalarType::kInt64}) {
    const Tensor x = random_tensor({4, 3}, dtype);
    const Tensor r = x.logsumexp(IntArrayRef({0}));
    EXPECT_EQ(r.dtype(), ScalarType::kFloat32) << dtype;
    expect_close(elements(r),
                 each_group(reduction_groups(x, {0}), ScalarType::kFloat64, naive_logsumexp), 1e-6);
  }
}

TEST(Logsumexp, IsStableForLargeValues) {
  const Tensor x =
      tensor_of({2, 2}, ScalarType::kFloat32, std::vector<double>{1000, 1000, -1000, -1000});
  const std::vector<double> r = real_elements(logsumexp(x, IntArrayRef({1})));
  EXPECT_FLOAT_EQ(r[0], 1000 + std::log(2.0));
  EXPECT_FLOAT_EQ(r[1], -1000 + std::log(2.0));
}

TEST(Logsumexp, KeepsItsPrecisionOverLongFloat32Rows) {
  ThreadCount threads(2);
  const Tensor x = random_tensor({2, 1 << 20}, ScalarType::kFloat32, 31);
  expect_close(elements(logsumexp(x, IntArrayRef({1}))),
               each_group(reduction_groups(x, {1}), ScalarType::kFloat64, naive_logsumexp), 1e-7);
}

TEST(Logsumexp, HandlesInfinitiesNaNAndEmptyInputsAsPyTorch) {
  const Tensor x = tensor_of(
      {6, 2}, ScalarType::kFloat64,
      std::vector<double>{-kInf, -kInf, kInf, 1, kInf, kInf, kNaN, kInf, -kInf, 0, 1, kNaN});
  const std::vector<double> r = real_elements(logsumexp(x, IntArrayRef({1})));
  EXPECT_EQ(r[0], -kInf);
  EXPECT_EQ(r[1], kInf);
  EXPECT_EQ(r[2], kInf);
  EXPECT_TRUE(std::isnan(r[3]));
  EXPECT_EQ(r[4], 0);
  EXPECT_TRUE(std::isnan(r[5]));
  EXPECT_EQ(real_elements(logsumexp(random_tensor({0, 2}, ScalarType::kFloat32), IntArrayRef({0}))),
            (std::vector<double>{-kInf, -kInf}));
}

TEST(Logsumexp, OutMustBeFloatingAndMayBeWider) {
  const Tensor x = random_tensor({3, 4}, ScalarType::kFloat32);
  Tensor int_out = empty({3}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(error_message([&] { logsumexp_out(int_out, x, IntArrayRef({1})); }),
            "logsumexp(): Expected floating point type for result tensor, but got: int64");
  Tensor wide = empty({3}, ScalarType::kFloat64, kCpu);
  logsumexp_out(wide, x, IntArrayRef({1}));
  expect_close(elements(wide),
               each_group(reduction_groups(x, {1}), ScalarType::kFloat64, naive_logsumexp), 1e-6);
}

}  // namespace
}  // namespace bp::reductions_test
