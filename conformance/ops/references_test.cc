// Spot checks of the references against results PyTorch gives (values taken from PyTorch's
// documented semantics), for the rules that are easy to get wrong: rounding modes, integer
// wrap-around, NaN propagation, empty inputs, view geometry, error messages.
#include <cmath>

#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor tensor(ScalarType t, Sizes sizes, std::vector<double> values) {
  RefTensor r{t, std::move(sizes), {}};
  for (double v : values) {
    r.values.push_back(kind_of(t) == Kind::kInt ? from_int(Int(static_cast<int64_t>(v)))
                                                : from_real(v));
  }
  return make_contiguous(r);
}

Expected reference(const std::string& entry, const Sample& s) {
  const OpEntry* e = op_database().find(entry);
  EXPECT_NE(e, nullptr) << entry;
  return e->reference(RefArgs(s));
}

std::vector<double> values(const Expected& e, size_t output = 0) {
  std::vector<double> out;
  const RefTensor& t = e.outputs[output].value;
  for (const Wide& w : t.values) out.push_back(as_real(w, t.dtype));
  return out;
}

std::string error(const std::string& entry, const Sample& s) {
  try {
    reference(entry, s);
  } catch (const RefError& e) {
    return e.message;
  }
  return "(no error)";
}

TEST(References, DivisionRoundsTowardZeroOrDownAndKeepsIntegers) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt32, {2}, {-7, 7}));
  s.add("other", tensor(ScalarType::kInt32, {2}, {2, -2}));
  s.add("rounding_mode", Value("floor"));
  Expected floor = reference("div.Tensor_mode", s);
  EXPECT_EQ(floor.outputs[0].value.dtype, ScalarType::kInt32);
  EXPECT_THAT(values(floor), ElementsAre(-4, -4));
  s.set("rounding_mode", Value("trunc"));
  EXPECT_THAT(values(reference("div.Tensor_mode", s)), ElementsAre(-3, -3));
  s.set("rounding_mode", Value());
  Expected true_div = reference("div.Tensor_mode", s);
  EXPECT_EQ(true_div.outputs[0].value.dtype, ScalarType::kFloat32);
  EXPECT_THAT(values(true_div), ElementsAre(-3.5, -3.5));
}

TEST(References, IntegerDivisionByZeroRaisesAfterTheOutputIsBuilt) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt64, {2}, {1, 2}));
  s.add("other", tensor(ScalarType::kInt64, {2}, {1, 0}));
  try {
    reference("remainder.Tensor", s);
    FAIL();
  } catch (const RefError& e) {
    EXPECT_EQ(e.message, "ZeroDivisionError");
    EXPECT_EQ(e.result_dtype, ScalarType::kInt64);
  }
}

TEST(References, RemainderHasTheSignOfTheDivisor) {
  Sample s;
  s.add("self", tensor(ScalarType::kFloat64, {3}, {-7.5, 7, 5}));
  s.add("other", tensor(ScalarType::kFloat64, {3}, {2, -2, 0}));
  const std::vector<double> r = values(reference("remainder.Tensor", s));
  EXPECT_EQ(r[0], 0.5);
  EXPECT_EQ(r[1], -1);
  EXPECT_TRUE(std::isnan(r[2]));
}

TEST(References, IntegerPowersWrapAndNegativeExponentsFollowPowi) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt8, {4}, {2, 2, -1, 3}));
  s.add("exponent", tensor(ScalarType::kInt8, {4}, {7, -1, -3, 4}));
  EXPECT_THAT(values(reference("pow.Tensor_Tensor", s)), ElementsAre(-128, 0, -1, 81));
  Sample scalar;
  scalar.add("self", tensor(ScalarType::kInt32, {1}, {2}));
  scalar.add("exponent", Value(Scalar(int64_t{-1})));
  EXPECT_EQ(error("pow.Tensor_Scalar", scalar),
            "Integers to negative integer powers are not allowed.");
}

TEST(References, GcdIsNonNegative) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt16, {3}, {-12, 0, 7}));
  s.add("other", tensor(ScalarType::kInt16, {3}, {18, 0, -21}));
  EXPECT_THAT(values(reference("gcd", s)), ElementsAre(6, 0, 7));
}

TEST(References, NanToNumUsesTheDtypesLimits) {
  Sample s;
  s.add("self", tensor(ScalarType::kFloat16, {3}, {NAN, INFINITY, -INFINITY}));
  EXPECT_THAT(values(reference("nan_to_num", s)), ElementsAre(0, 65504, -65504));
}

TEST(References, AlphaErrorsComeAfterTheOutputIsBuilt) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt32, {2}, {1, 2}));
  s.add("other", tensor(ScalarType::kInt32, {2}, {1, 2}));
  s.add("alpha", Value(Scalar(1.5)));
  try {
    reference("add.Tensor", s);
    FAIL();
  } catch (const RefError& e) {
    EXPECT_EQ(e.message,
              "For integral input tensors, argument alpha must not be a floating point number.");
    EXPECT_EQ(e.result_sizes, Sizes{2});
  }
  s.set("other", tensor(ScalarType::kBool, {2}, {1, 0}));
  s.set("self", tensor(ScalarType::kBool, {2}, {1, 1}));
  EXPECT_THAT(error("sub.Tensor", s), HasSubstr("with two bool tensors is not supported"));
}

