// Ternary and masked pointwise ops on the CPU backend (where, clamp, clamp_min / clamp_max, lerp,
// addcmul, addcdiv, masked_fill; and threshold): values for
// every supported dtype, type promotion, the three variants, Meta geometry and PyTorch's errors.
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/core/warning.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using C = std::complex<double>;
using ::testing::ElementsAre;

// ---- where -----------------------------------------------------------------------------------

// A bool mask: where `t` is non-zero.
Tensor ne_zero(const Tensor& t) { return logical_not(eq(t, Scalar(0))); }

TEST(Where, SelectsValuesOfEveryDtype) {
  Tensor condition = tensor_of(ST::kBool, {1, 0, 1});
  for (ST t : all_dtypes()) {
    if (is_complex(t)) {
      Tensor a = complex_tensor_of(t, {C(1, 1), C(2, 2), C(3, 3)});
      Tensor b = complex_tensor_of(t, {C(-1, 0), C(-2, 0), C(-3, 0)});
      expect_complex_values(where(condition, a, b), t, {C(1, 1), C(-2, 0), C(3, 3)});
    } else {
      expect_values(where(condition, tensor_of(t, {1, 1, 1}), tensor_of(t, {0, 0, 0})), t,
                    {1, 0, 1});
    }
  }
  // NaN and signed zeros are carried through untouched.
  expect_values(where(condition, tensor_of(ST::kFloat32, {kNan, 1, -0.0}),
                      tensor_of(ST::kFloat32, {0, -0.0, 1})),
                ST::kFloat32, {kNan, -0.0, -0.0});
}

TEST(Where, IsAlsoTheMethodSelfWhereConditionOther) {
  // PyTorch's x.where(condition, y) is where(condition, x, y).
  const Tensor condition = tensor_of(ST::kBool, {1, 0, 1});
  const Tensor x = tensor_of(ST::kFloat32, {1, 2, 3});
  const Tensor y = tensor_of(ST::kFloat32, {-1, -2, -3});
  expect_values(x.where(condition, y), ST::kFloat32, {1, -2, 3});
}

TEST(Where, PromotesSelfAndOtherAndBroadcastsAllThree) {
  Tensor condition = tensor_of(ST::kBool, {1, 0}, {2, 1});
  Tensor r = where(condition, tensor_of(ST::kInt32, {1, 2, 3}), tensor_of(ST::kFloat64, {-1}));
  EXPECT_THAT(r.sizes(), ElementsAre(2, 3));
  expect_values(r, ST::kFloat64, {1, 2, 3, -1, -1, -1});
  // Zero-dim and wrapped operands promote as in other ops.
  expect_values(where(condition, tensor_of(ST::kInt64, {7}), wrapped_scalar_tensor(Scalar(0.5))),
                ST::kFloat32, {7, 0.5});
  expect_int_values(
      where(tensor_of(ST::kBool, {0}), tensor_of(ST::kUInt8, {1}), tensor_of(ST::kInt8, {-1})),
      ST::kInt16, {-1});
}

TEST(Where, Uint8ConditionIsDeprecatedAndOtherDtypesAreErrors) {
  Tensor a = tensor_of(ST::kFloat32, {1, 2});
  Tensor b = tensor_of(ST::kFloat32, {3, 4});
  {
    WarningCapture capture;
    expect_values(where(tensor_of(ST::kUInt8, {0, 5}), a, b), ST::kFloat32, {3, 2});
    ASSERT_EQ(capture.messages().size(), 1u);
    EXPECT_EQ(capture.messages()[0],
              "where received a uint8 condition tensor. This behavior is deprecated and will be "
              "removed in a future version of PyTorch. Use a boolean condition instead.");
  }
  EXPECT_EQ(message_of([&] {
              where(tensor_of(ST::kFloat32, {1, 0}), a, b);
            }),
            "where expected condition to be a boolean tensor.");
}

TEST(Where, OutMustHaveTheResultDtype) {
  Tensor condition = tensor_of(ST::kBool, {1});
  Tensor out = empty({1}, ST::kInt64, kCpu);
  EXPECT_EQ(message_of([&] {
              where_out(out, condition, tensor_of(ST::kFloat32, {1}), tensor_of(ST::kInt32, {2}));
            }),
            "Expected out type to be float32 but got int64");
  Tensor good = empty({0}, ST::kFloat32, kCpu);
  where_out(good, condition, tensor_of(ST::kFloat32, {1.5}), tensor_of(ST::kInt32, {2}));
  expect_values(good, ST::kFloat32, {1.5});
}

// ---- clamp -----------------------------------------------------------------------------------

TEST(Clamp, LimitsFloatsAndPropagatesNan) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {kNan, -1, 0.5, 2, -kInf, kInf});
    expect_values(clamp(x, 0, 1), t, {kNan, 0, 0.5, 1, 0, 1});
    expect_values(clamp(x, 0, std::nullopt), t, {kNan, 0, 0.5, 2, 0, kInf});
    expect_values(clamp(x, std::nullopt, 1), t, {kNan, -1, 0.5, 1, -kInf, 1});
    // min > max: everything becomes max. A NaN bound gives NaN.
    expect_values(clamp(x, 3, 1), t, {kNan, 1, 1, 1, 1, 1});
    expect_values(clamp(x, kNan, 1), t, {kNan, kNan, kNan, kNan, kNan, kNan});
    expect_values(clamp(x, std::nullopt, kNan), t, {kNan, kNan, kNan, kNan, kNan, kNan});
  }
}

