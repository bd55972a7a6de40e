#include "sdk/iter/loops.h"

#include <atomic>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/iter/cast_copy.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vec_exp.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

// A CPU tensor whose element at logical (C-order) position i is (i % 97) * scale - 20.
Tensor ramp(IntArrayRef sizes, ScalarType dtype = ScalarType::kFloat32, double scale = 0.5) {
  Tensor t = native::empty(sizes, dtype, kCpu);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = element_cast<T>((i % 97) * scale - 20);
  });
  return t;
}

// The elements of `t` (any strides, any real dtype) in logical order, as doubles: the naive loop.
std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  const int64_t n = t.numel();
  std::vector<int64_t> index(t.dim(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.stride(d);
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      out.push_back(element_cast<double>(static_cast<const T*>(t.data_ptr())[offset]));
    });
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
  return out;
}

// The broadcast of `t`'s values to `sizes` (the naive reference for broadcasting operands).
std::vector<double> broadcast_values(const Tensor& t, IntArrayRef sizes) {
  return values(native::expand(t, sizes));
}

// A channels-last copy of ramp(sizes) (4-d).
Tensor channels_last_ramp(IntArrayRef sizes, double scale = 0.5) {
  Tensor t = native::empty(sizes, ScalarType::kFloat32, kCpu, MemoryFormat::kChannelsLast);
  cast_copy(t, ramp(sizes, ScalarType::kFloat32, scale));
  return t;
}

float add_mul(float a, float b) { return a + 2 * b; }

// out = a + 2 b through cpu_kernel (a plain function) and cpu_kernel_vec; both must agree with
// the naive loop over the logical elements.
// The vector form of add_mul: generic (the ISA's width) by default.
struct AddMulVec {
  template <typename Vec>
  Vec operator()(Vec x, Vec y) const {
    return x + Vec(2) * y;
  }
};

template <typename VecOp = AddMulVec>
void expect_add_mul_matches_naive(const Tensor& a, const Tensor& b, const VecOp& vop = VecOp()) {
  for (int vectorised = 0; vectorised < 2; ++vectorised) {
    Tensor out;
    TensorIterator iter;
    iter.build_borrowing_binary_op(out, a, b);
    if (vectorised) {
      cpu_kernel_vec(iter, add_mul, vop);
    } else {
      cpu_kernel(iter, add_mul);
    }
    const Tensor& result = iter.output();
    const std::vector<double> va = broadcast_values(a, result.sizes());
    const std::vector<double> vb = broadcast_values(b, result.sizes());
    const std::vector<double> got = values(result);
    ASSERT_EQ(got.size(), va.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], static_cast<float>(va[i] + 2 * static_cast<float>(vb[i])))
          << "element " << i << " vectorised " << vectorised;
    }
  }
}

TEST(CpuKernel, ContiguousOperandsMatchNaiveLoop) {
  expect_add_mul_matches_naive(ramp({7, 33}), ramp({7, 33}, ScalarType::kFloat32, 0.25));
}

TEST(CpuKernel, TransposedOperandsMatchNaiveLoop) {
  expect_add_mul_matches_naive(native::t(ramp({33, 7})), ramp({7, 33}));
  expect_add_mul_matches_naive(native::t(ramp({33, 7})),
                               native::t(ramp({33, 7}, ScalarType::kFloat32, 3)));
}

TEST(CpuKernel, ChannelsLastOperandsMatchNaiveLoop) {
  const Tensor a = channels_last_ramp({2, 3, 4, 5}), b = channels_last_ramp({2, 3, 4, 5}, 3);
  expect_add_mul_matches_naive(a, b);                   // fast setup: one dense run
  expect_add_mul_matches_naive(a, ramp({2, 3, 4, 5}));  // mixed with contiguous: permuted
  expect_add_mul_matches_naive(a, ramp({3, 1, 1}));     // a per-channel broadcast
  expect_add_mul_matches_naive(channels_last_ramp({2, 40, 3, 3}),
                               ramp({40, 1, 1}, ScalarType::kFloat32, 2));
}

