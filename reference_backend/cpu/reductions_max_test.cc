// amax, max.dim, argmax and argmin on CPU against naive loops: NaN propagation, first index on
// ties.
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/reductions_test_util.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::reductions_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

const std::vector<ScalarType> kRealDtypes = {
    ScalarType::kBool,    ScalarType::kUInt8,  ScalarType::kInt8,    ScalarType::kInt16,
    ScalarType::kInt32,   ScalarType::kInt64,  ScalarType::kFloat16, ScalarType::kBFloat16,
    ScalarType::kFloat32, ScalarType::kFloat64};

// The position of the first maximum (the first NaN if there is one).
int64_t naive_argmax(const std::vector<Complex>& g) {
  int64_t best = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(g[i].real())) return static_cast<int64_t>(i);
    if (g[i].real() > g[best].real()) best = static_cast<int64_t>(i);
  }
  return best;
}

std::vector<double> naive_max(const Groups& groups) {
  std::vector<double> out;
  for (const auto& g : groups) out.push_back(g[naive_argmax(g)].real());
  return out;
}
std::vector<double> naive_argmax(const Groups& groups) {
  std::vector<double> out;
  for (const auto& g : groups) out.push_back(static_cast<double>(naive_argmax(g)));
  return out;
}

// Compares element by element, NaN equal to NaN.
void expect_same(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << i;
    }
  }
}

// A float32 [n] ramp with NaN at the given positions.
Tensor ramp_with_nans(int64_t n, std::vector<int64_t> nans) {
  std::vector<double> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(static_cast<double>((i * 37) % 101));
  for (int64_t i : nans) values[i] = kNaN;
  return tensor_of({n}, ScalarType::kFloat32, values);
}

// ---- amax -----------------------------------------------------------------------------------

TEST(Amax, EveryRealDtypeOverEveryDimListMatchesNaiveLoop) {
  for (ScalarType dtype : kRealDtypes) {
    const Tensor x = random_tensor({3, 4, 5}, dtype);
    for (const std::vector<int64_t>& dims : kDimLists) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << dtype << " dims " << int_list_string(dims) << " keepdim " << keepdim);
        const Tensor r = amax(x, dims, keepdim);
        EXPECT_EQ(r.dtype(), dtype);
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, dims, keepdim));
        EXPECT_EQ(real_elements(r), naive_max(reduction_groups(x, dims)));
      }
    }
  }
  EXPECT_EQ(sizes_of(random_tensor({2, 3}, ScalarType::kInt32).amax()), std::vector<int64_t>{});
}

TEST(Amax, PropagatesNaNAlsoOnSeveralThreads) {
  const Tensor x =
      tensor_of({2, 3}, ScalarType::kFloat16, std::vector<double>{1, kNaN, 3, -kInf, -kInf, -kInf});
  expect_same(real_elements(amax(x, {1})), {kNaN, -kInf});
  ThreadCount threads(2);
  expect_same(real_elements(amax(ramp_with_nans(100000, {70000}), {0})), {kNaN});
  const Tensor no_nan = ramp_with_nans(100000, {});
  expect_same(real_elements(amax(no_nan, {0})), {100});
  const Tensor wide = native::t(random_tensor({300, 517}, ScalarType::kInt16, 5));
  EXPECT_EQ(real_elements(amax(wide, {1})), naive_max(reduction_groups(wide, {1})));
}

// Signs of the elements of `t`, +1 or -1 (for zeros too).
std::vector<double> signs(const Tensor& t) {
  std::vector<double> out;
  for (double v : real_elements(t)) out.push_back(std::copysign(1.0, v));
  return out;
}