TEST(References, ReductionsPropagateNaNAndHandleEmptyInputs) {
  Sample s;
  s.add("self", tensor(ScalarType::kFloat32, {4}, {1, NAN, 3, NAN}));
  s.add("dim", Value(int64_t{0}));
  Expected max = reference("max.dim", s);
  EXPECT_TRUE(std::isnan(values(max, 0)[0]));
  EXPECT_THAT(values(max, 1), ElementsAre(1));
  Sample empty;
  empty.add("self", tensor(ScalarType::kFloat32, {0}, {}));
  empty.add("dim", Value(std::vector<int64_t>{0}));
  EXPECT_EQ(error("amax", empty), "amax(): Expected reduction dim 0 to have non-zero size.");
  EXPECT_TRUE(std::isnan(values(reference("mean.dim", empty))[0]));
  EXPECT_THAT(values(reference("sum.dim_IntList", empty)), ElementsAre(0));
  Sample lse;
  lse.add("self", tensor(ScalarType::kFloat64, {2}, {-INFINITY, -INFINITY}));
  lse.add("dim", Value(std::vector<int64_t>{0}));
  EXPECT_THAT(values(reference("logsumexp", lse)), ElementsAre(-INFINITY));
}

TEST(References, VarianceAndNormFollowTheirDefinitions) {
  Sample s;
  s.add("self", tensor(ScalarType::kFloat64, {4}, {1, 2, 3, 4}));
  EXPECT_NEAR(values(reference("var.correction", s))[0], 5.0 / 3, 1e-12);
  s.add("correction", Value(Scalar(int64_t{0})));
  EXPECT_EQ(values(reference("var.correction", s))[0], 1.25);
  Sample norm;
  norm.add("self", tensor(ScalarType::kFloat32, {3}, {-3, 0, 2}));
  norm.add("p", Value(Scalar(INFINITY)));
  norm.add("dim", Value(std::vector<int64_t>{0}));
  EXPECT_THAT(values(reference("norm.ScalarOpt_dim", norm)), ElementsAre(3));
  norm.set("p", Value(Scalar(int64_t{0})));
  EXPECT_THAT(values(reference("norm.ScalarOpt_dim", norm)), ElementsAre(2));
}

TEST(References, IntegralSumsAccumulateInInt64) {
  Sample s;
  s.add("self", tensor(ScalarType::kInt8, {3}, {100, 100, 100}));
  Expected sum = reference("sum.dim_IntList", s);
  EXPECT_EQ(sum.outputs[0].value.dtype, ScalarType::kInt64);
  EXPECT_THAT(values(sum), ElementsAre(300));
}

TEST(References, ViewsGetPyTorchsStrides) {
  ValueSource src(1);
  Sample view;
  view.add("self", make_tensor(src, ScalarType::kFloat32, {4, 6}, Layout::kTransposed));
  view.add("size", Value(std::vector<int64_t>{2, 2, 6}));
  EXPECT_EQ(*reference("view", view).outputs[0].strides, (Sizes{2, 1, 4}));
  Sample expand;
  expand.add("self", make_tensor(src, ScalarType::kFloat32, {3, 1}, Layout::kContiguous));
  expand.add("size", Value(std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(*reference("expand", expand).outputs[0].strides, (Sizes{0, 1, 0}));
  Sample diagonal;
  diagonal.add("self", make_tensor(src, ScalarType::kFloat32, {4, 4}, Layout::kContiguous));
  diagonal.add("offset", Value(int64_t{-2}));
  const ExpectedOutput d = reference("diagonal", diagonal).outputs[0];
  EXPECT_EQ(d.value.sizes, Sizes{2});
  EXPECT_EQ(*d.strides, Sizes{5});
  EXPECT_EQ(*d.storage_offset, 8);
  Sample transposed;
  transposed.add("self", make_tensor(src, ScalarType::kFloat32, {5, 7}, Layout::kTransposed));
  transposed.add("size", Value(std::vector<int64_t>{35}));
  EXPECT_THAT(error("view", transposed), HasSubstr("Use .reshape(...) instead."));
}

TEST(References, FillValuesMustFitTheDtype) {
  Sample s;
  s.add("self", tensor(ScalarType::kUInt8, {2}, {0, 0}));
  s.add("value", Value(Scalar(-2.5)));
  EXPECT_EQ(error("fill_.Scalar", s), "value cannot be converted to type uint8_t without overflow");
  s.set("value", Value(Scalar(int64_t{-1})));
  EXPECT_THAT(values(reference("fill_.Scalar", s)), ElementsAre(255, 255));
}

TEST(References, ArangeCountsLikePyTorch) {
  Sample s;
  s.add("start", Value(Scalar(0.0))).add("end", Value(Scalar(1.0)));
  s.add("step", Value(Scalar(0.125)));
  Expected r = reference("arange.start_step", s);
  EXPECT_EQ(r.outputs[0].value.dtype, ScalarType::kFloat32);
  EXPECT_EQ(r.outputs[0].value.numel(), 8);
  s.set("step", Value(Scalar(-1.0)));
  EXPECT_EQ(error("arange.start_step", s),
            "upper bound and lower bound inconsistent with step sign");
}

TEST(References, ClampTakesTheUpperBoundWhenBoundsCross) {
  Sample s;
  s.add("self", tensor(ScalarType::kFloat32, {3}, {-10, 0, NAN}));
  s.add("min", Value(Scalar(int64_t{5}))).add("max", Value(Scalar(int64_t{-5})));
  const std::vector<double> r = values(reference("clamp", s));
  EXPECT_EQ(r[0], -5);
  EXPECT_EQ(r[1], -5);
  EXPECT_TRUE(std::isnan(r[2]));
}

}  // namespace
}  // namespace bp::conformance