TEST(CpuKernel, BroadcastOperandsMatchNaiveLoop) {
  expect_add_mul_matches_naive(ramp({5, 1, 40}), ramp({3, 1}));
  expect_add_mul_matches_naive(ramp({40}), ramp({6, 40}));
}

TEST(CpuKernel, ExpandedAndZeroDimOperandsAreScalarsInTheLoop) {
  expect_add_mul_matches_naive(ramp({9, 70}), native::expand(ramp({1}), {9, 70}));
  expect_add_mul_matches_naive(native::expand(ramp({}), {70}), ramp({70}));
  expect_add_mul_matches_naive(ramp({}), ramp({}));
}

TEST(CpuKernel, SlicedWithStepOperandsMatchNaiveLoop) {
  expect_add_mul_matches_naive(native::slice(ramp({6, 80}), 1, 3, 77, 2),
                               native::slice(ramp({12, 37}), 0, 0, 12, 2));
}

TEST(CpuKernel, ZeroSizeOperandsRunNothing) {
  Tensor a = ramp({0, 5}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, a);
  int calls = 0;
  cpu_kernel(iter, [&calls](float x, float y) -> float {
    ++calls;
    return x + y;
  });
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(iter.output().sizes(), IntArrayRef({0, 5}));
  expect_add_mul_matches_naive(ramp({0, 5}), ramp({5}));
  expect_add_mul_matches_naive(ramp({3, 0}), ramp({3, 1}));
}

TEST(CpuKernel, VectorisedTailsAroundTheVectorWidthAreExact) {
  // Two of the widest vectors per step (64 floats), so every tail length up to it.
  for (int64_t n = 1; n <= 2 * kMaxVectorBytes / 4 + 1; ++n) {
    expect_add_mul_matches_naive(ramp({n}), ramp({n}, ScalarType::kFloat32, 1.5));
    expect_add_mul_matches_naive(ramp({n}), ramp({1}));
  }
}

TEST(CpuKernel, EveryInstructionSetGivesTheSameValues) {
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    expect_add_mul_matches_naive(ramp({3, 67}), ramp({67}));
    expect_add_mul_matches_naive(ramp({131}), ramp({131}, ScalarType::kFloat32, 1.5));
    expect_add_mul_matches_naive(ramp({131}), ramp({}));
    expect_add_mul_matches_naive(native::t(ramp({33, 7})), ramp({7, 33}));
    expect_add_mul_matches_naive(channels_last_ramp({2, 3, 4, 5}), ramp({2, 3, 4, 5}));
  }
  set_cpu_capability(detected);
}

TEST(CpuKernel, VectorOpsWrittenForVectorizedOfTheDefaultWidthRunOnEveryIsa) {
  const CpuCapability detected = detected_cpu_capability();
  const auto typed = [](Vectorized<float> x, Vectorized<float> y) {
    return x + Vectorized<float>(2) * y;
  };
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    expect_add_mul_matches_naive(ramp({3, 67}), ramp({67}), typed);
    expect_add_mul_matches_naive(ramp({131}), ramp({}), typed);
  }
  set_cpu_capability(detected);
}

TEST(CpuKernel, DynamicCastingConvertsInputsAndOutputs) {
  // int32 and float inputs into a float kernel with a double output: converted on the fly.
  Tensor a = ramp({4, 50}, ScalarType::kInt32, 3), b = native::t(ramp({50, 4}));
  Tensor out = native::empty({4, 50}, ScalarType::kFloat64, kCpu);
  TensorIteratorConfig config;
  config.check_all_same_dtype(false).add_output(out).add_input(a).add_input(b);
  TensorIterator iter = config.build();
  cpu_kernel_vec(iter, add_mul, [](auto x, auto y) { return x + y; });
  const std::vector<double> va = values(a), vb = values(b), got = values(out);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i],
              static_cast<float>(static_cast<float>(va[i]) + 2 * static_cast<float>(vb[i])));
  }
}

