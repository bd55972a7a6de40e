// Unary pointwise ops on the CPU backend: values for every supported dtype (edge values
// included), the three variants, Meta geometry, type promotion and PyTorch's error messages.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using C = std::complex<double>;

constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 2.71828182845904523536;

// ---- abs -------------------------------------------------------------------------------------

TEST(Abs, GivesMagnitudesOfIntegersAndTheMinimumWrapsToItself) {
  for (ST t : signed_integral_dtypes()) {
    Tensor x = int_tensor_of(t, {-3, 0, 5, min_of(t), max_of(t)});
    expect_int_values(abs(x), t, {3, 0, 5, min_of(t), max_of(t)});
  }
  expect_int_values(abs(int_tensor_of(ST::kUInt8, {0, 7, 255})), ST::kUInt8, {0, 7, 255});
}

TEST(Abs, ClearsTheSignOfFloatsIncludingNegativeZero) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {-1.5, -0.0, 0.0, -kInf, kInf, kNan});
    expect_values(abs(x), t, {1.5, 0.0, 0.0, kInf, kInf, kNan});
  }
}

TEST(Abs, OfComplexIsTheMagnitudeInTheRealDtype) {
  // 3e30 squared overflows float32: the magnitude must not square the parts.
  Tensor z =
      complex_tensor_of(ST::kComplex64, {C(3, 4), C(-0.0, -0.0), C(kInf, kNan), C(-3e30, 4e30)});
  expect_values(abs(z), ST::kFloat32, {5, 0, kInf, 5e30}, tolerance_of(ST::kFloat32));
  Tensor w = complex_tensor_of(ST::kComplex128, {C(3, -4), C(-3e200, 4e200)});
  expect_values(abs(w), ST::kFloat64, {5, 5e200}, tolerance_of(ST::kFloat64));
}

TEST(Abs, OutOfComplexInputKeepsComplexOrTakesACastableRealDtype) {
  Tensor z = complex_tensor_of(ST::kComplex64, {C(3, 4)});
  Tensor complex_out = empty({1}, ST::kComplex64, kCpu);
  abs_out(complex_out, z);
  expect_complex_values(complex_out, ST::kComplex64, {C(5, 0)});
  Tensor wide_out = empty({1}, ST::kFloat64, kCpu);
  abs_out(wide_out, z);
  expect_values(wide_out, ST::kFloat64, {5});
  Tensor int_out = empty({1}, ST::kInt64, kCpu);
  EXPECT_EQ(message_of([&] { abs_out(int_out, z); }),
            "result type float32 can't be cast to the desired output type int64");
}

TEST(Abs, RejectsBoolAndInPlaceComplex) {
  Tensor flags = tensor_of(ST::kBool, {1, 0});
  EXPECT_EQ(message_of([&] { abs(flags); }), "\"abs\" not implemented for 'bool'");
  Tensor z = complex_tensor_of(ST::kComplex128, {C(1, 1)});
  EXPECT_EQ(message_of([&] { z.abs_(); }), "In-place abs is not supported for complex tensors.");
}

// ---- Floating functions: log, sqrt, sin, tanh, sigmoid, erf, reciprocal, exp -----------------

TEST(Log, GivesNaturalLogarithmsAndIeeeEdgeValues) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {1, kE, 0.5, 0.0, -0.0, -1, kInf, kNan});
    expect_values(log(x), t, {0, 1, -0.6931471805599453, -kInf, -kInf, kNan, kInf, kNan},
                  tolerance_of(t));
  }
  for (ST t : complex_dtypes()) {
    Tensor z = complex_tensor_of(t, {C(-1, 0), C(0, 1), C(kE, 0)});
    expect_complex_values(log(z), t, {C(0, kPi), C(0, kPi / 2), C(1, 0)}, tolerance_of(t));
  }
}

TEST(Log, PromotesIntegersAndBoolToFloat32) {
  expect_values(log(tensor_of(ST::kInt32, {1, 4})), ST::kFloat32, {0, 1.3862943611198906},
                tolerance_of(ST::kFloat32));
  expect_values(log(tensor_of(ST::kBool, {1, 0})), ST::kFloat32, {0, -kInf});
  expect_values(log(tensor_of(ST::kUInt8, {255})), ST::kFloat32, {5.541263545158426},
                tolerance_of(ST::kFloat32));
}