TEST(Clamp, LimitsIntegersAndPromotesWithFloatBounds) {
  for (ST t : integral_dtypes()) {
    Tensor x = int_tensor_of(t, {min_of(t), 5, max_of(t)});
    expect_int_values(clamp(x, 1, 100), t, {1, 5, 100});
  }
  expect_values(clamp(tensor_of(ST::kInt32, {0, 3}), 0.5, std::nullopt), ST::kFloat32, {0.5, 3});
  expect_int_values(clamp(tensor_of(ST::kBool, {0, 1}), 0, std::nullopt), ST::kInt64, {0, 1});
}

TEST(Clamp, ErrorsFollowPyTorch) {
  Tensor x = tensor_of(ST::kInt32, {1});
  EXPECT_EQ(message_of([&] { clamp(x, std::optional<Scalar>(), std::optional<Scalar>()); }),
            "torch.clamp: At least one of 'min' or 'max' must not be None");
  EXPECT_EQ(message_of([&] { x.clamp_(0.5, std::nullopt); }),
            "result type float32 can't be cast to the desired output type int32");
  EXPECT_EQ(message_of([&] { clamp(complex_tensor_of(ST::kComplex64, {C(1, 1)}), 0, 1); }),
            "clamp is not supported for complex types");
  EXPECT_EQ(message_of([&] { clamp(x, Scalar(complex<double>(0, 1)), std::nullopt); }),
            "clamp is not supported for complex types");
  EXPECT_EQ(message_of([&] { clamp(tensor_of(ST::kUInt8, {1}), 300, std::nullopt); }),
            "value cannot be converted to type uint8_t without overflow");
  // As in PyTorch, a negative bound of an unsigned dtype wraps instead (-1 is 255).
  expect_int_values(clamp(tensor_of(ST::kUInt8, {1}), -1, std::nullopt), ST::kUInt8, {255});
  EXPECT_EQ(message_of([&] { clamp(tensor_of(ST::kBool, {1}), true, std::nullopt); }),
            "\"clamp\" not implemented for 'bool'");
}

TEST(ClampTensor, LimitsByBroadcastTensorsAndPromotes) {
  Tensor x = tensor_of(ST::kFloat32, {-5, 0.5, 5, kNan, 1}, {5});
  Tensor lo = tensor_of(ST::kFloat32, {0, 0, 0, 0, kNan});
  Tensor hi = tensor_of(ST::kFloat32, {1});
  expect_values(clamp(x, std::optional<Tensor>(lo), std::optional<Tensor>(hi)), ST::kFloat32,
                {0, 0.5, 1, kNan, kNan});
  expect_values(clamp(x, std::optional<Tensor>(lo), std::nullopt), ST::kFloat32,
                {0, 0.5, 5, kNan, kNan});
  expect_values(clamp(x, std::nullopt, std::optional<Tensor>(hi)), ST::kFloat32,
                {-5, 0.5, 1, kNan, 1});
  // int32 self with float64 bounds: float64 result.
  expect_values(
      clamp(tensor_of(ST::kInt32, {-2, 7}), std::optional<Tensor>(tensor_of(ST::kFloat64, {0.5})),
            std::optional<Tensor>(tensor_of(ST::kFloat64, {6.5}))),
      ST::kFloat64, {0.5, 6.5});
  for (ST t : integral_dtypes()) {
    expect_int_values(
        clamp(int_tensor_of(t, {min_of(t), 9}), std::optional<Tensor>(int_tensor_of(t, {0})),
              std::optional<Tensor>(int_tensor_of(t, {8}))),
        t, {0, 8});
  }
}

// PyTorch's clamp is std::min(std::max(self, min), max): a bound equal to self leaves self, so a
// zero keeps its sign whatever the signs of zero bounds (torch.clamp(tensor([-0.0]), min=0.0) is
// -0.0). 40 elements: the vectorised loop and its scalar tail both see every pattern.
TEST(Clamp, BoundsEqualToSelfKeepSelfsSignedZero) {
  const double zeros[] = {0.0, -0.0};
  std::vector<double> self, lo, hi;
  for (int i = 0; i < 40; ++i) {
    self.push_back(zeros[i % 2]);
    lo.push_back(zeros[i / 2 % 2]);
    hi.push_back(zeros[i / 4 % 2]);
  }
  for (ST t : floating_dtypes()) {
    SCOPED_TRACE(t);
    Tensor x = tensor_of(t, self);
    auto bound = [&](const std::vector<double>& v) {
      return std::optional<Tensor>(tensor_of(t, v));
    };
    expect_values(clamp(x, bound(lo), bound(hi)), t, self);
    expect_values(clamp(x, bound(lo), std::nullopt), t, self);
    expect_values(clamp(x, std::nullopt, bound(hi)), t, self);
    for (double z : zeros) {
      expect_values(clamp(x, z, z), t, self);
      expect_values(clamp(x, z, std::nullopt), t, self);
      expect_values(clamp(x, std::nullopt, z), t, self);
    }
  }
}