TEST(CpuKernel, DynamicCastingWritesBoolOutputs) {
  Tensor a = ramp({300}), b = ramp({1});
  Tensor out = native::empty({300}, ScalarType::kBool, kCpu);
  TensorIteratorConfig config;
  config.check_all_same_dtype(false).add_output(out).add_input(a).add_input(b);
  TensorIterator iter = config.build();
  cpu_kernel(iter, [](float x, float y) -> bool { return x < y; });
  const std::vector<double> va = values(a), got = values(out);
  const double threshold = values(b)[0];
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], va[i] < threshold ? 1.0 : 0.0);
}

// A predicate's vector op returns masks; cpu_kernel_vec stores them as bools. Every element width,
// on every ISA the CPU runs, with a tail and a broadcast operand.
TEST(CpuKernel, PredicatesStoreVectorMasksAsBools) {
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    SCOPED_TRACE(std::string(cpu_capability_name(c)));
    for (ScalarType dtype : {ScalarType::kInt8, ScalarType::kInt16, ScalarType::kFloat32,
                             ScalarType::kFloat64, ScalarType::kInt64}) {
      SCOPED_TRACE(std::string(scalar_type_name(dtype)));
      for (const Tensor& b : {ramp({203}, dtype, 0.25), ramp({1}, dtype)}) {
        Tensor a = ramp({203}, dtype, 0.5);
        Tensor out = native::empty({203}, ScalarType::kBool, kCpu);
        TensorIteratorConfig config;
        config.check_all_same_dtype(false).add_output(out).add_input(a).add_input(b);
        TensorIterator iter = config.build();
        visit_dtype(dtype, [&](auto tag) {
          using T = typename decltype(tag)::type;
          if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            cpu_kernel_vec(
                iter, [](T x, T y) -> bool { return x <= y; },
                [](auto x, auto y) { return x <= y; });
          }
        });
        const std::vector<double> va = values(a), vb = broadcast_values(b, {203});
        const std::vector<double> got = values(out);
        const uint8_t* bytes = static_cast<const uint8_t*>(out.data_ptr());
        for (size_t i = 0; i < got.size(); ++i) {
          ASSERT_EQ(bytes[i], va[i] <= vb[i] ? 1 : 0) << i;
        }
      }
    }
  }
  set_cpu_capability(detected);
}

// masked_fill's vector form: 9 where the mask (0 / 1 lanes) is set, else x; in place it is run
// only on steps where the mask has a set element.
struct FillNineVec {
  static constexpr int kKeptWhereClear = 1;
  std::atomic<int>* calls;
  template <typename Vec>
  Vec operator()(Vec x, Vec mask) const {
    calls->fetch_add(1, std::memory_order_relaxed);
    return blendv(Vec(9), x, mask == Vec(0));
  }
};

TEST(CpuKernel, InPlaceMaskedOpsRunOnlyWhereTheMaskIsSet) {
  const auto fill_nine = [](float x, bool mask) -> float { return mask ? 9.0f : x; };
  for (int64_t first_set : {int64_t{-1}, int64_t{64}, int64_t{0}}) {
    SCOPED_TRACE(first_set);
    // Set in [first_set, first_set + 20), or nowhere.
    Tensor mask = native::empty({1003}, ScalarType::kBool, kCpu);
    bool* m = static_cast<bool*>(mask.data_ptr());
    for (int64_t i = 0; i < 1003; ++i)
      m[i] = first_set >= 0 && i >= first_set && i < first_set + 20;
    for (bool in_place : {true, false}) {
      Tensor self = ramp({1003});
      const std::vector<double> before = values(self);
      Tensor out = in_place ? self : native::empty({1003}, ScalarType::kFloat32, kCpu);
      TensorIteratorConfig config;
      config.check_all_same_dtype(false).add_output(out).add_input(self).add_input(mask);
      TensorIterator iter = config.build();
      std::atomic<int> calls{0};
      cpu_kernel_vec(iter, fill_nine, FillNineVec{&calls});
      const std::vector<double> got = values(out);
      for (int64_t i = 0; i < 1003; ++i) ASSERT_EQ(got[i], m[i] ? 9.0 : before[i]) << i;
      if (in_place) {
        // A step is 2 vectors of at least 4 floats: a run of 20 overlaps at most 3 steps.
        EXPECT_LE(calls.load(), first_set < 0 ? 0 : 3 * 2);
      } else {
        EXPECT_GT(calls.load(), 3 * 2);
      }
    }
  }
  // A broadcast mask that is clear leaves an in-place row alone.
  Tensor self = ramp({1003});
  Tensor clear = native::empty({1}, ScalarType::kBool, kCpu);
  *static_cast<bool*>(clear.data_ptr()) = false;
  TensorIteratorConfig config;
  config.check_all_same_dtype(false).add_output(self).add_input(self).add_input(clear);
  TensorIterator iter = config.build();
  std::atomic<int> calls{0};
  cpu_kernel_vec(iter, fill_nine, FillNineVec{&calls});
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(values(self), values(ramp({1003})));
}