// PyTorch's scalar loop keeps its accumulator on equal values (std::max(acc, x)): the first of
// 0.0 and -0.0 wins, torch.amax(tensor([0.0, -0.0])) is 0.0 and torch.amax(tensor([-0.0, 0.0]))
// is -0.0.
TEST(Amax, OfEqualZerosIsTheFirst) {
  for (ScalarType dtype :
       {ScalarType::kFloat16, ScalarType::kBFloat16, ScalarType::kFloat32, ScalarType::kFloat64}) {
    SCOPED_TRACE(dtype);
    EXPECT_EQ(signs(amax(tensor_of({2}, dtype, std::vector<double>{0.0, -0.0}))),
              std::vector<double>{1});
    EXPECT_EQ(signs(amax(tensor_of({2}, dtype, std::vector<double>{-0.0, 0.0}))),
              std::vector<double>{-1});
    const Tensor rows = tensor_of({2, 2}, dtype, std::vector<double>{0.0, -0.0, -0.0, 0.0});
    EXPECT_EQ(signs(amax(rows, {1})), (std::vector<double>{1, -1}));
    EXPECT_EQ(signs(amax(rows)), std::vector<double>{1});
    std::vector<double> row;
    for (int i = 0; i < 15; ++i) row.push_back(i % 3 == 1 ? 0.0 : -0.0);
    EXPECT_EQ(signs(amax(tensor_of({15}, dtype, row), {0})), std::vector<double>{-1});
  }
}

// Contiguous rows take a lean path of their own (reductions_max.cc): it must give what the
// general path gives the same values read with a stride, bit for bit (zero signs, NaN), for
// rows shorter than, as long as and longer than its vector loop's step of 32 elements.
TEST(Amax, AndAminOfContiguousRowsMatchTheStridedPathBitForBit) {
  for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kInt32}) {
    const bool floating = dtype != ScalarType::kInt32;
    for (int64_t len : {5, 32, 100, 256}) {
      SCOPED_TRACE(::testing::Message() << dtype << " len " << len);
      constexpr int64_t kRows = 6;
      std::vector<double> values, wide;
      for (int64_t r = 0; r < kRows; ++r) {
        for (int64_t i = 0; i < len; ++i) {
          double v = static_cast<double>((i * 37 + r * 11) % 23) - 11;
          if (r == 0) v = (i * 7) % 3 == 0 ? 0.0 : -0.0;  // the extreme: zeros of both signs
          if (floating && r == 1 && i == (37 % len)) v = kNaN;
          if (floating && r == 2 && i == len - 1) v = kNaN;
          if (r == 3) v = floating ? -kInf : -5;
          if (r == 4) v = floating ? kInf : 5;
          values.push_back(v);
          wide.push_back(v);
          wide.push_back(99);
        }
      }
      const Tensor rows = tensor_of({kRows, len}, dtype, values);
      const Tensor strided =
          native::slice(tensor_of({kRows, 2 * len}, dtype, wide), 1, 0, std::nullopt, 2);
      for (bool is_max : {true, false}) {
        SCOPED_TRACE(is_max ? "amax" : "amin");
        const auto reduce = [&](const Tensor& t) { return is_max ? amax(t, {1}) : amin(t, {1}); };
        const std::vector<double> got = real_elements(reduce(rows));
        const std::vector<double> want = real_elements(reduce(strided));
        expect_same(got, want);
        EXPECT_EQ(signs(reduce(rows)), signs(reduce(strided)));
        if (is_max) expect_same(got, naive_max(reduction_groups(rows, {1})));
      }
    }
  }
}

TEST(Amax, OfTheLowestValuesIsTheLowestValue) {
  EXPECT_EQ(
      real_elements(amax(tensor_of({2}, ScalarType::kInt8, std::vector<double>{-128, -128}), {0})),
      std::vector<double>{-128});
  EXPECT_EQ(real_elements(
                amax(tensor_of({2}, ScalarType::kFloat32, std::vector<double>{-kInf, -kInf}), {0})),
            std::vector<double>{-kInf});
}

