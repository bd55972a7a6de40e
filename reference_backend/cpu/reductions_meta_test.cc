// What every reduction shares: Meta and CPU agree on sizes, strides and dtypes; dims are checked
// the same way; out= variants resize; kernels accept exactly the dtypes the declarations list; a
// plugin that registers only an out= reduction gets the functional variant through Common.
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/reductions_test_util.h"
#include "sdk/core/views.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"
#include "sdk/ops/op_table.h"

namespace bp::reductions_test {
namespace {

using ::testing::ElementsAre;

// One functional reduction as a test calls it: its structured op's name and a call over dims
// {0, -1} of its input (a single dim, -1, for the ops that take one).
struct Reduction {
  std::string op;  // the out= op, whose declaration lists the dtypes
  std::function<std::vector<Tensor>(const Tensor&)> call;
};

const std::vector<Reduction>& reductions() {
  static const std::vector<Reduction> list = {
      {"sum.IntList_out",
       [](const Tensor& x) {
         return std::vector{sum(x, IntArrayRef({0, -1}))};
       }},
      {"mean.out",
       [](const Tensor& x) {
         return std::vector{mean(x, IntArrayRef({0, -1}))};
       }},
      {"prod.int_out", [](const Tensor& x) { return std::vector{prod(x, -1, true)}; }},
      {"amax.out",
       [](const Tensor& x) {
         return std::vector{amax(x, {0, -1})};
       }},
      {"max.dim_max",
       [](const Tensor& x) {
         auto [values, indices] = max(x, -1);
         return std::vector{values, indices};
       }},
      {"argmax.out", [](const Tensor& x) { return std::vector{argmax(x, -1, true)}; }},
      {"var.correction_out",
       [](const Tensor& x) {
         return std::vector{var(x, IntArrayRef({0, -1}))};
       }},
      {"norm.out",
       [](const Tensor& x) {
         return std::vector{norm(x, Scalar(3), {0, -1})};
       }},
      {"norm.dtype_out",
       [](const Tensor& x) {
         return std::vector{
             norm(x, Scalar(2), {0, -1}, false,
                  is_complex(x.dtype()) ? ScalarType::kComplex128 : ScalarType::kFloat64)};
       }},
      {"all.out", [](const Tensor& x) { return std::vector{all(x, -1)}; }},
      {"any.out", [](const Tensor& x) { return std::vector{any(x, -1, true)}; }},
      {"logsumexp.out",
       [](const Tensor& x) {
         return std::vector{logsumexp(x, {0, -1}, true)};
       }},
  };
  return list;
}

TEST(Reductions, MetaGivesTheSizesStridesAndDtypesOfCpu) {
  for (const Reduction& r : reductions()) {
    for (ScalarType dtype : {ScalarType::kFloat32, ScalarType::kComplex64, ScalarType::kInt32}) {
      const uint32_t declared = find_op_info(r.op)->dtypes;
      if (!(declared & scalar_type_mask(dtype))) continue;
      SCOPED_TRACE(::testing::Message() << r.op << " " << dtype);
      // A transposed input: results are contiguous whatever the input's layout.
      const Tensor cpu = native::transpose(random_tensor({4, 3, 5}, dtype), 0, 2);
      const Tensor meta = native::transpose(empty({4, 3, 5}, dtype, kMeta), 0, 2);
      const std::vector<Tensor> want = r.call(cpu);
      const std::vector<Tensor> got = r.call(meta);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].device(), kMeta);
        EXPECT_EQ(got[i].sizes(), want[i].sizes());
        EXPECT_EQ(got[i].strides(), want[i].strides());
        EXPECT_EQ(got[i].dtype(), want[i].dtype());
        EXPECT_TRUE(want[i].is_contiguous());
      }
    }
  }
}

TEST(Reductions, KernelsAcceptExactlyTheDeclaredDtypes) {
  for (const Reduction& r : reductions()) {
    const OpInfo* info = find_op_info(r.op);
    ASSERT_NE(info, nullptr) << r.op;
    for (ScalarType dtype : kAllDtypes) {
      SCOPED_TRACE(::testing::Message() << r.op << " " << dtype);
      const Tensor x = random_tensor({2, 3}, dtype);
      const std::optional<ErrorCode> code = error_code([&] { r.call(x); });
      EXPECT_EQ(!code.has_value(), info->supports(index_of(dtype)))
          << error_message([&] { r.call(x); });
    }
  }
}