TEST(CpuKernel, IntegerKernelsUseIntegerVectors) {
  Tensor a = ramp({100}, ScalarType::kInt64, 7), b = ramp({100}, ScalarType::kInt64, 3), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, b);
  cpu_kernel_vec(
      iter, [](int64_t x, int64_t y) -> int64_t { return std::max(x, y) * 3; },
      [](auto x, auto y) { return maximum(x, y) * decltype(x)(3); });
  const std::vector<double> va = values(a), vb = values(b), got = values(iter.output());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], std::max(va[i], vb[i]) * 3);
}

TEST(CpuKernel, LargeIteratorsRunOnSeveralThreadsWithTheSameResult) {
  const int before = get_num_threads();
  set_num_threads(2);
  expect_add_mul_matches_naive(ramp({300, 1000}), native::t(ramp({1000, 300})));
  expect_add_mul_matches_naive(ramp({200000}), ramp({1}));
  set_num_threads(before);
}

TEST(CpuKernel, UnaryAndTernaryKernels) {
  Tensor a = ramp({10, 10}), out;
  TensorIterator iter;
  iter.build_borrowing_unary_op(out, a);
  cpu_kernel_vec(
      iter, [](float x) -> float { return std::exp(x / 8); },
      [](auto x) { return vec_math::exp_float(x / decltype(x)(8)); });
  const std::vector<double> va = values(a), got = values(iter.output());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], std::exp(va[i] / 8), 2e-7 * got[i]);

  Tensor c = ramp({10, 1}), out3;
  TensorIterator iter3;
  iter3.build_ternary_op(out3, a, c, a);
  cpu_serial_kernel(iter3, [](float x, float y, float z) -> float { return x < y ? z : -z; });
  const std::vector<double> vc = broadcast_values(c, {10, 10}), got3 = values(iter3.output());
  for (size_t i = 0; i < got3.size(); ++i) ASSERT_EQ(got3[i], va[i] < vc[i] ? va[i] : -va[i]);
}

TEST(CpuKernel, RejectsAKernelOfTheWrongArity) {
  Tensor a = ramp({4}), out;
  TensorIterator iter;
  iter.build_borrowing_binary_op(out, a, a);
  try {
    cpu_kernel(iter, [](float x) -> float { return x; });
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("the kernel takes 1 arguments but the iterator has 2 inputs"),
        std::string::npos)
        << e.what();
  }
}

TEST(CastCopy, TransposedCopiesMatchNaiveLoopForEveryBlockRemainder) {
  const int before = get_num_threads();
  set_num_threads(2);
  for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kInt16, ScalarType::kFloat64}) {
    for (int64_t rows : {1, 33, 70, 300}) {
      Tensor src = ramp({rows, 45 + rows}, ScalarType::kFloat32, 0.75);
      Tensor dst = native::empty({45 + rows, rows}, dtype, kCpu);
      cast_copy(dst, native::t(src));
      const std::vector<double> want = values(native::t(src)), got = values(dst);
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], dtype == ScalarType::kInt16
                              ? static_cast<double>(static_cast<int16_t>(want[i]))
                              : want[i])
            << "element " << i << " rows " << rows;
      }
    }
  }
  set_num_threads(before);
}

}  // namespace
}  // namespace bp