TEST(Sqrt, GivesRootsKeepingNegativeZero) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {4, 2, 0.0, -0.0, -1, kInf, -kInf, kNan});
    expect_values(sqrt(x), t, {2, 1.4142135623730951, 0.0, -0.0, kNan, kInf, kNan, kNan},
                  tolerance_of(t));
  }
  for (ST t : complex_dtypes()) {
    Tensor z = complex_tensor_of(t, {C(-4, 0), C(0, 2)});
    expect_complex_values(sqrt(z), t, {C(0, 2), C(1, 1)}, tolerance_of(t));
  }
  expect_values(sqrt(tensor_of(ST::kInt64, {9})), ST::kFloat32, {3});
}

TEST(Sin, GivesSinesKeepingNegativeZero) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {0.0, -0.0, kPi / 2, -kPi / 6, kInf, kNan});
    expect_values(sin(x), t, {0.0, -0.0, 1, -0.5, kNan, kNan}, tolerance_of(t) * 2);
  }
  for (ST t : complex_dtypes()) {
    expect_complex_values(sin(complex_tensor_of(t, {C(0, 1)})), t, {C(0, 1.1752011936438014)},
                          tolerance_of(t));
  }
}

TEST(Tanh, SaturatesAtPlusMinusOne) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {0.0, -0.0, 1, -1, 50, kInf, -kInf, kNan});
    expect_values(tanh(x), t, {0.0, -0.0, 0.7615941559557649, -0.7615941559557649, 1, 1, -1, kNan},
                  tolerance_of(t));
  }
  for (ST t : complex_dtypes()) {
    expect_complex_values(tanh(complex_tensor_of(t, {C(0, 1)})), t, {C(0, 1.5574077246549023)},
                          tolerance_of(t));
  }
}

TEST(Sigmoid, MapsTheLineOntoZeroOne) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {0, 2, -2, kInf, -kInf, kNan});
    expect_values(sigmoid(x), t, {0.5, 0.8807970779778823, 0.11920292202211755, 1, 0, kNan},
                  tolerance_of(t));
  }
  for (ST t : complex_dtypes()) {
    expect_complex_values(sigmoid(complex_tensor_of(t, {C(0, 0), C(2, 0)})), t,
                          {C(0.5, 0), C(0.8807970779778823, 0)}, tolerance_of(t));
  }
  expect_values(sigmoid(tensor_of(ST::kBool, {0})), ST::kFloat32, {0.5});
}

// C99's cexp special values (std::exp), as PyTorch's CPU kernel since pytorch#140358; 1.13's
// vectorised exp multiplied e^re by (cos im, sin im): exp(inf+0j) was inf+nanj there.
TEST(Exp, OfComplexInfinitiesAndNanFollowsC99) {
  for (ST t : complex_dtypes()) {
    SCOPED_TRACE(t);
    Tensor z = complex_tensor_of(t, {C(kInf, 0.0), C(kInf, -0.0), C(kInf, 1), C(-kInf, 1),
                                     C(-kInf, kInf), C(kNan, 0.0), C(0, kInf), C(kInf, kInf)});
    expect_complex_values(exp(z), t,
                          {C(kInf, 0.0), C(kInf, -0.0), C(kInf, kInf), C(0.0, 0.0), C(0.0, 0.0),
                           C(kNan, 0.0), C(kNan, kNan), C(kInf, kNan)});
  }
}

TEST(Erf, GivesTheErrorFunctionOfRealsOnly) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {0.0, -0.0, 1, -0.5, kInf, -kInf, kNan});
    expect_values(erf(x), t, {0.0, -0.0, 0.8427007929497149, -0.5204998778130465, 1, -1, kNan},
                  tolerance_of(t));
  }
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 0)});
  EXPECT_EQ(message_of([&] { erf(z); }), "\"erf\" not implemented for 'complex64'");
}