TEST(Reductions, DimsOutOfRangeAndRepeatedDimsAreErrors) {
  const Tensor x = random_tensor({2, 3}, ScalarType::kFloat32);
  const std::string out_of_range =
      "Dimension out of range (expected to be in range of [-2, 1], but got 2)";
  EXPECT_EQ(error_message([&] { sum(x, IntArrayRef({2})); }), out_of_range);
  EXPECT_EQ(error_code([&] { sum(x, IntArrayRef({2})); }), ErrorCode::kIndexError);
  EXPECT_EQ(error_message([&] { prod(x, 2); }), out_of_range);
  EXPECT_EQ(error_message([&] { amax(x, {-3}); }),
            "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  EXPECT_EQ(error_message([&] { max(x, 2); }), out_of_range);
  EXPECT_EQ(error_message([&] { argmax(x, 2); }), out_of_range);
  EXPECT_EQ(error_message([&] { all(x, 2); }), out_of_range);
  EXPECT_EQ(error_message([&] { logsumexp(x, {2}); }), out_of_range);
  const std::string repeated = "dim 1 appears multiple times in the list of dims";
  EXPECT_EQ(error_message([&] { sum(x, IntArrayRef({1, -1})); }), repeated);
  EXPECT_EQ(error_message([&] { mean(x, IntArrayRef({-1, 1})); }), repeated);
  EXPECT_EQ(error_message([&] { amax(x, {1, 1}); }), repeated);
  EXPECT_EQ(error_message([&] { var(x, IntArrayRef({1, -1})); }), repeated);
  EXPECT_EQ(error_message([&] { norm(x, Scalar(2), {1, -1}); }), repeated);
  EXPECT_EQ(error_message([&] { logsumexp(x, {1, -1}); }), repeated);
}

TEST(Reductions, EveryOutVariantFillsAnEmptyOutLikeTheFunctionalVariant) {
  const Tensor x = random_tensor({3, 4}, ScalarType::kFloat32, 9);
  auto check = [](const Tensor& out, const Tensor& want) {
    EXPECT_EQ(out.sizes(), want.sizes());
    EXPECT_EQ(elements(out), elements(want));
  };
  auto fresh = [](ScalarType dtype) { return empty({0}, dtype, kCpu); };
  Tensor out = fresh(ScalarType::kFloat32);
  check(sum_out(out, x, IntArrayRef({1}), true), sum(x, IntArrayRef({1}), true));
  out = fresh(ScalarType::kFloat32);
  check(mean_out(out, x, IntArrayRef({0})), mean(x, IntArrayRef({0})));
  out = fresh(ScalarType::kFloat32);
  check(prod_out(out, x, 0), prod(x, 0));
  out = fresh(ScalarType::kFloat32);
  check(amax_out(out, x, {1}), amax(x, {1}));
  out = fresh(ScalarType::kInt64);
  check(argmax_out(out, x, 1), argmax(x, 1));
  out = fresh(ScalarType::kFloat32);
  check(var_out(out, x, IntArrayRef({1}), Scalar(0)), var(x, IntArrayRef({1}), Scalar(0)));
  out = fresh(ScalarType::kFloat32);
  check(norm_out(out, x, Scalar(1), {1}), norm(x, Scalar(1), {1}));
  out = fresh(ScalarType::kFloat64);
  check(norm_out(out, x, Scalar(1), {1}, false, ScalarType::kFloat64),
        norm(x, Scalar(1), {1}, false, ScalarType::kFloat64));
  out = fresh(ScalarType::kBool);
  check(all_out(out, x, 0), all(x, 0));
  out = fresh(ScalarType::kBool);
  check(any_out(out, x, 0), any(x, 0));
  out = fresh(ScalarType::kFloat32);
  check(logsumexp_out(out, x, {1}), logsumexp(x, {1}));
  // A given out keeps its strides when its sizes already fit.
  Tensor strided = native::slice(empty({3, 2}, ScalarType::kFloat32, kCpu), 1, 0, 1);
  sum_out(strided, x, IntArrayRef({1}), true);
  EXPECT_THAT(strided.strides(), ElementsAre(2, 1));
  EXPECT_EQ(elements(strided), elements(sum(x, IntArrayRef({1}), true)));
}

// A plugin backend that implements only sum.IntList_out (over its host-memory device), summing
// a contiguous [rows, cols] float32 tensor over dim 1.
class SumOutOnlyPlugin : public ::testing::Test {
 protected:
  static inline int calls = 0;
  static Tensor& sum_out_kernel(DispatchKeySet, const Tensor& self, std::optional<IntArrayRef>,
                                bool, std::optional<ScalarType>, Tensor& out) {
    ++calls;
    const std::vector<float> x = FakeDevice::to_floats(self);
    float* o = static_cast<float*>(out.data_ptr());
    const int64_t cols = self.size(1);
    for (int64_t i = 0; i < self.size(0); ++i) {
      o[i] = 0;
      for (int64_t j = 0; j < cols; ++j) o[i] += x[i * cols + j];
    }
    return out;
  }

  FakeDevice dev{"sum_out_only"};
  Library lib{"bp"};
  void SetUp() override {
    calls = 0;
    lib.impl("sum.IntList_out", dev.key(), KernelFunction::make_from_unboxed<&sum_out_kernel>());
  }
};

TEST_F(SumOutOnlyPlugin, GetsTheFunctionalVariantAndSharedChecksThroughCommon) {
  const Tensor x = dev.from_floats({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor r = sum(x, IntArrayRef({1}), /*keepdim=*/true);
  EXPECT_EQ(r.device(), dev.device());
  EXPECT_THAT(r.sizes(), ElementsAre(2, 1));
  EXPECT_THAT(FakeDevice::to_floats(r), ElementsAre(6, 15));
  EXPECT_EQ(error_message([&] { sum(x, IntArrayRef({3})); }),
            "Dimension out of range (expected to be in range of [-2, 1], but got 3)");
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace bp::reductions_test