TEST(Amax, RejectsComplexEmptyReductionsAndOtherOutDtypes) {
  const Tensor c = random_tensor({2, 2}, ScalarType::kComplex64);
  EXPECT_EQ(error_message([&] { amax(c, {0}); }), "\"amax\" not implemented for 'complex64'");
  EXPECT_EQ(error_code([&] { amax(c, {0}); }), ErrorCode::kNotImplemented);
  const Tensor empty_rows = random_tensor({0, 3}, ScalarType::kFloat32);
  EXPECT_EQ(error_message([&] { amax(empty_rows, {0}); }),
            "amax(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_EQ(error_code([&] { amax(empty_rows, {0}); }), ErrorCode::kIndexError);
  EXPECT_EQ(error_message([&] { amax(empty_rows); }),
            "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
            "reduction dim with the 'dim' argument.");
  EXPECT_EQ(sizes_of(amax(empty_rows, {1})), std::vector<int64_t>{0});
  Tensor int_out = empty({2}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(error_message([&] {
              amax_out(int_out, random_tensor({2, 2}, ScalarType::kFloat32), {1});
            }),
            "Expected the dtype for input and out to match, but got float32 for input's dtype and "
            "int64 for out's dtype.");
}

// ---- max.dim --------------------------------------------------------------------------------

TEST(MaxDim, ValuesAndIndicesOfEveryRealDtypeMatchNaiveLoop) {
  for (ScalarType dtype : kRealDtypes) {
    const Tensor x = random_tensor({3, 4, 5}, dtype, 11);
    for (int64_t dim : {0, 1, 2, -1}) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message() << dtype << " dim " << dim << " keepdim " << keepdim);
        const auto [values, indices] = x.max(dim, keepdim);
        EXPECT_EQ(values.dtype(), dtype);
        EXPECT_EQ(indices.dtype(), ScalarType::kInt64);
        EXPECT_EQ(sizes_of(values), reduced_sizes({3, 4, 5}, {dim}, keepdim));
        EXPECT_EQ(sizes_of(indices), sizes_of(values));
        const Groups groups = reduction_groups(x, {dim});
        EXPECT_EQ(real_elements(values), naive_max(groups));
        EXPECT_EQ(real_elements(indices), naive_argmax(groups));
      }
    }
  }
}

TEST(MaxDim, TiesTakeTheFirstIndexAndTheFirstNaNWins) {
  const Tensor x =
      tensor_of({3, 4}, ScalarType::kFloat32,
                std::vector<double>{3, 1, 3, 2, 1, kNaN, 5, kNaN, -kInf, -kInf, -kInf, -kInf});
  const auto [values, indices] = max(x, 1);
  expect_same(real_elements(values), {3, kNaN, -kInf});
  EXPECT_EQ(real_elements(indices), (std::vector<double>{0, 1, 0}));
  // The same through a transposed view, and on two threads over one long row.
  const auto [tvalues, tindices] = max(native::t(x), 0);
  EXPECT_EQ(real_elements(tindices), (std::vector<double>{0, 1, 0}));
  ThreadCount threads(2);
  const auto [nan_value, nan_index] = max(ramp_with_nans(100000, {80000, 70000}), 0);
  EXPECT_TRUE(std::isnan(real_elements(nan_value)[0]));
  EXPECT_EQ(real_elements(nan_index), std::vector<double>{70000});
  const Tensor flat = tensor_of({100000}, ScalarType::kInt32, std::vector<double>(100000, 7));
  EXPECT_EQ(real_elements(std::get<1>(max(flat, 0))), std::vector<double>{0});
}

