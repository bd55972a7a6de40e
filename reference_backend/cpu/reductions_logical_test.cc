// all and any on CPU: every input dtype, bool and uint8 results, empty reductions.
#include <cmath>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/reductions_test_util.h"
#include "sdk/core/views.h"

namespace bp::reductions_test {
namespace {

std::vector<double> naive(const Groups& groups, bool all) {
  std::vector<double> out;
  for (const auto& g : groups) {
    bool r = all;
    for (const Complex& v : g) r = all ? (r && v != Complex(0)) : (r || v != Complex(0));
    out.push_back(r);
  }
  return out;
}

// Mostly non-zero values with a few zeros, so that both results occur.
Tensor sparse_zeros(ScalarType dtype, uint64_t seed) {
  Tensor x = random_tensor({3, 4, 5}, dtype, seed);
  std::vector<Complex> values = elements(x);
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == Complex(0) && i % 3 != 0) values[i] = 1;
  }
  return tensor_of({3, 4, 5}, dtype, values);
}

TEST(AllAny, EveryDtypeOverEachDimMatchesNaiveLoop) {
  for (ScalarType dtype : kAllDtypes) {
    const Tensor x = sparse_zeros(dtype, 4);
    for (int64_t dim : {0, 1, 2, -1}) {
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(::testing::Message() << dtype << " dim " << dim << " keepdim " << keepdim);
        const ScalarType want =
            dtype == ScalarType::kUInt8 ? ScalarType::kUInt8 : ScalarType::kBool;
        const Tensor all_r = x.all(dim, keepdim);
        const Tensor any_r = x.any(dim, keepdim);
        EXPECT_EQ(all_r.dtype(), want);
        EXPECT_EQ(any_r.dtype(), want);
        EXPECT_EQ(sizes_of(all_r), reduced_sizes({3, 4, 5}, {dim}, keepdim));
        EXPECT_EQ(real_elements(all_r), naive(reduction_groups(x, {dim}), true));
        EXPECT_EQ(real_elements(any_r), naive(reduction_groups(x, {dim}), false));
      }
    }
  }
}

TEST(AllAny, NaNAndImaginaryPartsCountAsTrue) {
  const Tensor f = tensor_of({2}, ScalarType::kFloat32, std::vector<double>{std::nan(""), 2});
  EXPECT_EQ(real_elements(all(f, 0)), std::vector<double>{1});
  const Tensor c = tensor_of({2}, ScalarType::kComplex64, std::vector<Complex>{{0, 1}, {0, 0}});
  EXPECT_EQ(real_elements(all(c, 0)), std::vector<double>{0});
  EXPECT_EQ(real_elements(any(c, 0)), std::vector<double>{1});
  EXPECT_EQ(real_elements(all(native::slice(c, 0, 0, 1), 0)), std::vector<double>{1});
}

TEST(AllAny, EmptyReductionsGiveTheIdentity) {
  const Tensor x = random_tensor({0, 2}, ScalarType::kInt32);
  EXPECT_EQ(real_elements(all(x, 0)), (std::vector<double>{1, 1}));
  EXPECT_EQ(real_elements(any(x, 0)), (std::vector<double>{0, 0}));
  EXPECT_EQ(sizes_of(all(x, 1)), std::vector<int64_t>{0});
}

TEST(AllAny, LargeInputsOnSeveralThreads) {
  ThreadCount threads(2);
  std::vector<double> values(200000, 1.0);
  values[150001] = 0;
  const Tensor x = tensor_of({2, 100000}, ScalarType::kFloat64, values);
  EXPECT_EQ(real_elements(all(x, 1)), (std::vector<double>{1, 0}));
  const Tensor one_row = native::slice(x, 1, 50000, 100000);
  EXPECT_EQ(real_elements(any(one_row, 0)), std::vector<double>(50000, 1.0));
}

TEST(AllAny, OutMayBeBoolOrUint8Only) {
  const Tensor x = sparse_zeros(ScalarType::kFloat32, 2);
  Tensor bytes = empty({0}, ScalarType::kUInt8, kCpu);
  all_out(bytes, x, 1);
  EXPECT_EQ(sizes_of(bytes), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(real_elements(bytes), real_elements(all(x, 1)));
  Tensor flags = empty({3, 5}, ScalarType::kBool, kCpu);
  any_out(flags, x, 1);
  EXPECT_EQ(real_elements(flags), real_elements(any(x, 1)));
  Tensor floats = empty({3, 5}, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(error_message([&] { all_out(floats, x, 1); }),
            "all only supports bool tensor for result, got: float32");
  EXPECT_EQ(error_message([&] { any_out(floats, x, 1); }),
            "any only supports bool tensor for result, got: float32");
}

}  // namespace
}  // namespace bp::reductions_test