TEST(ClampTensor, BoolWorksWithOneBoundOnly) {
  Tensor flags = tensor_of(ST::kBool, {0, 1});
  Tensor one = tensor_of(ST::kBool, {1});
  Tensor zero = tensor_of(ST::kBool, {0});
  expect_values(clamp(flags, std::optional<Tensor>(one), std::nullopt), ST::kBool, {1, 1});
  expect_values(clamp(flags, std::nullopt, std::optional<Tensor>(zero)), ST::kBool, {0, 0});
  EXPECT_EQ(
      message_of([&] { clamp(flags, std::optional<Tensor>(zero), std::optional<Tensor>(one)); }),
      "\"clamp\" not implemented for 'bool'");
  EXPECT_EQ(message_of([&] { clamp(flags, std::optional<Tensor>(), std::optional<Tensor>()); }),
            "torch.clamp: At least one of 'min' or 'max' must not be None");
}

// ---- lerp ------------------------------------------------------------------------------------

TEST(Lerp, InterpolatesFromTheNearerEnd) {
  for (ST t : floating_dtypes()) {
    Tensor start = tensor_of(t, {0, 0, 1, kNan});
    Tensor end = tensor_of(t, {8, -8, 3, 1});
    expect_values(lerp(start, end, 0.25), t, {2, -2, 1.5, kNan});
    expect_values(lerp(start, end, 0.75), t, {6, -6, 2.5, kNan});
    expect_values(lerp(start, end, 1), t, {8, -8, 3, kNan});  // exactly end
    expect_values(lerp(start, end, 0), t, {0, 0, 1, kNan});
  }
  for (ST t : complex_dtypes()) {
    Tensor start = complex_tensor_of(t, {C(0, 0)});
    Tensor end = complex_tensor_of(t, {C(4, 8)});
    expect_complex_values(lerp(start, end, 0.25), t, {C(1, 2)});
    expect_complex_values(lerp(start, end, complex<double>(0, 1)), t, {C(-8, 4)});
  }
}

// From end when |weight| >= 0.5 (PyTorch since 2.0, pytorch#84845): weight -0.5 reads end, so
// an infinite end gives NaN. PyTorch 1.13's CPU kernel compared the signed weight and gave -inf.
TEST(Lerp, ChoosesItsFormulaByTheMagnitudeOfTheWeight) {
  for (ST t : floating_dtypes()) {
    SCOPED_TRACE(t);
    Tensor start = tensor_of(t, {0, 0, -0.0, 1});
    Tensor end = tensor_of(t, {kInf, -kInf, 0.0, 3});
    expect_values(lerp(start, end, -0.25), t, {-kInf, kInf, -0.0, 0.5});
    expect_values(lerp(start, end, -0.5), t, {kNan, kNan, 0.0, 0});
    expect_values(lerp(start, end, 0.75), t, {kNan, kNan, 0.0, 2.5});
  }
}

TEST(Lerp, NeedsMatchingFloatingDtypes) {
  Tensor f = tensor_of(ST::kFloat32, {1});
  EXPECT_EQ(message_of([&] { lerp(f, tensor_of(ST::kFloat64, {1}), 0.5); }),
            "expected dtype float32 for `end` but got dtype float64");
  Tensor i = tensor_of(ST::kInt32, {1});
  EXPECT_EQ(message_of([&] { lerp(i, i, 0.5); }), "\"lerp\" not implemented for 'int32'");
}

// As PyTorch's build_binary_op: an out= of a dtype the result can be cast to takes the result
// (torch.lerp(float32, float32, 0.5, out=float64 / complex64 / float16) computes in float32), any
// other is "result type float32 can't be cast to the desired output type int64".
TEST(Lerp, OutTakesAnyDtypeTheResultCanBeCastTo) {
  Tensor start = tensor_of(ST::kFloat32, {1, 2});
  Tensor end = tensor_of(ST::kFloat32, {3, 4});
  for (ST out_dtype : {ST::kFloat64, ST::kFloat16, ST::kFloat32}) {
    Tensor out = empty({2}, out_dtype, kCpu);
    EXPECT_TRUE(lerp_out(out, start, end, 0.5).is_same(out));
    expect_values(out, out_dtype, {2, 3});
  }
  Tensor complex_out = empty({2}, ST::kComplex64, kCpu);
  lerp_out(complex_out, start, end, 0.5);
  expect_complex_values(complex_out, ST::kComplex64, {C(2, 0), C(3, 0)});
  for (ST out_dtype : {ST::kInt64, ST::kBool}) {
    Tensor out = empty({2}, out_dtype, kCpu);
    EXPECT_EQ(message_of([&] { lerp_out(out, start, end, 0.5); }),
              std::string("result type float32 can't be cast to the desired output type ") +
                  (out_dtype == ST::kInt64 ? "int64" : "bool"));
  }
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 1)});
  Tensor real_out = empty({1}, ST::kFloat64, kCpu);
  EXPECT_EQ(message_of([&] { lerp_out(real_out, z, z, 0.5); }),
            "result type complex64 can't be cast to the desired output type float64");
}

// ---- addcmul ---------------------------------------------------------------------------------