TEST(MaxDim, OutVariantWritesBothOutputsAndChecksTheirDtypes) {
  const Tensor x = random_tensor({3, 4}, ScalarType::kInt16, 2);
  Tensor values = empty({0}, ScalarType::kInt16, kCpu);
  Tensor indices = empty({0}, ScalarType::kInt64, kCpu);
  auto [v, i] = max_out(values, indices, x, 1, /*keepdim=*/true);
  EXPECT_TRUE(v.is_same(values));
  EXPECT_TRUE(i.is_same(indices));
  EXPECT_EQ(sizes_of(values), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(real_elements(values), naive_max(reduction_groups(x, {1})));
  EXPECT_EQ(real_elements(indices), naive_argmax(reduction_groups(x, {1})));
  Tensor int_indices = empty({3}, ScalarType::kInt32, kCpu);
  EXPECT_EQ(error_message([&] { max_out(values, int_indices, x, 1, /*keepdim=*/true); }),
            "Expected out tensor to have dtype int64, but got int32 instead");
}

TEST(MaxDim, RejectsComplexAndEmptyDimsAndReducesZeroDimInputs) {
  EXPECT_EQ(error_message([&] { max(random_tensor({2}, ScalarType::kComplex128), 0); }),
            "max(): does not support complex input");
  const Tensor empty_rows = random_tensor({2, 0}, ScalarType::kFloat32);
  EXPECT_EQ(error_message([&] { max(empty_rows, -1); }),
            "max(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(error_code([&] { max(empty_rows, -1); }), ErrorCode::kIndexError);
  EXPECT_EQ(sizes_of(std::get<0>(max(empty_rows, 0))), std::vector<int64_t>{0});
  const Tensor scalar = tensor_of({}, ScalarType::kFloat64, std::vector<double>{-2.5});
  const auto [value, index] = max(scalar, -1, /*keepdim=*/true);
  EXPECT_EQ(value.dim(), 0);
  EXPECT_EQ(real_elements(value), std::vector<double>{-2.5});
  EXPECT_EQ(real_elements(index), std::vector<double>{0});
  EXPECT_EQ(error_message([&] { max(scalar, 1); }),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

// ---- argmax ---------------------------------------------------------------------------------

TEST(Argmax, IntegralAndFloatingDtypesOverEachDimMatchNaiveLoop) {
  for (ScalarType dtype : kRealDtypes) {
    if (dtype == ScalarType::kBool) continue;  // not supported, as in PyTorch (below)
    const Tensor x = random_tensor({3, 4, 5}, dtype, 13);
    for (int64_t dim : {0, 1, 2, -2}) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message() << dtype << " dim " << dim << " keepdim " << keepdim);
        const Tensor r = x.argmax(dim, keepdim);
        EXPECT_EQ(r.dtype(), ScalarType::kInt64);
        EXPECT_EQ(sizes_of(r), reduced_sizes({3, 4, 5}, {dim}, keepdim));
        EXPECT_EQ(real_elements(r), naive_argmax(reduction_groups(x, {dim})));
      }
    }
  }
}

TEST(Argmax, WithoutDimIndexesTheFlattenedInput) {
  const Tensor x = native::t(random_tensor({5, 7}, ScalarType::kFloat32, 17));  // [7, 5] view
  const Tensor r = argmax(x);
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(real_elements(r), naive_argmax(reduction_groups(x, {})));
  const Tensor kept = argmax(x, std::nullopt, /*keepdim=*/true);
  EXPECT_EQ(sizes_of(kept), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(real_elements(kept), real_elements(r));
  Tensor out = empty({1, 1}, ScalarType::kInt64, kCpu);
  argmax_out(out, x, std::nullopt, true);
  EXPECT_EQ(real_elements(out), real_elements(r));
  const Tensor nan_first =
      tensor_of({2, 2}, ScalarType::kFloat64, std::vector<double>{1, kInf, kNaN, kNaN});
  EXPECT_EQ(real_elements(argmax(nan_first)), std::vector<double>{2});
  EXPECT_EQ(real_elements(argmax(nan_first, 1)), (std::vector<double>{1, 0}));
}

// The position of the first minimum (the first NaN if there is one).
int64_t naive_argmin(const std::vector<Complex>& g) {
  int64_t best = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(g[i].real())) return static_cast<int64_t>(i);
    if (g[i].real() < g[best].real()) best = static_cast<int64_t>(i);
  }
  return best;
}

