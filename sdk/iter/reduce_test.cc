#include "sdk/iter/reduce.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

// Element i (C order) is ((i * 37) % 101) / 4 - 12: varied, exact in float.
Tensor ramp(IntArrayRef sizes, ScalarType dtype = ScalarType::kFloat32) {
  Tensor t = native::empty(sizes, dtype, kCpu);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = element_cast<T>(((i * 37) % 101) / 4.0 - 12);
  });
  return t;
}

double element(const Tensor& t, IntArrayRef index) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.stride(d);
  return visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return element_cast<double>(static_cast<const T*>(t.data_ptr())[offset]);
  });
}

// The naive 2-D sum over `dim` (0 or 1) of a 2-D tensor of any strides.
std::vector<double> naive_sum(const Tensor& t, int dim) {
  std::vector<double> out(t.size(1 - dim), 0.0);
  for (int64_t i = 0; i < t.size(0); ++i) {
    for (int64_t j = 0; j < t.size(1); ++j) out[dim == 0 ? j : i] += element(t, {i, j});
  }
  return out;
}

Tensor sum(const Tensor& self, IntArrayRef dims, bool keepdim = false,
           ScalarType out_dtype = ScalarType::kFloat32) {
  Tensor result;
  TensorIterator iter = make_reduction("sum", result, self, dims, keepdim, self.dtype(), out_dtype);
  binary_kernel_reduce_vec(
      iter, [](float a, float b) -> float { return a + b; }, [](auto a, auto b) { return a + b; },
      0.0f);
  return result;
}

void expect_sums_match_naive(const Tensor& t) {
  for (int dim = 0; dim < 2; ++dim) {
    const Tensor result = sum(t, {dim});
    const std::vector<double> want = naive_sum(t, dim);
    ASSERT_EQ(result.sizes(), IntArrayRef({static_cast<int64_t>(want.size())}));
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(element(result, {static_cast<int64_t>(i)}), want[i], 1e-6 * t.numel())
          << "dim " << dim << " output " << i;
    }
  }
}

TEST(Reduce, SumOverEachDimMatchesNaiveLoop) {
  expect_sums_match_naive(ramp({7, 45}));
  expect_sums_match_naive(ramp({130, 3}));
}

TEST(Reduce, SumOfNonContiguousInputsMatchesNaiveLoop) {
  expect_sums_match_naive(native::t(ramp({45, 70})));
  expect_sums_match_naive(native::slice(ramp({20, 90}), 1, 1, 90, 3));
}

TEST(Reduce, LargeSumsOnSeveralThreadsMatchNaiveLoop) {
  const int before = get_num_threads();
  set_num_threads(2);
  expect_sums_match_naive(ramp({300, 517}));  // many outputs: split over outputs
  expect_sums_match_naive(ramp({40000, 2}));  // one output per thread
  expect_sums_match_naive(ramp({1, 70001}));  // one output: split over the reduced dim
  set_num_threads(before);
}

TEST(Reduce, SumOverAllDimsAndKeepdim) {
  Tensor x = ramp({3, 4, 5});
  double want = 0;
  for (int64_t i = 0; i < 60; ++i) want += element(native::reshape(x, {60}), {i});
  const Tensor all = sum(x, {});
  EXPECT_EQ(all.dim(), 0);
  EXPECT_DOUBLE_EQ(element(all, {}), want);
  const Tensor kept = sum(x, {0, 2}, /*keepdim=*/true);
  EXPECT_EQ(kept.sizes(), IntArrayRef({1, 4, 1}));
  for (int64_t j = 0; j < 4; ++j) {
    double s = 0;
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t k = 0; k < 5; ++k) s += element(x, {i, j, k});
    }
    EXPECT_DOUBLE_EQ(element(kept, {0, j, 0}), s);
  }
  EXPECT_EQ(sum(x, {-1}).sizes(), IntArrayRef({3, 4}));
}

TEST(Reduce, SumOverAZeroSizeDimIsZero) {
  const Tensor result = sum(ramp({0, 3}), {0});
  ASSERT_EQ(result.sizes(), IntArrayRef({3}));
  for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(element(result, {j}), 0.0);
  EXPECT_EQ(sum(ramp({3, 0}), {0}).sizes(), IntArrayRef({0}));
}

TEST(Reduce, OuterSumsOverSeveralReducedDimsMatchNaiveLoop) {
  // The kept dim is contiguous: rows of the first reduced dim are taken 8 at a time, up to its
  // end (13 = 8 + 5), then the next index of the second reduced dim.
  Tensor x = ramp({3, 13, 70});
  const Tensor result = sum(x, {0, 1});
  ASSERT_EQ(result.sizes(), IntArrayRef({70}));
  for (int64_t k = 0; k < 70; ++k) {
    double want = 0;
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 13; ++j) want += element(x, {i, j, k});
    }
    ASSERT_NEAR(element(result, {k}), want, 1e-4) << k;
  }
}

TEST(Reduce, SumsAreBitwiseTheSameOnEveryInstructionSet) {
  // Values whose float sums round differently in different orders.
  Tensor x = native::empty({37, 1001}, ScalarType::kFloat32, kCpu);
  for (int64_t i = 0; i < x.numel(); ++i) {
    x.data_ptr<float>()[i] = 1.0f / static_cast<float>(1 + (i * 7919) % 1000);
  }
  const CpuCapability detected = detected_cpu_capability();
  std::vector<std::vector<float>> reference(2);
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int dim = 0; dim < 2; ++dim) {
      const Tensor result = sum(x, {dim});
      std::vector<float> got(result.data_ptr<float>(), result.data_ptr<float>() + result.numel());
      if (reference[dim].empty()) reference[dim] = got;
      EXPECT_EQ(got, reference[dim]) << cpu_capability_name(c) << " dim " << dim;
    }
  }
  set_cpu_capability(detected);
}