TEST(Reciprocal, DividesOneWithIeeeZerosAndSmithsComplexDivision) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {2, -4, 0.0, -0.0, kInf, -kInf, kNan});
    expect_values(reciprocal(x), t, {0.5, -0.25, kInf, -kInf, 0.0, -0.0, kNan});
  }
  for (ST t : complex_dtypes()) {
    Tensor z = complex_tensor_of(t, {C(0, 1), C(2, 0), C(0, 0), C(-0.0, -0.0)});
    expect_complex_values(reciprocal(z), t, {C(0, -1), C(0.5, 0), C(kInf, kNan), C(kInf, kNan)});
  }
  expect_values(reciprocal(tensor_of(ST::kInt16, {2, 0})), ST::kFloat32, {0.5, kInf});
}

TEST(FloatingUnaryOps, InPlaceOnIntegersCannotHoldTheFloatResult) {
  Tensor ints = tensor_of(ST::kInt32, {1, 2});
  const std::string message = "result type float32 can't be cast to the desired output type int32";
  EXPECT_EQ(message_of([&] { ints.log_(); }), message);
  EXPECT_EQ(message_of([&] { ints.sqrt_(); }), message);
  EXPECT_EQ(message_of([&] { ints.sigmoid_(); }), message);
  EXPECT_EQ(message_of([&] { ints.reciprocal_(); }), message);
}

// ---- ceil ------------------------------------------------------------------------------------

TEST(Ceil, RoundsFloatsUpKeepingNegativeZero) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {1.25, -1.25, -0.5, 2, -0.0, kInf, -kInf, kNan});
    expect_values(ceil(x), t, {2, -1, -0.0, 2, -0.0, kInf, -kInf, kNan});
  }
}

TEST(Ceil, LeavesIntegersUnchanged) {
  for (ST t : integral_dtypes()) {
    Tensor x = int_tensor_of(t, {min_of(t), 0, max_of(t)});
    expect_int_values(ceil(x), t, {min_of(t), 0, max_of(t)});
  }
}

TEST(Ceil, RejectsComplexAndBool) {
  EXPECT_EQ(message_of([&] { ceil(complex_tensor_of(ST::kComplex64, {C(1, 1)})); }),
            "ceil is not supported for complex inputs");
  EXPECT_EQ(message_of([&] { ceil(tensor_of(ST::kBool, {1})); }),
            "\"ceil\" not implemented for 'bool'");
}

// ---- isnan, logical_not, bitwise_not ---------------------------------------------------------

TEST(IsNan, IsTrueOnlyForNanParts) {
  for (ST t : floating_dtypes()) {
    expect_values(isnan(tensor_of(t, {kNan, 1, kInf, -0.0})), ST::kBool, {1, 0, 0, 0});
  }
  for (ST t : complex_dtypes()) {
    Tensor z = complex_tensor_of(t, {C(kNan, 0), C(0, kNan), C(kInf, 1)});
    expect_values(isnan(z), ST::kBool, {1, 1, 0});
  }
  for (ST t : integral_dtypes()) {
    expect_values(isnan(int_tensor_of(t, {0, max_of(t)})), ST::kBool, {0, 0});
  }
  expect_values(isnan(tensor_of(ST::kBool, {1, 0})), ST::kBool, {0, 0});
}

TEST(LogicalNot, IsTrueForZerosOfEveryDtype) {
  for (ST t : all_dtypes()) {
    if (is_complex(t)) {
      expect_values(logical_not(complex_tensor_of(t, {C(0, 0), C(0, 1), C(-0.0, 0)})), ST::kBool,
                    {1, 0, 1});
    } else if (is_floating_point(t)) {
      expect_values(logical_not(tensor_of(t, {0.0, -0.0, kNan, 0.5})), ST::kBool, {1, 1, 0, 0});
    } else {
      expect_values(logical_not(tensor_of(t, {0, 1})), ST::kBool, {1, 0});
    }
  }
}

TEST(LogicalNot, InPlaceAndOutKeepTheirDtype) {
  Tensor x = tensor_of(ST::kFloat32, {0, 2.5});
  x.logical_not_();
  expect_values(x, ST::kFloat32, {1, 0});
  Tensor out = empty({2}, ST::kInt64, kCpu);
  logical_not_out(out, tensor_of(ST::kInt8, {0, -3}));
  expect_values(out, ST::kInt64, {1, 0});
}