// Contiguous lines of float32, float64, int32 and int64 are scanned on vectors (one extreme and
// index per lane): lines of every length around the vector widths, values drawn from few levels
// (ties across and within lanes), NaNs in some, all give the first extreme's index.
TEST(Argmax, ArgmaxAndArgminOfLongLinesTakeTheFirstExtremeAndTheFirstNaN) {
  for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kInt32,
                           ScalarType::kInt64, ScalarType::kFloat16}) {
    for (int64_t len : {1, 3, 4, 5, 8, 9, 15, 16, 17, 33, 64, 100, 257}) {
      for (int nans : {0, 1, 2}) {
        if (nans > 0 && is_integral(dtype, false)) continue;
        SCOPED_TRACE(::testing::Message() << dtype << " len " << len << " nans " << nans);
        std::vector<double> values(static_cast<size_t>(3 * len));
        for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>((i * 7) % 3);
        // NaNs late in the line, in different lanes.
        for (int k = 0; k < nans; ++k)
          values[values.size() - 1 - static_cast<size_t>(k * 5 % len)] = kNaN;
        const Tensor x = tensor_of({3, len}, dtype, values);
        std::vector<double> rows_max, rows_min;
        for (const auto& g : reduction_groups(x, {1})) {
          rows_max.push_back(static_cast<double>(naive_argmax(g)));
          rows_min.push_back(static_cast<double>(naive_argmin(g)));
        }
        EXPECT_EQ(real_elements(x.argmax(1)), rows_max);
        EXPECT_EQ(real_elements(x.argmin(1)), rows_min);
        const auto all = reduction_groups(x, {});
        EXPECT_EQ(real_elements(argmax(x)),
                  std::vector<double>{static_cast<double>(naive_argmax(all[0]))});
        EXPECT_EQ(real_elements(argmin(x)),
                  std::vector<double>{static_cast<double>(naive_argmin(all[0]))});
      }
    }
  }
}

TEST(Argmax, BoolAndComplexAreNotImplementedAndEmptyInputsNeedADim) {
  EXPECT_EQ(error_message([&] { argmax(random_tensor({2}, ScalarType::kBool)); }),
            "\"argmax\" not implemented for 'bool'");
  EXPECT_EQ(error_code([&] { argmax(random_tensor({2}, ScalarType::kComplex64), 0); }),
            ErrorCode::kNotImplemented);
  const Tensor empty_rows = random_tensor({0, 3}, ScalarType::kInt32);
  EXPECT_EQ(error_message([&] { argmax(empty_rows); }),
            "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_EQ(error_code([&] { argmax(empty_rows); }), ErrorCode::kIndexError);
  EXPECT_EQ(error_message([&] { argmax(empty_rows, 0); }),
            "argmax(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_EQ(sizes_of(argmax(empty_rows, 1)), std::vector<int64_t>{0});
}

}  // namespace
}  // namespace bp::reductions_test

namespace bp {
namespace {

TEST(MaxDim, BoxedOutVariantReturnsItsOutArgumentsAlsoForZeroDimInputs) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, std::vector<int64_t>{3}}) {
    const Tensor self = native::empty(shape, ScalarType::kFloat32, Device(DeviceType::kCPU));
    for (int64_t i = 0; i < self.numel(); ++i) self.data_ptr<float>()[i] = static_cast<float>(i);
    const Tensor values = native::empty({0}, ScalarType::kFloat32, Device(DeviceType::kCPU));
    const Tensor indices = native::empty({0}, ScalarType::kInt64, Device(DeviceType::kCPU));
    Stack stack{self, int64_t{0}, false, values, indices};
    Dispatcher::singleton().find_op_or_throw("max.dim_max").call_boxed(&stack);
    ASSERT_EQ(stack.size(), 2u);
    ASSERT_TRUE(stack[0].is_tensor() && stack[1].is_tensor());
    EXPECT_TRUE(stack[0].to<Tensor>().is_same(values));
    EXPECT_TRUE(stack[1].to<Tensor>().is_same(indices));
    EXPECT_EQ(values.dim(), 0);
  }
}

}  // namespace
}  // namespace bp