TEST(Addcmul, AddsTheScaledProduct) {
  for (ST t : floating_dtypes()) {
    expect_values(addcmul(tensor_of(t, {1, 1, kInf}), tensor_of(t, {2, -0.5, 0}),
                          tensor_of(t, {3, 4, 1}), 0.5),
                  t, {4, 0, kInf});
  }
  for (ST t : integral_dtypes()) {
    expect_int_values(addcmul(int_tensor_of(t, {1, max_of(t)}), int_tensor_of(t, {2, 1}),
                              int_tensor_of(t, {3, 1}), 2),
                      t, {13, t == ST::kUInt8 ? 1 : min_of(t) + 1});  // the sum wraps
  }
  for (ST t : complex_dtypes()) {
    expect_complex_values(addcmul(complex_tensor_of(t, {C(1, 0)}), complex_tensor_of(t, {C(0, 1)}),
                                  complex_tensor_of(t, {C(0, 1)})),
                          t, {C(0, 0)});
  }
}

TEST(Addcmul, PromotesItsThreeTensorsAndRejectsBool) {
  expect_values(addcmul(tensor_of(ST::kInt64, {1}), tensor_of(ST::kFloat32, {0.5}),
                        tensor_of(ST::kInt32, {3})),
                ST::kFloat32, {2.5});
  Tensor flags = tensor_of(ST::kBool, {1});
  EXPECT_EQ(message_of([&] { addcmul(flags, flags, flags); }),
            "\"addcmul\" not implemented for 'bool'");
  Tensor ints = tensor_of(ST::kInt32, {1});
  EXPECT_EQ(message_of([&] { ints.addcmul_(tensor_of(ST::kFloat32, {1}), ints); }),
            "result type float32 can't be cast to the desired output type int32");
}

// ---- Every op: variants, Meta ----------------------------------------------------------------

struct TernaryOp {
  std::string name;
  ST dtype;  // of every input (the condition of where is bool)
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)> functional;
  std::function<void(Tensor&, const Tensor&, const Tensor&)> inplace;  // empty: none
  std::function<void(Tensor&, const Tensor&, const Tensor&, const Tensor&)> out;
};

std::vector<TernaryOp> ternary_ops() {
  using T = const Tensor&;
  using OT = std::optional<Tensor>;
  return {
      {"where", ST::kFloat32, [](T a, T b, T c) { return where(ne_zero(a), b, c); }, nullptr,
       [](Tensor& o, T a, T b, T c) { where_out(o, ne_zero(a), b, c); }},
      {"clamp", ST::kFloat64, [](T a, T, T) { return clamp(a, 2, 4); },
       [](Tensor& a, T, T) { a.clamp_(2, 4); },
       [](Tensor& o, T a, T, T) { clamp_out(o, a, 2, 4); }},
      {"clamp.Tensor", ST::kInt32, [](T a, T b, T c) { return clamp(a, OT(b), OT(c)); },
       [](Tensor& a, T b, T c) { a.clamp_(OT(b), OT(c)); },
       [](Tensor& o, T a, T b, T c) { clamp_out(o, a, OT(b), OT(c)); }},
      {"lerp", ST::kBFloat16, [](T a, T b, T) { return lerp(a, b, 0.75); },
       [](Tensor& a, T b, T) { a.lerp_(b, 0.75); },
       [](Tensor& o, T a, T b, T) { lerp_out(o, a, b, 0.75); }},
      {"addcmul", ST::kFloat32, [](T a, T b, T c) { return addcmul(a, b, c, 2); },
       [](Tensor& a, T b, T c) { a.addcmul_(b, c, 2); },
       [](Tensor& o, T a, T b, T c) { addcmul_out(o, a, b, c, 2); }},
      {"clamp_min.Tensor", ST::kInt32, [](T a, T b, T) { return clamp_min(a, b); },
       [](Tensor& a, T b, T) { a.clamp_min_(b); },
       [](Tensor& o, T a, T b, T) { clamp_min_out(o, a, b); }},
      {"clamp_max", ST::kInt16, [](T a, T, T) { return clamp_max(a, 3); },
       [](Tensor& a, T, T) { a.clamp_max_(3); },
       [](Tensor& o, T a, T, T) { clamp_max_out(o, a, 3); }},
      {"lerp.Tensor", ST::kFloat32, [](T a, T b, T c) { return lerp(a, b, c); },
       [](Tensor& a, T b, T c) { a.lerp_(b, c); },
       [](Tensor& o, T a, T b, T c) { lerp_out(o, a, b, c); }},
      {"addcdiv", ST::kFloat64, [](T a, T b, T c) { return addcdiv(a, b, c, 2); },
       [](Tensor& a, T b, T c) { a.addcdiv_(b, c, 2); },
       [](Tensor& o, T a, T b, T c) { addcdiv_out(o, a, b, c, 2); }},
      {"masked_fill", ST::kFloat32, [](T a, T b, T) { return masked_fill(a, ne_zero(b), 5); },
       [](Tensor& a, T b, T) { a.masked_fill_(ne_zero(b), 5); },
       [](Tensor& o, T a, T b, T) { masked_fill_out(o, a, ne_zero(b), 5); }},
      {"threshold", ST::kFloat32, [](T a, T, T) { return threshold(a, 2, -1); },
       [](Tensor& a, T, T) { threshold_(a, 2, -1); },
       [](Tensor& o, T a, T, T) { threshold_out(o, a, 2, -1); }},
  };
}

// ---- clamp_min / clamp_max ------------------------------------------------------------------