TEST(BitwiseNot, InvertsBitsOfIntegersAndNegatesBool) {
  for (ST t : signed_integral_dtypes()) {
    expect_int_values(bitwise_not(int_tensor_of(t, {0, -1, 5, min_of(t)})), t,
                      {-1, 0, -6, max_of(t)});
  }
  expect_int_values(bitwise_not(int_tensor_of(ST::kUInt8, {0, 255, 15})), ST::kUInt8,
                    {255, 0, 240});
  expect_values(bitwise_not(tensor_of(ST::kBool, {1, 0})), ST::kBool, {0, 1});
  EXPECT_EQ(message_of([&] { bitwise_not(tensor_of(ST::kFloat32, {1})); }),
            "\"bitwise_not\" not implemented for 'float32'");
}

// ---- nan_to_num ------------------------------------------------------------------------------

TEST(NanToNum, DefaultsAreZeroAndTheDtypesExtremes) {
  const std::vector<double> in = {kNan, kInf, -kInf, 1.5, -0.0};
  expect_values(nan_to_num(tensor_of(ST::kFloat16, in)), ST::kFloat16,
                {0, 65504, -65504, 1.5, -0.0});
  expect_values(nan_to_num(tensor_of(ST::kBFloat16, in)), ST::kBFloat16,
                {0, 3.3895313892515355e38, -3.3895313892515355e38, 1.5, -0.0});
  expect_values(nan_to_num(tensor_of(ST::kFloat32, in)), ST::kFloat32,
                {0, 3.4028234663852886e38, -3.4028234663852886e38, 1.5, -0.0});
  expect_values(nan_to_num(tensor_of(ST::kFloat64, in)), ST::kFloat64,
                {0, 1.7976931348623157e308, -1.7976931348623157e308, 1.5, -0.0});
}

TEST(NanToNum, ReplacementsAreRoundedToTheDtype) {
  Tensor x = tensor_of(ST::kFloat16, {kNan, kInf, -kInf});
  // 0.1 in float16 is 0.0999755859375; 1e6 overflows float16 to inf.
  expect_values(nan_to_num(x, 0.1, 1e6, -2), ST::kFloat16, {0.0999755859375, kInf, -2});
}

TEST(NanToNum, ReplacesEachPartOfComplexNumbers) {
  Tensor z = complex_tensor_of(ST::kComplex64, {C(kNan, kInf), C(-kInf, 2)});
  expect_complex_values(nan_to_num(z, 1.0, 2.0, 3.0), ST::kComplex64, {C(1, 2), C(3, 2)});
  Tensor w = complex_tensor_of(ST::kComplex128, {C(kInf, kNan)});
  expect_complex_values(nan_to_num(w), ST::kComplex128, {C(1.7976931348623157e308, 0)});
}

TEST(NanToNum, LeavesIntegersAndBoolUnchanged) {
  for (ST t : integral_dtypes()) {
    expect_int_values(nan_to_num(int_tensor_of(t, {min_of(t), max_of(t)}), 1.0), t,
                      {min_of(t), max_of(t)});
  }
  expect_values(nan_to_num(tensor_of(ST::kBool, {1, 0})), ST::kBool, {1, 0});
}

TEST(NanToNum, OutMustHaveTheInputsDtype) {
  Tensor out = empty({1}, ST::kFloat32, kCpu);
  EXPECT_EQ(message_of([&] { nan_to_num_out(out, tensor_of(ST::kFloat64, {kNan})); }),
            "nan_to_num: dtype of out: float32 should be same as input: float64");
}

// ---- polygamma -------------------------------------------------------------------------------

TEST(Polygamma, TakesNFirstAsAFunctionAndAsAMethodAndSelfFirstInPlace) {
  // PyTorch's polygamma(n, x), x.polygamma(n), x.polygamma_(n), polygamma(n, x, out=).
  const Tensor x = tensor_of(ST::kFloat64, {0.5, 2});
  const Tensor expected = polygamma(1, x);
  expect_values(expected, ST::kFloat64, {kPi * kPi / 2, kPi * kPi / 6 - 1},
                tolerance_of(ST::kFloat64));
  expect_same(x.polygamma(1), expected);
  Tensor y = x.clone();
  EXPECT_TRUE(y.polygamma_(1).is_same(y));
  expect_same(y, expected);
  Tensor out = empty({0}, ST::kFloat64, kCpu);
  EXPECT_TRUE(polygamma_out(out, 1, x).is_same(out));
  expect_same(out, expected);
}