TEST(Reduce, VectorOpsWrittenForVectorizedOfTheDefaultWidthGiveTheSameSums) {
  Tensor x = ramp({37, 1001});
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int dim = 0; dim < 2; ++dim) {
      Tensor result;
      TensorIterator iter = make_reduction("sum", result, x, {dim}, false, ScalarType::kFloat32,
                                           ScalarType::kFloat32);
      binary_kernel_reduce_vec(
          iter, [](float a, float b) -> float { return a + b; },
          [](Vectorized<float> a, Vectorized<float> b) { return a + b; }, 0.0f);
      const Tensor generic = sum(x, {dim});
      for (int64_t i = 0; i < result.numel(); ++i) {
        ASSERT_EQ(result.data_ptr<float>()[i], generic.data_ptr<float>()[i])
            << cpu_capability_name(c) << " dim " << dim << " output " << i;
      }
    }
  }
  set_cpu_capability(detected);
}

TEST(Reduce, HalfInputsAccumulateInFloat) {
  // 4096 ones: a float16 accumulator would stop at 2048.
  Tensor ones = native::empty({4096}, ScalarType::kFloat16, kCpu);
  for (int64_t i = 0; i < 4096; ++i) ones.data_ptr<Half>()[i] = Half(1.0f);
  const Tensor result = sum(ones, {0}, false, ScalarType::kFloat16);
  EXPECT_EQ(result.dtype(), ScalarType::kFloat16);
  EXPECT_EQ(element(result, {}), 4096.0);
}

TEST(Reduce, MeanDividesInTheProjection) {
  Tensor x = ramp({6, 9}), result;
  TensorIterator iter =
      make_reduction("mean", result, x, {1}, false, ScalarType::kFloat32, ScalarType::kFloat32);
  binary_kernel_reduce_vec(
      iter, [](float a, float b) -> float { return a + b; }, [](auto a, auto b) { return a + b; },
      0.0f, [](float s) { return s / 9; });
  const std::vector<double> want = naive_sum(x, 1);
  for (int64_t i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(element(result, {i}), want[i] / 9);
}

// max with argmax, PyTorch's semantics: the first index wins ties, NaN wins (its first index).
struct MaxWithIndex {
  using Acc = std::pair<float, int64_t>;
  static bool better(const Acc& acc, float x) {
    return !std::isnan(acc.first) && (std::isnan(x) || x > acc.first);
  }
  Acc reduce(Acc acc, float x, int64_t idx) const { return better(acc, x) ? Acc(x, idx) : acc; }
  Acc combine(Acc a, Acc b) const { return better(a, b.first) ? b : a; }
  Acc project(Acc a) const { return a; }
};

void max_dim(const Tensor& x, int64_t dim, Tensor& values, Tensor& indices) {
  TensorIterator iter = make_reduction("max", values, indices, x, {dim}, false,
                                       ScalarType::kFloat32, ScalarType::kInt64);
  binary_kernel_reduce(iter, MaxWithIndex(),
                       MaxWithIndex::Acc(-std::numeric_limits<float>::infinity(), 0));
}

TEST(Reduce, MaxWithArgmaxTakesTheFirstIndexOnTies) {
  Tensor x = ramp({5, 300}), values, indices;
  max_dim(x, 1, values, indices);
  for (int64_t i = 0; i < 5; ++i) {
    double best = -INFINITY;
    int64_t arg = -1;
    for (int64_t j = 0; j < 300; ++j) {
      if (element(x, {i, j}) > best) best = element(x, {i, j}), arg = j;
    }
    EXPECT_EQ(element(values, {i}), best);
    EXPECT_EQ(element(indices, {i}), arg);
  }
  Tensor tvalues, tindices;
  max_dim(native::t(x), 0, tvalues, tindices);  // the same reduction through a transposed view
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(element(tindices, {i}), element(indices, {i}));
}

TEST(Reduce, MaxPropagatesNaNWithItsIndexOnSeveralThreads) {
  const int before = get_num_threads();
  set_num_threads(2);
  Tensor x = ramp({100000}), values, indices;
  x.data_ptr<float>()[70000] = NAN;
  x.data_ptr<float>()[80000] = NAN;
  max_dim(x, 0, values, indices);
  EXPECT_TRUE(std::isnan(element(values, {})));
  EXPECT_EQ(element(indices, {}), 70000);
  set_num_threads(before);
}

TEST(Reduce, ReportsPyTorchErrors) {
  Tensor x = ramp({2, 3}), result;
  auto message = [&](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] {
              sum(x, {1, -1});
            }).find("dim 1 appears multiple times in the list of dims"),
            std::string::npos);
  EXPECT_NE(message([&] {
              sum(x, {2});
            }).find("Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
            std::string::npos);
  result = native::empty({2}, ScalarType::kInt32, kCpu);
  EXPECT_NE(message([&] {
              make_reduction("sum", result, x, {1}, false, ScalarType::kFloat32,
                             ScalarType::kFloat32);
            }).find("sum: provided dtype must match dtype of result. Got int32 and float32."),
            std::string::npos);
}

}  // namespace
}  // namespace bp