TEST(ClampMinMax, LimitByAScalarOrATensorBound) {
  for (ST t : {ST::kBFloat16, ST::kFloat32, ST::kFloat64}) {
    Tensor x = tensor_of(t, {kNan, -1, 0.5, 2, -kInf, kInf});
    expect_values(clamp_min(x, 0), t, {kNan, 0, 0.5, 2, 0, kInf});
    expect_values(clamp_max(x, 1), t, {kNan, -1, 0.5, 1, -kInf, 1});
    expect_values(clamp_min(x, kNan), t, {kNan, kNan, kNan, kNan, kNan, kNan});
    expect_values(clamp_min(x, tensor_of(t, {1})), t, {kNan, 1, 1, 2, 1, kInf});
    expect_values(x.clamp_max(tensor_of(t, {0, 0, 0, kNan, 0, 0})), t,
                  {kNan, -1, 0, kNan, -kInf, 0});
  }
  // Integers take float bounds by promotion; bool tensors take bool tensor bounds.
  expect_values(clamp_min(tensor_of(ST::kInt32, {0, 3}), 0.5), ST::kFloat32, {0.5, 3});
  expect_int_values(clamp_max(int_tensor_of(ST::kInt8, {-128, 5, 127}), 6), ST::kInt8,
                    {-128, 5, 6});
  expect_values(clamp_min(tensor_of(ST::kBool, {0, 1, 0}), tensor_of(ST::kBool, {1, 0, 0})),
                ST::kBool, {1, 1, 0});
  expect_values(clamp_max(tensor_of(ST::kBool, {0, 1, 1}), tensor_of(ST::kBool, {1, 0, 1})),
                ST::kBool, {0, 0, 1});
  expect_values(clamp_min(tensor_of(ST::kInt64, {-3, 3}), tensor_of(ST::kFloat32, {-0.5})),
                ST::kFloat32, {-0.5, 3});
  // Signed zeros: a bound equal to self leaves self.
  expect_values(clamp_min(tensor_of(ST::kFloat32, {-0.0, 0.0}), 0.0), ST::kFloat32, {-0.0, 0.0});
}

TEST(ClampMinMax, InPlaceAndOutVariantsAndErrorsFollowPyTorch) {
  Tensor x = tensor_of(ST::kFloat32, {-2, 2});
  x.clamp_min_(-1);
  expect_values(x, ST::kFloat32, {-1, 2});
  clamp_max_(x, tensor_of(ST::kFloat32, {1}));
  expect_values(x, ST::kFloat32, {-1, 1});
  Tensor out = empty({0}, ST::kFloat32, kCpu);
  clamp_max_out(out, tensor_of(ST::kFloat32, {-3, 3}), 0);
  expect_values(out, ST::kFloat32, {-3, 0});
  Tensor i = tensor_of(ST::kInt64, {1});
  EXPECT_EQ(message_of([&] { i.clamp_min_(0.5); }),
            "result type float32 can't be cast to the desired output type int64");
  EXPECT_EQ(message_of([&] { clamp_min(tensor_of(ST::kFloat16, {1}), 0); }),
            "\"clamp_min\" not implemented for 'float16'");
  EXPECT_EQ(message_of([&] { clamp_max(tensor_of(ST::kBool, {1}), true); }),
            "\"clamp_max\" not implemented for 'bool'");
  EXPECT_EQ(
      message_of([&] { clamp_min(tensor_of(ST::kFloat32, {1}), Scalar(complex<double>(0, 1))); }),
      "clamp is not supported for complex types");
  EXPECT_EQ(message_of([&] {
              clamp_min(complex_tensor_of(ST::kComplex64, {C(1, 1)}),
                        complex_tensor_of(ST::kComplex64, {C(0, 1)}));
            }),
            "\"clamp_min\" not implemented for 'complex64'");
  // A float out for a float32 clamp_min(Scalar) must be float32, as PyTorch's unary build.
  Tensor wide = empty({1}, ST::kFloat64, kCpu);
  EXPECT_EQ(message_of([&] { clamp_min_out(wide, tensor_of(ST::kFloat32, {1}), 0); }),
            "Found dtype float64 but expected float32");
}

// ---- lerp.Tensor, addcdiv ----------------------------------------------------------------------

TEST(LerpTensor, InterpolatesWithATensorWeightOfSelfsDtype) {
  for (ST t : {ST::kBFloat16, ST::kFloat32, ST::kFloat64}) {
    Tensor w = tensor_of(t, {0, 0.25, 1, 2, -1});
    expect_values(lerp(tensor_of(t, {0}), tensor_of(t, {4}), w), t, {0, 1, 4, 8, -4});
    Tensor self = tensor_of(t, {0, 0});
    self.lerp_(tensor_of(t, {8, 8}), tensor_of(t, {0.5}));
    expect_values(self, t, {4, 4});
  }
  expect_complex_values(lerp(complex_tensor_of(ST::kComplex64, {C(0, 0)}),
                             complex_tensor_of(ST::kComplex64, {C(2, 4)}),
                             complex_tensor_of(ST::kComplex64, {C(0.5, 0)})),
                        ST::kComplex64, {C(1, 2)});
  Tensor f = tensor_of(ST::kFloat32, {1});
  EXPECT_EQ(message_of([&] { lerp(f, f, tensor_of(ST::kFloat64, {1})); }),
            "expected dtype float32 for `weight` but got dtype float64");
  EXPECT_EQ(message_of([&] { lerp(f, tensor_of(ST::kFloat64, {1}), f); }),
            "expected dtype float32 for `end` but got dtype float64");
  Tensor out = empty({1}, ST::kFloat64, kCpu);
  EXPECT_EQ(message_of([&] { lerp_out(out, f, f, f); }),
            "Found dtype float64 but expected float32");
  EXPECT_EQ(message_of([&] {
              Tensor x = tensor_of(ST::kInt64, {1});
              lerp(x, x, x);
            }),
            "\"lerp\" not implemented for 'int64'");
}