TEST(Polygamma, PromotesIntegersAndRejectsANegativeOrder) {
  Tensor ints = int_tensor_of(ST::kInt64, {1, 0, -2});
  expect_values(ints.polygamma(1), ST::kFloat32, {kPi * kPi / 6, kInf, kInf},
                tolerance_of(ST::kFloat32));
  EXPECT_EQ(message_of([&] { ints.polygamma_(1); }),
            "result type float32 can't be cast to the desired output type int64");
  EXPECT_EQ(message_of([&] { polygamma(-1, tensor_of(ST::kFloat32, {1})); }),
            "polygamma(n, x) does not support negative n.");
}

TEST(Polygamma, TorchSpecialNamesAreAliasesWithTheSameArguments) {
  // special_polygamma(n, self) and special_multigammaln(self, p), and their out= ops.
  const Tensor x = tensor_of(ST::kFloat32, {0.5, 3});
  expect_same(special_polygamma(2, x), polygamma(2, x));
  expect_same(special_multigammaln(x, 3), mvlgamma(x, 3));
  Tensor out = empty({0}, ST::kFloat64, kCpu);
  special_polygamma_out(out, 1, x);
  expect_same(out, polygamma(1, x).to(ST::kFloat64));
  special_multigammaln_out(out, x, 2);
  expect_same(out, mvlgamma(x, 2).to(ST::kFloat64));
  EXPECT_EQ(message_of([&] { special_multigammaln(x, 0); }),
            "p has to be greater than or equal to 1");
}

// ---- Every op: variants, Meta, layouts -------------------------------------------------------

struct UnaryOp {
  std::string name;
  ST input_dtype;
  std::function<Tensor(const Tensor&)> functional;
  std::function<void(Tensor&)> inplace;  // empty: PyTorch has none
  std::function<void(Tensor&, const Tensor&)> out;
};

std::vector<UnaryOp> unary_ops() {
  return {
      {"abs", ST::kInt32, [](const Tensor& x) { return abs(x); }, [](Tensor& x) { x.abs_(); },
       [](Tensor& o, const Tensor& x) { abs_out(o, x); }},
      {"neg", ST::kFloat32, [](const Tensor& x) { return neg(x); }, [](Tensor& x) { x.neg_(); },
       [](Tensor& o, const Tensor& x) { neg_out(o, x); }},
      {"exp", ST::kFloat64, [](const Tensor& x) { return exp(x); }, [](Tensor& x) { x.exp_(); },
       [](Tensor& o, const Tensor& x) { exp_out(o, x); }},
      {"log", ST::kFloat32, [](const Tensor& x) { return log(x); }, [](Tensor& x) { x.log_(); },
       [](Tensor& o, const Tensor& x) { log_out(o, x); }},
      {"sqrt", ST::kFloat32, [](const Tensor& x) { return sqrt(x); }, [](Tensor& x) { x.sqrt_(); },
       [](Tensor& o, const Tensor& x) { sqrt_out(o, x); }},
      {"sin", ST::kFloat16, [](const Tensor& x) { return sin(x); }, [](Tensor& x) { x.sin_(); },
       [](Tensor& o, const Tensor& x) { sin_out(o, x); }},
      {"tanh", ST::kBFloat16, [](const Tensor& x) { return tanh(x); }, [](Tensor& x) { x.tanh_(); },
       [](Tensor& o, const Tensor& x) { tanh_out(o, x); }},
      {"sigmoid", ST::kFloat32, [](const Tensor& x) { return sigmoid(x); },
       [](Tensor& x) { x.sigmoid_(); }, [](Tensor& o, const Tensor& x) { sigmoid_out(o, x); }},
      {"erf", ST::kFloat64, [](const Tensor& x) { return erf(x); }, [](Tensor& x) { x.erf_(); },
       [](Tensor& o, const Tensor& x) { erf_out(o, x); }},
      {"ceil", ST::kFloat32, [](const Tensor& x) { return ceil(x); }, [](Tensor& x) { x.ceil_(); },
       [](Tensor& o, const Tensor& x) { ceil_out(o, x); }},
      {"reciprocal", ST::kFloat32, [](const Tensor& x) { return reciprocal(x); },
       [](Tensor& x) { x.reciprocal_(); },
       [](Tensor& o, const Tensor& x) { reciprocal_out(o, x); }},
      {"isnan", ST::kFloat32, [](const Tensor& x) { return isnan(x); }, nullptr,
       [](Tensor& o, const Tensor& x) { isnan_out(o, x); }},
      {"logical_not", ST::kBool, [](const Tensor& x) { return logical_not(x); },
       [](Tensor& x) { x.logical_not_(); },
       [](Tensor& o, const Tensor& x) { logical_not_out(o, x); }},
      {"bitwise_not", ST::kInt64, [](const Tensor& x) { return bitwise_not(x); },
       [](Tensor& x) { x.bitwise_not_(); },
       [](Tensor& o, const Tensor& x) { bitwise_not_out(o, x); }},
      {"nan_to_num", ST::kFloat32, [](const Tensor& x) { return nan_to_num(x); },
       [](Tensor& x) { x.nan_to_num_(); },
       [](Tensor& o, const Tensor& x) { nan_to_num_out(o, x); }},
      {"polygamma", ST::kFloat32, [](const Tensor& x) { return x.polygamma(2); },
       [](Tensor& x) { x.polygamma_(2); },
       [](Tensor& o, const Tensor& x) { polygamma_out(o, 2, x); }},
      {"mvlgamma", ST::kFloat64, [](const Tensor& x) { return x.mvlgamma(2); },
       [](Tensor& x) { x.mvlgamma_(2); },
       [](Tensor& o, const Tensor& x) { mvlgamma_out(o, x, 2); }},
  };
}

// A 2 x 3 input stored transposed (strides 1, 2), with values every op accepts.
Tensor transposed_input(ST dtype, Device device) {
  Tensor x = empty_strided({2, 3}, {1, 2}, dtype, device);
  if (device.is_cpu()) copy_(x, tensor_of(dtype, {0.5, 2, 3, 0.25, 1, 4}, {2, 3}));
  return x;
}

TEST(UnaryOps, FunctionalInPlaceAndOutVariantsAgree) {
  for (const UnaryOp& op : unary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor x = transposed_input(op.input_dtype, kCpu);
    Tensor expected = op.functional(x);
    Tensor out = empty({0}, expected.dtype(), kCpu);
    op.out(out, x);
    expect_same(out, expected);
    if (op.inplace) {
      Tensor self = clone(x);
      const uint32_t version = self.version();
      op.inplace(self);
      expect_same(self, expected);
      EXPECT_GT(self.version(), version);
    }
  }
}

TEST(UnaryOps, MetaGivesTheSameSizesStridesAndDtypeAsCpu) {
  for (const UnaryOp& op : unary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor cpu = op.functional(transposed_input(op.input_dtype, kCpu));
    Tensor meta = op.functional(transposed_input(op.input_dtype, kMeta));
    EXPECT_EQ(meta.device(), kMeta);
    expect_same_geometry(meta, cpu);
    EXPECT_EQ(cpu.strides(), (std::vector<int64_t>{1, 2}));  // the input's layout is kept
  }
}

TEST(UnaryOps, NonContiguousInputsGiveTheSameValuesAsContiguousOnes) {
  for (const UnaryOp& op : unary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor x = transposed_input(op.input_dtype, kCpu);
    expect_same(op.functional(x), op.functional(clone(x, MemoryFormat::kContiguous)));
  }
}

TEST(UnaryOps, LargeInputsTakeTheVectorAndThreadedPathsWithTheSameResults) {
  // 100003 elements: many vector steps, a scalar tail, and more than one grain.
  const int64_t n = 100003;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<double>(i % 97) / 8 - 6;
  Tensor x = tensor_of(ST::kFloat32, values);
  const std::vector<double> result = values_of(abs(x));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(result[i], std::fabs(values[i])) << i;
  const std::vector<double> ceilings = values_of(ceil(x));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(ceilings[i], std::ceil(values[i])) << i;
}

}  // namespace
}  // namespace bp