TEST(Addcdiv, AddsTheScaledQuotientAndRejectsIntegerDivision) {
  for (ST t : {ST::kBFloat16, ST::kFloat32, ST::kFloat64}) {
    Tensor s = tensor_of(t, {1, 1, 1});
    Tensor a = tensor_of(t, {3, -1, 1});
    Tensor b = tensor_of(t, {2, 0, 0});
    expect_values(addcdiv(s, a, b), t, {2.5, -kInf, kInf});
    expect_values(addcdiv(s, a, b, 2), t, {4, -kInf, kInf});
  }
  // Integral self with a float divisor promotes; bool and integer tensor1 and tensor2 do not.
  expect_values(
      addcdiv(tensor_of(ST::kInt64, {1}), tensor_of(ST::kInt32, {3}), tensor_of(ST::kFloat32, {2})),
      ST::kFloat32, {2.5});
  expect_complex_values(
      addcdiv(complex_tensor_of(ST::kComplex128, {C(1, 0)}),
              complex_tensor_of(ST::kComplex128, {C(0, 2)}),
              complex_tensor_of(ST::kComplex128, {C(2, 0)}), Scalar(complex<double>(0, 1))),
      ST::kComplex128, {C(0, 0)});
  Tensor s = tensor_of(ST::kFloat32, {1});
  s.addcdiv_(tensor_of(ST::kFloat32, {1}), tensor_of(ST::kFloat32, {4}));
  expect_values(s, ST::kFloat32, {1.25});
  const std::string message =
      message_of([&] { addcdiv(s, tensor_of(ST::kInt64, {1}), tensor_of(ST::kBool, {1})); });
  EXPECT_EQ(
      message.rfind("Integer division with addcdiv is no longer supported, and in a future ", 0),
      0u)
      << message;
  EXPECT_EQ(message_of([&] { addcdiv(s, s, s, Scalar(complex<double>(0, 1))); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(message_of([&] {
              Tensor h = tensor_of(ST::kFloat16, {1});
              addcdiv(h, h, h);
            }),
            "\"addcdiv\" not implemented for 'float16'");
}

// ---- masked_fill -------------------------------------------------------------------------------

TEST(MaskedFill, FillsWhereTheMaskIsSetInEveryDtype) {
  const Tensor mask = tensor_of(ST::kBool, {1, 0, 1});
  for (ST t : all_dtypes()) {
    SCOPED_TRACE(std::string(scalar_type_name(t)));
    if (is_complex(t)) {
      expect_complex_values(masked_fill(complex_tensor_of(t, {C(1, 1), C(2, 2), C(3, 3)}), mask,
                                        Scalar(complex<double>(0, -1))),
                            t, {C(0, -1), C(2, 2), C(0, -1)});
    } else {
      expect_values(masked_fill(tensor_of(t, {0, 1, 0}), mask, 1), t, {1, 1, 1});
    }
  }
  // NaN and signed zeros are stored as given; integers truncate; uint8 wraps -1 (as PyTorch).
  expect_values(masked_fill(tensor_of(ST::kFloat32, {1, 2, 3}), mask, kNan), ST::kFloat32,
                {kNan, 2, kNan});
  expect_values(masked_fill(tensor_of(ST::kFloat64, {1, 2, 3}), mask, -0.0), ST::kFloat64,
                {-0.0, 2, -0.0});
  expect_int_values(masked_fill(tensor_of(ST::kInt32, {1, 2, 3}), mask, 2.7), ST::kInt32,
                    {2, 2, 2});
  expect_int_values(masked_fill(tensor_of(ST::kUInt8, {1, 2, 3}), mask, -1), ST::kUInt8,
                    {255, 2, 255});
  expect_values(masked_fill(tensor_of(ST::kBool, {0, 0, 0}), mask, 0.5), ST::kBool, {1, 0, 1});
}

// The vector loops (every ISA's, two vectors a step, then a tail) against the values, for
// contiguous operands, a broadcast (stride 0) mask and a strided self.
TEST(MaskedFill, VectorLoopsMatchTheElementwiseDefinition) {
  const int64_t n = 1000 + 7;
  std::vector<double> x(n), mask(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<double>(i % 50) - 25;
    mask[i] = (i * 7919) % 3 == 0 ? 1 : 0;
  }
  for (ST t : {ST::kUInt8, ST::kInt8, ST::kInt16, ST::kInt32, ST::kInt64, ST::kFloat32,
               ST::kFloat64, ST::kBFloat16, ST::kFloat16}) {
    SCOPED_TRACE(std::string(scalar_type_name(t)));
    const Tensor self = tensor_of(t, x);
    std::vector<double> expected(n);
    const std::vector<double> converted = values_of(self);
    const double fill = values_of(tensor_of(t, {-3}))[0];  // 253 in uint8
    for (int64_t i = 0; i < n; ++i) expected[i] = mask[i] != 0 ? fill : converted[i];
    expect_values(masked_fill(self, tensor_of(ST::kBool, mask), -3), t, expected);
    Tensor in_place = clone(self);
    in_place.masked_fill_(tensor_of(ST::kBool, mask), -3);
    expect_values(in_place, t, expected);
    // One mask element for every row: stride 0 inside each row.
    const Tensor rows = tensor_of(t, x).view({19, 53});
    std::vector<double> one_row(19, 0);
    one_row[3] = 1;
    const Tensor column = tensor_of(ST::kBool, one_row, {19, 1});
    std::vector<double> by_row = converted;
    for (int64_t j = 0; j < 53; ++j) by_row[3 * 53 + j] = fill;
    expect_values(masked_fill(rows, column, -3), t, by_row);
    // A strided (transposed) self with a contiguous mask.
    const Tensor transposed = rows.t();
    const Tensor mask_t = tensor_of(ST::kBool, mask).view({53, 19});
    std::vector<double> expected_t(n);
    for (int64_t i = 0; i < 53; ++i) {
      for (int64_t j = 0; j < 19; ++j) {
        expected_t[i * 19 + j] = mask[i * 19 + j] != 0 ? fill : converted[j * 53 + i];
      }
    }
    expect_values(masked_fill(transposed, mask_t, -3), t, expected_t);
  }
}

TEST(MaskedFill, BroadcastsTheFunctionalCallAndKeepsSelfsShapeInPlace) {
  const Tensor self = tensor_of(ST::kFloat32, {1, 2, 3});
  const Tensor column = tensor_of(ST::kBool, {1, 0}, {2, 1});
  const Tensor r = masked_fill(self, column, 9);
  EXPECT_THAT(r.sizes(), ElementsAre(2, 3));
  expect_values(r, ST::kFloat32, {9, 9, 9, 1, 2, 3});
  Tensor s = clone(self);
  EXPECT_EQ(message_of([&] { s.masked_fill_(column, 9); }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
  Tensor out = empty({0}, ST::kFloat64, kCpu);
  masked_fill_out(out, self, tensor_of(ST::kBool, {0, 1, 0}), 0.5);
  expect_values(out, ST::kFloat64, {1, 0.5, 3});
}

TEST(MaskedFill, TensorValueIsReadAsANumberFromAZeroDimTensor) {
  const Tensor mask = tensor_of(ST::kBool, {1, 0});
  expect_values(
      masked_fill(tensor_of(ST::kFloat32, {1, 2}), mask, tensor_of(ST::kFloat64, {7.5}).view({})),
      ST::kFloat32, {7.5, 2});
  expect_int_values(
      masked_fill(tensor_of(ST::kInt16, {1, 2}), mask, scalar_tensor(Scalar(true), ST::kBool)),
      ST::kInt16, {1, 2});
  Tensor s = tensor_of(ST::kInt64, {1, 2});
  s.masked_fill_(mask, tensor_of(ST::kFloat32, {-4.5}).view({}));
  expect_int_values(s, ST::kInt64, {-4, 2});
  Tensor out = empty({2}, ST::kInt64, kCpu);
  masked_fill_out(out, s, mask, tensor_of(ST::kInt64, {3}).view({}));
  expect_int_values(out, ST::kInt64, {3, 2});
  EXPECT_EQ(message_of([&] { masked_fill(s, mask, tensor_of(ST::kInt64, {3})); }),
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 "
            "dimension(s).");
  EXPECT_EQ(message_of([&] {
              masked_fill(tensor_of(ST::kFloat32, {1, 2}), mask,
                          scalar_tensor(Scalar(complex<double>(1, 1)), ST::kComplex64));
            }),
            "value cannot be converted to type float without overflow");
}

TEST(MaskedFill, ErrorsFollowPyTorch) {
  const Tensor x = tensor_of(ST::kFloat32, {1, 2});
  EXPECT_EQ(message_of([&] {
              masked_fill(x, tensor_of(ST::kUInt8, {1, 0}), 1);
            }),
            "masked_fill_ only supports boolean masks, but got mask with dtype uint8");
  EXPECT_EQ(
      message_of([&] { masked_fill(tensor_of(ST::kUInt8, {1}), tensor_of(ST::kBool, {1}), 300); }),
      "value cannot be converted to type uint8_t without overflow");
  // float16 and bfloat16 compute in float32 but check the value against their own range.
  EXPECT_EQ(message_of([&] {
              masked_fill(tensor_of(ST::kFloat16, {1}), tensor_of(ST::kBool, {1}), 1e10);
            }),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(
      message_of([&] { masked_fill(tensor_of(ST::kInt64, {1}), tensor_of(ST::kBool, {1}), kNan); }),
      "value cannot be converted to type int64_t without overflow");
  // The functional op broadcasts the mask with self (a is the mask); in place, the mask to self.
  EXPECT_EQ(message_of([&] {
              masked_fill(x, tensor_of(ST::kBool, {1, 0, 1}), 1);
            }),
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
            "dimension 0");
}

// ---- where with numbers -------------------------------------------------------------------------

TEST(WhereScalars, NumbersBecomeZeroDimTensorsOfTheResultType) {
  const Tensor c = tensor_of(ST::kBool, {1, 0});
  expect_int_values(where(c, Scalar(1), Scalar(2)), ST::kInt64, {1, 2});
  expect_values(where(c, Scalar(1.5), Scalar(2)), ST::kFloat32, {1.5, 2});
  expect_values(where(c, Scalar(true), Scalar(false)), ST::kBool, {1, 0});
  expect_complex_values(where(c, Scalar(complex<double>(0, 1)), Scalar(2)), ST::kComplex64,
                        {C(0, 1), C(2, 0)});
  expect_values(where(c, tensor_of(ST::kInt32, {5, 6}), Scalar(2.5)), ST::kFloat32, {5, 2.5});
  expect_values(where(c, Scalar(2.5), tensor_of(ST::kFloat16, {5, 6})), ST::kFloat16, {2.5, 6});
  expect_int_values(where(c, tensor_of(ST::kUInt8, {5, 6}), Scalar(-1)), ST::kUInt8, {5, 255});
  EXPECT_EQ(message_of([&] {
              where(c, tensor_of(ST::kUInt8, {5, 6}), Scalar(300));
            }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(message_of([&] {
              where(tensor_of(ST::kInt32, {1, 0}), Scalar(1), Scalar(2));
            }),
            "where expected condition to be a boolean tensor.");
}

// ---- threshold (an activation; its math is a masked select) -----------------------------------

TEST(Threshold, ReplacesValuesAtOrBelowTheThreshold) {
  for (ST t : {ST::kBFloat16, ST::kFloat32, ST::kFloat64}) {
    Tensor x = tensor_of(t, {kNan, -1, 0.5, 1, 2, -kInf});
    expect_values(threshold(x, 1, -7), t, {kNan, -7, -7, -7, 2, -7});
    threshold_(x, 0, kNan);
    expect_values(x, t, {kNan, kNan, 0.5, 1, 2, kNan});
  }
  // Integers take both numbers truncated: threshold 1.5 is 1, value 2.5 is 2.
  for (ST t : integral_dtypes()) {
    expect_int_values(threshold(tensor_of(t, {1, 2, 3}), 1.5, 2.5), t, {2, 2, 3});
  }
  Tensor out = empty({0}, ST::kFloat32, kCpu);
  threshold_out(out, tensor_of(ST::kInt64, {1, 2}), 1, 9);
  expect_values(out, ST::kFloat32, {9, 2});
  Tensor narrow = empty({2}, ST::kInt64, kCpu);
  EXPECT_EQ(message_of([&] {
              threshold_out(narrow, tensor_of(ST::kFloat32, {1, 2}), 1, 9);
            }),
            "result type float32 can't be cast to the desired output type int64");
  EXPECT_EQ(message_of([&] { threshold(tensor_of(ST::kBool, {1}), 0, 1); }),
            "\"threshold\" not implemented for 'bool'");
  EXPECT_EQ(message_of([&] { threshold(tensor_of(ST::kUInt8, {1}), 0, 300); }),
            "value cannot be converted to type uint8_t without overflow");
  // The vector loop (2 vectors a step and a tail) with NaN among the values.
  std::vector<double> v(203), expected(203);
  for (int i = 0; i < 203; ++i) {
    v[i] = i % 11 == 0 ? kNan : (i % 7) - 3.0;
    expected[i] = std::isnan(v[i]) || v[i] > 0 ? v[i] : 20;
  }
  expect_values(threshold(tensor_of(ST::kFloat32, v), 0, 20), ST::kFloat32, expected);
}

// Inputs of shape [2, 3] (transposed storage), [3] and [2, 1]: all three broadcast.
std::vector<Tensor> inputs(ST dtype, Device device) {
  Tensor a = empty_strided({2, 3}, {1, 2}, dtype, device);
  Tensor b = empty({3}, dtype, device);
  Tensor c = empty({2, 1}, dtype, device);
  if (device.is_cpu()) {
    copy_(a, tensor_of(dtype, {0, 2, 3, 5, 1, 4}, {2, 3}));
    copy_(b, tensor_of(dtype, {2, 3, 1}));
    copy_(c, tensor_of(dtype, {4, 5}, {2, 1}));
  }
  return {a, b, c};
}

TEST(TernaryOps, FunctionalInPlaceAndOutVariantsAgree) {
  for (const TernaryOp& op : ternary_ops()) {
    SCOPED_TRACE(op.name);
    const std::vector<Tensor> in = inputs(op.dtype, kCpu);
    Tensor expected = op.functional(in[0], in[1], in[2]);
    EXPECT_THAT(expected.sizes(), ElementsAre(2, 3));
    Tensor out = empty({0}, expected.dtype(), kCpu);
    op.out(out, in[0], in[1], in[2]);
    expect_same(out, expected);
    if (op.inplace) {
      Tensor self = clone(in[0]);
      op.inplace(self, in[1], in[2]);
      expect_same(self, expected);
    }
  }
}

TEST(TernaryOps, MetaGivesTheSameSizesStridesAndDtypeAsCpu) {
  for (const TernaryOp& op : ternary_ops()) {
    SCOPED_TRACE(op.name);
    const std::vector<Tensor> c = inputs(op.dtype, kCpu);
    const std::vector<Tensor> m = inputs(op.dtype, kMeta);
    Tensor meta = op.functional(m[0], m[1], m[2]);
    EXPECT_EQ(meta.device(), kMeta);
    expect_same_geometry(meta, op.functional(c[0], c[1], c[2]));
  }
}

}  // namespace
}  // namespace bp
