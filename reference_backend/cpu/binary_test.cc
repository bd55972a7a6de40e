// Binary pointwise ops on the CPU backend: values for every supported dtype (edge values
// included), Scalar overloads, type promotion with Scalars and zero-dim tensors, the three
// variants, Meta geometry and PyTorch's error messages.
#include <cmath>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/core/scalar_tensor.h"
#include "sdk/core/views.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;
using C = std::complex<double>;

constexpr double kPi = 3.14159265358979323846;

// A zero-dim CPU tensor created as a tensor (not a wrapped number).
Tensor zero_dim(ST dtype, double value) { return scalar_tensor(Scalar(value), dtype); }

// ---- add, sub, mul ---------------------------------------------------------------------------

TEST(Add, IntegerOverflowWraps) {
  for (ST t : integral_dtypes()) {
    Tensor a = int_tensor_of(t, {max_of(t), min_of(t)});
    Tensor b = int_tensor_of(t, {1, -1});
    // uint8: 255 + 1 is 0 and 0 + 255 (the wrapped -1) is 255.
    expect_int_values(add(a, b), t, {min_of(t), max_of(t)});
  }
}

TEST(Add, OfBoolIsLogicalOrAndAlphaScales) {
  expect_values(add(tensor_of(ST::kBool, {0, 1, 1}), tensor_of(ST::kBool, {0, 0, 1})), ST::kBool,
                {0, 1, 1});
  expect_values(add(tensor_of(ST::kFloat32, {1, 2}), tensor_of(ST::kFloat32, {10, 20}), 0.5),
                ST::kFloat32, {6, 12});
  expect_complex_values(add(complex_tensor_of(ST::kComplex64, {C(1, 1)}),
                            complex_tensor_of(ST::kComplex64, {C(1, -1)}), C(0, 1)),
                        ST::kComplex64, {C(2, 2)});
}

// A broadcast operand (stride 0) and a Scalar reach the vectorised loop as a splat vector, which
// must keep -0.0's sign: torch.mul(tensor([[-0.0], [1.5]]), tensor([[1, -1, 0, -0.0] * k])) is
// [[-0, 0, -0, 0, ...], [1.5, -1.5, 0, -0, ...]] and torch.add gives -0.0 + -0.0 = -0.0.
// Enough elements for the vector loop: 32 float32, 16 float64.
TEST(BroadcastOperand, KeepsTheSignOfNegativeZeroInTheVectorLoop) {
  for (const auto& [t, n] : {std::pair{ST::kFloat32, 32}, std::pair{ST::kFloat64, 16}}) {
    SCOPED_TRACE(t);
    const double pattern[] = {1, -1, 0.0, -0.0};
    std::vector<double> row, products, sums, row_times_zero;
    for (int i = 0; i < n; ++i) row.push_back(pattern[i % 4]);
    for (double x : {-0.0, 1.5}) {
      for (double y : row) {
        products.push_back(x * y);
        sums.push_back(x + y);
      }
    }
    for (double y : row) row_times_zero.push_back(y * -0.0);
    const Tensor column = tensor_of(t, {-0.0, 1.5}, {2, 1});
    const Tensor other = tensor_of(t, row, {1, n});
    expect_values(mul(column, other), t, products);
    expect_values(add(column, other), t, sums);
    // The broadcast operand second, and Scalar -0.0.
    expect_values(mul(other, column), t, products);
    expect_values(mul(tensor_of(t, row), Scalar(-0.0)), t, row_times_zero);
    expect_values(add(tensor_of(t, row), Scalar(-0.0)), t, row);
  }
}

TEST(Add, AlphaMustFitTheComputeDtype) {
  Tensor a = tensor_of(ST::kInt8, {1});
  EXPECT_EQ(message_of([&] { add(a, a, 300); }),
            "value cannot be converted to type int8_t without overflow");
}

TEST(TypePromotion, ScalarsAndZeroDimTensorsPromoteByCategoryOnly) {
  Tensor ints = tensor_of(ST::kInt32, {1, 2});
  // A number of a higher category gives the default dtype of that category.
  expect_values(add(ints, Scalar(0.5)), ST::kFloat32, {1.5, 2.5});
  expect_complex_values(add(ints, Scalar(complex<double>(0, 1))), ST::kComplex64,
                        {C(1, 1), C(2, 1)});
  // A number or zero-dim tensor of the same category does not widen.
  expect_int_values(add(ints, Scalar(int64_t{1} << 40)), ST::kInt32, {1, 2});
  expect_int_values(add(ints, zero_dim(ST::kInt64, 3)), ST::kInt32, {4, 5});
  // A zero-dim tensor of a higher category keeps its own dtype.
  expect_values(add(ints, zero_dim(ST::kFloat64, 0.5)), ST::kFloat64, {1.5, 2.5});
  expect_values(add(tensor_of(ST::kFloat16, {1}), zero_dim(ST::kFloat64, 0.5)), ST::kFloat16,
                {1.5});
  // Tensors with dimensions promote fully.
  expect_int_values(add(tensor_of(ST::kUInt8, {200}), tensor_of(ST::kInt8, {-100})), ST::kInt16,
                    {100});
  expect_int_values(add(tensor_of(ST::kBool, {1}), Scalar(2)), ST::kInt64, {3});
  expect_values(mul(tensor_of(ST::kFloat16, {2}), tensor_of(ST::kBFloat16, {3})), ST::kFloat32,
                {6});
}

TEST(TypePromotion, BFloat16WithComplexNumbersAndZeroDimTensorsComputesInComplex64) {
  // As torch 1.13: bfloat16 + 1j and bfloat16 * tensor(2j, complex128) are complex64 (float16
  // would give complex32 in PyTorch, which Backplane does not have: complex64 too).
  Tensor b = tensor_of(ST::kBFloat16, {1.5, -2});
  expect_complex_values(add(b, Scalar(complex<double>(0, 1))), ST::kComplex64,
                        {C(1.5, 1), C(-2, 1)});
  expect_complex_values(mul(b, scalar_tensor(Scalar(complex<double>(0, 2)), ST::kComplex128)),
                        ST::kComplex64, {C(0, 3), C(-0.0, -4)});
  expect_complex_values(add(tensor_of(ST::kFloat16, {1.5}), Scalar(complex<double>(0, 1))),
                        ST::kComplex64, {C(1.5, 1)});
}

TEST(Sub, SubtractsWithAlphaAndWraps) {
  for (ST t : signed_integral_dtypes()) {
    expect_int_values(sub(int_tensor_of(t, {min_of(t), 5}), int_tensor_of(t, {1, 2}), 2), t,
                      {max_of(t) - 1, 1});
  }
  for (ST t : floating_dtypes()) {
    expect_values(sub(tensor_of(t, {1, 0.0, kInf}), tensor_of(t, {0.5, 0.0, kInf})), t,
                  {0.5, 0.0, kNan});
  }
  expect_complex_values(sub(complex_tensor_of(ST::kComplex128, {C(1, 2)}),
                            complex_tensor_of(ST::kComplex128, {C(3, 5)})),
                        ST::kComplex128, {C(-2, -3)});
  expect_values(sub(tensor_of(ST::kInt64, {3}), Scalar(0.5)), ST::kFloat32, {2.5});
  Tensor x = tensor_of(ST::kInt64, {3});
  x.sub_(Scalar(1), 2);
  expect_int_values(x, ST::kInt64, {1});
}

TEST(Sub, RejectsBoolOperands) {
  Tensor flags = tensor_of(ST::kBool, {1});
  Tensor ints = tensor_of(ST::kInt32, {1});
  EXPECT_EQ(message_of([&] { sub(flags, flags); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead.");
  EXPECT_EQ(message_of([&] { sub(ints, flags); }),
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

TEST(Mul, ScalarOverloadAndBoolAnd) {
  expect_int_values(mul(tensor_of(ST::kInt16, {3, -4}), Scalar(3)), ST::kInt16, {9, -12});
  expect_values(mul(tensor_of(ST::kInt16, {3}), Scalar(0.5)), ST::kFloat32, {1.5});
  expect_values(mul(tensor_of(ST::kBool, {1, 1, 0}), tensor_of(ST::kBool, {1, 0, 0})), ST::kBool,
                {1, 0, 0});
  Tensor x = tensor_of(ST::kFloat64, {1.5});
  x.mul_(Scalar(-2));
  expect_values(x, ST::kFloat64, {-3});
  expect_int_values(mul(int_tensor_of(ST::kInt32, {1 << 16}), int_tensor_of(ST::kInt32, {1 << 16})),
                    ST::kInt32, {0});  // 2^32 wraps to 0
}

// ---- div -------------------------------------------------------------------------------------

TEST(Div, TrueDivisionPromotesIntegersAndGivesIeeeResults) {
  for (ST t : integral_dtypes()) {
    expect_values(div(tensor_of(t, {1, 7, 0}), tensor_of(t, {0, 2, 0})), ST::kFloat32,
                  {kInf, 3.5, kNan});
  }
  for (ST t : floating_dtypes()) {
    expect_values(div(tensor_of(t, {1, -1, 1, 0, 3}), tensor_of(t, {0.0, 0.0, -0.0, 0.0, -4})), t,
                  {kInf, -kInf, -kInf, kNan, -0.75});
  }
  for (ST t : complex_dtypes()) {
    // Division by a zero divides each part by +0, whatever the zeros' signs (c10::complex's
    // std::abs): (-1+1j) / (0-0j) is -inf+infj.
    expect_complex_values(div(complex_tensor_of(t, {C(1, 1), C(1, 0), C(-1, 1)}),
                              complex_tensor_of(t, {C(1, -1), C(0, 0), C(-0.0, -0.0)})),
                          t, {C(0, 1), C(kInf, kNan), C(-kInf, kInf)});
  }
  expect_values(div(tensor_of(ST::kBool, {1}), tensor_of(ST::kBool, {1})), ST::kFloat32, {1});
  expect_values(div(tensor_of(ST::kInt64, {3}), Scalar(2)), ST::kFloat32, {1.5});
}

// Smith's algorithm (c10::complex's since PyTorch 2.0, pytorch#92539) scales by the divisor's
// larger part: 1.13's plain formula squared 1e-36 to 0 in float and gave nan+nanj.
TEST(Div, ComplexQuotientsDoNotSquareTheDivisor) {
  expect_complex_values(div(complex_tensor_of(ST::kComplex64, {C(0, 0), C(1e-30, 2e-30)}),
                            complex_tensor_of(ST::kComplex64, {C(1e-36, 0), C(1e-30, 0)})),
                        ST::kComplex64, {C(0, 0), C(1, 2)}, tolerance_of(ST::kFloat32));
  expect_complex_values(div(complex_tensor_of(ST::kComplex128, {C(1e300, 1e300)}),
                            complex_tensor_of(ST::kComplex128, {C(1e300, 1e300)})),
                        ST::kComplex128, {C(1, 0)}, tolerance_of(ST::kFloat64));
}

TEST(Div, InPlaceTrueDivisionOfIntegersIsAnError) {
  Tensor x = tensor_of(ST::kInt64, {4});
  EXPECT_EQ(message_of([&] { x.div_(tensor_of(ST::kInt64, {2})); }),
            "result type float32 can't be cast to the desired output type int64");
}

TEST(DivMode, TruncAndFloorOfIntegersRoundTowardZeroAndDown) {
  for (ST t : signed_integral_dtypes()) {
    Tensor a = int_tensor_of(t, {7, -7, 7, -7, 0, 6, min_of(t)});
    Tensor b = int_tensor_of(t, {2, 2, -2, -2, 3, -3, -1});
    // The minimum divided by -1 wraps to itself (the CPU's division would trap).
    expect_int_values(div(a, b, "trunc"), t, {3, -3, -3, 3, 0, -2, min_of(t)});
    expect_int_values(div(a, b, "floor"), t, {3, -4, -4, 3, 0, -2, min_of(t)});
  }
  Tensor u = int_tensor_of(ST::kUInt8, {7, 255});
  Tensor v = int_tensor_of(ST::kUInt8, {2, 16});
  expect_int_values(div(u, v, "trunc"), ST::kUInt8, {3, 15});
  expect_int_values(div(u, v, "floor"), ST::kUInt8, {3, 15});
}

TEST(DivMode, IntegerDivisionByZeroIsZeroDivisionError) {
  for (ST t : integral_dtypes()) {
    Tensor a = int_tensor_of(t, {1, 2});
    Tensor b = int_tensor_of(t, {1, 0});
    EXPECT_EQ(message_of([&] { div(a, b, "trunc"); }), "ZeroDivisionError") << t;
    EXPECT_EQ(message_of([&] { div(a, b, "floor"); }), "ZeroDivisionError") << t;
  }
  EXPECT_EQ(message_of([&] { div(tensor_of(ST::kInt64, {5}), Scalar(0), "floor"); }),
            "ZeroDivisionError");
}

TEST(DivMode, FloatingTruncAndFloorKeepSignedZerosAndIeeeDivisionByZero) {
  for (ST t : floating_dtypes()) {
    Tensor a = tensor_of(t, {7.5, -7.5, 1, -1, 0.5, 0.0, 5, -5, kNan});
    Tensor b = tensor_of(t, {2, 2, 0, 0, -4, -1, kInf, kInf, 1});
    expect_values(div(a, b, "trunc"), t, {3, -3, kInf, -kInf, -0.0, -0.0, 0.0, -0.0, kNan});
    // Python's //: 5 // inf is 0.0, -5 // inf is -1.0, 0.0 // -1 is -0.0.
    expect_values(div(a, b, "floor"), t, {3, -4, kInf, -kInf, -1, -0.0, 0.0, -1, kNan});
  }
}

TEST(DivMode, NoModeIsTrueDivisionAndOtherModesAreErrors) {
  Tensor a = tensor_of(ST::kInt32, {7});
  Tensor b = tensor_of(ST::kInt32, {2});
  expect_values(div(a, b, std::nullopt), ST::kFloat32, {3.5});
  EXPECT_EQ(message_of([&] { div(a, b, "round"); }),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  EXPECT_EQ(message_of([&] { div(tensor_of(ST::kBool, {1}), tensor_of(ST::kBool, {1}), "trunc"); }),
            "\"div_trunc\" not implemented for 'bool'");
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 1)});
  EXPECT_EQ(message_of([&] { div(z, z, "floor"); }),
            "\"div_floor\" not implemented for 'complex64'");
}

TEST(DivMode, ScalarOverloadsRoundAsTheTensorOnes) {
  expect_int_values(div(tensor_of(ST::kInt64, {-7}), Scalar(2), "floor"), ST::kInt64, {-4});
  expect_values(div(tensor_of(ST::kInt64, {-7}), Scalar(2.0), "trunc"), ST::kFloat32, {-3});
  Tensor x = tensor_of(ST::kInt16, {-7});
  x.div_(Scalar(2), "trunc");
  expect_int_values(x, ST::kInt16, {-3});
}

// ---- remainder -------------------------------------------------------------------------------

TEST(Remainder, OfIntegersTakesTheDivisorsSign) {
  for (ST t : signed_integral_dtypes()) {
    Tensor a = int_tensor_of(t, {7, -7, 7, -7, 0, min_of(t)});
    Tensor b = int_tensor_of(t, {3, 3, -3, -3, 5, -1});
    expect_int_values(remainder(a, b), t, {1, 2, -2, -1, 0, 0});
  }
  expect_int_values(
      remainder(int_tensor_of(ST::kUInt8, {7, 255}), int_tensor_of(ST::kUInt8, {3, 16})),
      ST::kUInt8, {1, 15});
}

TEST(Remainder, OfFloatsIsExactAndFollowsPython) {
  for (ST t : floating_dtypes()) {
    Tensor a = tensor_of(t, {7, -7, 7, -7, 5.5, -0.0, 5, -5, 1, kInf});
    Tensor b = tensor_of(t, {3, 3, -3, -3, 2, 1, kInf, kInf, 0, 2});
    expect_values(remainder(a, b), t, {1, 2, -2, -1, 1.5, -0.0, 5, kInf, kNan, kNan});
  }
}

TEST(Remainder, IntegerDivisionByZeroAndUnsupportedDtypesAreErrors) {
  Tensor a = tensor_of(ST::kInt32, {5, 6});
  EXPECT_EQ(message_of([&] { remainder(a, tensor_of(ST::kInt32, {2, 0})); }), "ZeroDivisionError");
  EXPECT_EQ(message_of([&] { remainder(a, Scalar(0)); }), "ZeroDivisionError");
  EXPECT_EQ(message_of([&] { remainder(tensor_of(ST::kBool, {1}), tensor_of(ST::kBool, {1})); }),
            "\"remainder\" not implemented for 'bool'");
  Tensor z = complex_tensor_of(ST::kComplex128, {C(1, 1)});
  EXPECT_EQ(message_of([&] { remainder(z, z); }), "\"remainder\" not implemented for 'complex128'");
}

TEST(Remainder, ScalarOverloadsPromoteAsNumbers) {
  expect_values(remainder(tensor_of(ST::kInt32, {7, -7}), Scalar(2.5)), ST::kFloat32, {2, 0.5});
  Tensor out = empty({0}, ST::kInt32, kCpu);
  remainder_out(out, tensor_of(ST::kInt32, {7, -7}), Scalar(-3));
  expect_int_values(out, ST::kInt32, {-2, -1});
  Tensor x = tensor_of(ST::kInt8, {-1});
  x.remainder_(Scalar(5));
  expect_int_values(x, ST::kInt8, {4});
  expect_int_values(remainder(Scalar(7), tensor_of(ST::kInt16, {-3, 4})), ST::kInt16, {-2, 3});
}

// ---- pow -------------------------------------------------------------------------------------

TEST(Pow, OfIntegersSquaresAndWrapsAndTruncatesNegativeExponents) {
  for (ST t : signed_integral_dtypes()) {
    Tensor base = int_tensor_of(t, {2, -2, 3, 0, 1, -1, -1, 2});
    Tensor exponent = int_tensor_of(t, {3, 3, 0, 0, -3, -3, -2, -1});
    expect_int_values(pow(base, exponent), t, {8, -8, 1, 1, 1, -1, 1, 0});
  }
  expect_int_values(pow(int_tensor_of(ST::kUInt8, {2, 3, 2}), int_tensor_of(ST::kUInt8, {7, 5, 8})),
                    ST::kUInt8, {128, 243, 0});
  expect_int_values(pow(int_tensor_of(ST::kInt8, {2}), int_tensor_of(ST::kInt8, {7})), ST::kInt8,
                    {-128});
  expect_int_values(pow(int_tensor_of(ST::kInt64, {2, 2}), int_tensor_of(ST::kInt64, {63, 64})),
                    ST::kInt64, {min_of(ST::kInt64), 0});
}

TEST(Pow, OfFloatsFollowsCsPow) {
  for (ST t : floating_dtypes()) {
    Tensor base = tensor_of(t, {2, 4, -8, 0.0, kNan, 1, -2, 0.25});
    Tensor exponent = tensor_of(t, {3, 0.5, 1.0 / 3, -1, 0, kNan, 2, -0.5});
    expect_values(pow(base, exponent), t, {8, 2, kNan, kInf, 1, 1, 4, 2}, tolerance_of(t));
  }
  for (ST t : complex_dtypes()) {
    expect_complex_values(pow(complex_tensor_of(t, {C(0, 1)}), complex_tensor_of(t, {C(2, 0)})), t,
                          {C(-1, 0)}, tolerance_of(t));
  }
  EXPECT_EQ(message_of([&] { pow(tensor_of(ST::kBool, {1}), tensor_of(ST::kBool, {1})); }),
            "\"pow\" not implemented for 'bool'");
}

TEST(PowTensorScalar, UsesExactFormsForCommonExponents) {
  for (ST t : floating_dtypes()) {
    Tensor x = tensor_of(t, {-0.0, 4, -kInf, kNan, 0.25});
    // sqrt, not pow: (-0)^0.5 is -0 and (-inf)^0.5 is NaN, as in PyTorch.
    expect_values(pow(x, 0.5), t, {-0.0, 2, kNan, kNan, 0.5});
    expect_values(pow(x, 0), t, {1, 1, 1, 1, 1});
    expect_values(pow(x, 1), t, {-0.0, 4, -kInf, kNan, 0.25});
    expect_values(pow(x, -1), t, {-kInf, 0.25, -0.0, kNan, 4});
    expect_values(pow(x, 2), t, {0.0, 16, kInf, kNan, 0.0625});
    expect_values(pow(x, 3), t, {-0.0, 64, -kInf, kNan, 0.015625});
    expect_values(pow(x, -2), t, {kInf, 0.0625, 0.0, kNan, 16});
    expect_values(pow(x, -0.5), t, {-kInf, 0.5, kNan, kNan, 2});
    expect_values(pow(tensor_of(t, {2}), 2.5), t, {5.656854249492381}, tolerance_of(t));
  }
  // Exact complex squares, unlike exp(2 log z).
  expect_complex_values(pow(complex_tensor_of(ST::kComplex64, {C(1, 1)}), 2), ST::kComplex64,
                        {C(0, 2)});
}

TEST(PowTensorScalar, PromotesWithTheExponentAsANumber) {
  Tensor ints = tensor_of(ST::kInt32, {2, 3});
  expect_int_values(pow(ints, 2), ST::kInt32, {4, 9});
  expect_values(pow(ints, 0.5), ST::kFloat32, {1.4142135623730951, 1.7320508075688772},
                tolerance_of(ST::kFloat32));
  expect_values(pow(ints, 2.0), ST::kFloat32, {4, 9});
  Tensor flags = tensor_of(ST::kBool, {1, 0});
  expect_values(pow(flags, true), ST::kBool, {1, 0});
  expect_values(pow(flags, false), ST::kBool, {1, 1});
  expect_int_values(pow(flags, 2), ST::kInt64, {1, 0});
}

TEST(PowTensorScalar, NegativeIntegerPowersOfIntegersAndOutOfRangeExponentsAreErrors) {
  EXPECT_EQ(message_of([&] { pow(tensor_of(ST::kInt64, {2}), -1); }),
            "Integers to negative integer powers are not allowed.");
  EXPECT_EQ(message_of([&] { pow(tensor_of(ST::kBool, {1}), -2); }),
            "Integers to negative integer powers are not allowed.");
  EXPECT_EQ(message_of([&] { pow(tensor_of(ST::kInt8, {2}), 300); }),
            "value cannot be converted to type int8_t without overflow");
  Tensor ints = tensor_of(ST::kInt32, {2});
  EXPECT_EQ(message_of([&] { ints.pow_(2.5); }), "Found dtype int32 but expected float32");
}

TEST(PowScalar, RaisesANumberToTensorPowers) {
  expect_int_values(pow(Scalar(2), int_tensor_of(ST::kInt64, {0, 1, 10, -1})), ST::kInt64,
                    {1, 2, 1024, 0});
  expect_values(pow(Scalar(2.0), tensor_of(ST::kInt64, {0, 10, -1})), ST::kFloat32, {1, 1024, 0.5});
  Tensor out = empty({0}, ST::kFloat64, kCpu);
  pow_out(out, Scalar(3), tensor_of(ST::kFloat64, {2, 0.5}));
  expect_values(out, ST::kFloat64, {9, 1.7320508075688772}, tolerance_of(ST::kFloat64));
}

// ---- maximum, atan2, gcd ---------------------------------------------------------------------

// Of equal values, self: torch.maximum(tensor([0.0]), tensor([-0.0])) is 0.0 and
// torch.maximum(tensor([-0.0]), tensor([0.0])) is -0.0 (PyTorch's scalar loop, std::max; its
// vector loop gives the other operand).
TEST(Maximum, PropagatesNanAndTakesTheFirstOfEqualZeros) {
  for (ST t : floating_dtypes()) {
    Tensor a = tensor_of(t, {1, kNan, 2, -0.0, 0.0, -kInf});
    Tensor b = tensor_of(t, {2, 1, kNan, 0.0, -0.0, 5});
    expect_values(maximum(a, b), t, {2, kNan, kNan, -0.0, 0.0, 5});
  }
  for (ST t : integral_dtypes()) {
    expect_int_values(maximum(int_tensor_of(t, {min_of(t), 5}), int_tensor_of(t, {max_of(t), 3})),
                      t, {max_of(t), 5});
  }
  expect_values(maximum(tensor_of(ST::kBool, {0, 1, 0}), tensor_of(ST::kBool, {0, 0, 1})),
                ST::kBool, {0, 1, 1});
  expect_int_values(maximum(tensor_of(ST::kUInt8, {200}), tensor_of(ST::kInt8, {-1})), ST::kInt16,
                    {200});
}

TEST(Maximum, VectorAndScalarPathsAgreeOnNanAndSignedZeros) {
  // 1000 elements: the vectorised loop and its scalar tail both see every pattern.
  std::vector<double> a, b, expected;
  const double patterns[][3] = {{1, 2, 2},         {kNan, 1, kNan},  {1, kNan, kNan},
                                {-0.0, 0.0, -0.0}, {0.0, -0.0, 0.0}, {-3, -4, -3}};
  for (int i = 0; i < 1000; ++i) {
    const double* p = patterns[i % 6];
    a.push_back(p[0]);
    b.push_back(p[1]);
    expected.push_back(p[2]);
  }
  for (ST t : {ST::kFloat32, ST::kFloat64}) {
    expect_values(maximum(tensor_of(t, a), tensor_of(t, b)), t, expected);
  }
}

TEST(Maximum, RejectsComplex) {
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 1)});
  EXPECT_EQ(message_of([&] { maximum(z, tensor_of(ST::kFloat32, {1})); }),
            "maximum not implemented for complex tensors.");
}

TEST(Atan2, GivesTheAngleInEveryQuadrantWithSignedZeros) {
  for (ST t : floating_dtypes()) {
    Tensor y = tensor_of(t, {1, 1, -1, -1, 0.0, -0.0, 0.0, -0.0, kNan});
    Tensor x = tensor_of(t, {1, -1, 1, -1, 0.0, 0.0, -0.0, -0.0, 1});
    expect_values(atan2(y, x), t,
                  {kPi / 4, 3 * kPi / 4, -kPi / 4, -3 * kPi / 4, 0.0, -0.0, kPi, -kPi, kNan},
                  tolerance_of(t));
  }
  expect_values(atan2(tensor_of(ST::kInt32, {1}), tensor_of(ST::kInt32, {0})), ST::kFloat32,
                {kPi / 2}, tolerance_of(ST::kFloat32));
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 1)});
  EXPECT_EQ(message_of([&] { atan2(z, z); }), "\"atan2\" not implemented for 'complex64'");
}

TEST(Gcd, IsNonNegativeExceptForTheMinimum) {
  for (ST t : signed_integral_dtypes()) {
    Tensor a = int_tensor_of(t, {12, -12, 0, 0, 7, min_of(t)});
    Tensor b = int_tensor_of(t, {18, 18, -5, 0, 0, 0});
    expect_int_values(gcd(a, b), t, {6, 6, 5, 0, 7, min_of(t)});
  }
  expect_int_values(gcd(int_tensor_of(ST::kUInt8, {12, 255}), int_tensor_of(ST::kUInt8, {18, 85})),
                    ST::kUInt8, {6, 85});
  EXPECT_EQ(message_of([&] { gcd(tensor_of(ST::kFloat32, {1}), tensor_of(ST::kFloat32, {1})); }),
            "\"gcd\" not implemented for 'float32'");
  EXPECT_EQ(message_of([&] { gcd(tensor_of(ST::kBool, {1}), tensor_of(ST::kBool, {1})); }),
            "\"gcd\" not implemented for 'bool'");
}

// ---- eq, lt, logical_and, bitwise_and --------------------------------------------------------

TEST(Eq, ComparesEveryDtypeWithNanUnequalAndZerosEqual) {
  for (ST t : all_dtypes()) {
    if (is_complex(t)) {
      Tensor a = complex_tensor_of(t, {C(1, 2), C(1, 2), C(kNan, 0), C(-0.0, 0)});
      Tensor b = complex_tensor_of(t, {C(1, 2), C(1, 0), C(kNan, 0), C(0, 0)});
      expect_values(eq(a, b), ST::kBool, {1, 0, 0, 1});
    } else if (is_floating_point(t)) {
      expect_values(eq(tensor_of(t, {1, kNan, -0.0}), tensor_of(t, {1, kNan, 0.0})), ST::kBool,
                    {1, 0, 1});
    } else {
      expect_values(eq(tensor_of(t, {1, 0}), tensor_of(t, {1, 1})), ST::kBool, {1, 0});
    }
  }
}

TEST(Eq, MixedDtypesCompareInTheirCommonDtype) {
  expect_values(eq(tensor_of(ST::kInt32, {1, 2}), tensor_of(ST::kFloat32, {1, 2.5})), ST::kBool,
                {1, 0});
  expect_values(eq(tensor_of(ST::kInt32, {2, 3}), Scalar(2.5)), ST::kBool, {0, 0});
  expect_values(eq(tensor_of(ST::kInt32, {2, 3}), Scalar(2)), ST::kBool, {1, 0});
  expect_values(eq(tensor_of(ST::kUInt8, {255}), tensor_of(ST::kInt8, {-1})), ST::kBool, {0});
}

TEST(Eq, InPlaceAndOutWriteOnesAndZerosInTheirDtype) {
  Tensor x = tensor_of(ST::kFloat32, {1, 2});
  x.eq_(tensor_of(ST::kFloat32, {1, 3}));
  expect_values(x, ST::kFloat32, {1, 0});
  Tensor out = empty({2}, ST::kInt64, kCpu);
  eq_out(out, tensor_of(ST::kInt32, {4, 5}), Scalar(5));
  expect_int_values(out, ST::kInt64, {0, 1});
  Tensor y = tensor_of(ST::kInt8, {3, 4});
  y.eq_(Scalar(4));
  expect_int_values(y, ST::kInt8, {0, 1});
}

TEST(Lt, IsFalseForNanAndComparesMixedDtypesExactly) {
  for (ST t : floating_dtypes()) {
    expect_values(lt(tensor_of(t, {1, kNan, 2, -0.0}), tensor_of(t, {2, 1, kNan, 0.0})), ST::kBool,
                  {1, 0, 0, 0});
  }
  for (ST t : integral_dtypes()) {
    expect_values(lt(int_tensor_of(t, {min_of(t), max_of(t)}), int_tensor_of(t, {0, 0})), ST::kBool,
                  {min_of(t) < 0 ? 1.0 : 0.0, 0});
  }
  expect_values(lt(tensor_of(ST::kBool, {0, 1}), tensor_of(ST::kBool, {1, 1})), ST::kBool, {1, 0});
  expect_values(lt(tensor_of(ST::kInt32, {2, 3}), Scalar(2.5)), ST::kBool, {1, 0});
  Tensor out = empty({0}, ST::kBool, kCpu);
  lt_out(out, tensor_of(ST::kFloat64, {1, 5}), Scalar(3));
  expect_values(out, ST::kBool, {1, 0});
  Tensor z = complex_tensor_of(ST::kComplex64, {C(1, 1)});
  EXPECT_EQ(message_of([&] { lt(z, z); }), "\"lt\" not implemented for 'complex64'");
}

TEST(LogicalAnd, TreatsNonZeroAsTrueForEveryDtype) {
  for (ST t : all_dtypes()) {
    if (is_complex(t)) {
      expect_values(logical_and(complex_tensor_of(t, {C(0, 1), C(0, 0)}),
                                complex_tensor_of(t, {C(2, 0), C(1, 1)})),
                    ST::kBool, {1, 0});
    } else if (is_floating_point(t)) {
      expect_values(logical_and(tensor_of(t, {kNan, -0.0, 2}), tensor_of(t, {1, 1, 0.5})),
                    ST::kBool, {1, 0, 1});
    } else {
      expect_values(logical_and(tensor_of(t, {0, 1, 1}), tensor_of(t, {1, 1, 0})), ST::kBool,
                    {0, 1, 0});
    }
  }
  Tensor x = tensor_of(ST::kFloat32, {0, 2});
  x.logical_and_(tensor_of(ST::kInt64, {1, 1}));
  expect_values(x, ST::kFloat32, {0, 1});
}

TEST(BitwiseAnd, AndsBitsOfIntegersAndBool) {
  for (ST t : signed_integral_dtypes()) {
    expect_int_values(
        bitwise_and(int_tensor_of(t, {12, -1, min_of(t)}), int_tensor_of(t, {10, 7, -1})), t,
        {8, 7, min_of(t)});
  }
  expect_int_values(
      bitwise_and(int_tensor_of(ST::kUInt8, {255, 12}), int_tensor_of(ST::kUInt8, {15, 10})),
      ST::kUInt8, {15, 8});
  expect_values(bitwise_and(tensor_of(ST::kBool, {1, 1}), tensor_of(ST::kBool, {1, 0})), ST::kBool,
                {1, 0});
  expect_int_values(bitwise_and(tensor_of(ST::kInt16, {7}), Scalar(6)), ST::kInt16, {6});
  expect_values(bitwise_and(tensor_of(ST::kBool, {1, 0}), Scalar(true)), ST::kBool, {1, 0});
  expect_int_values(bitwise_and(Scalar(12), tensor_of(ST::kUInt8, {10})), ST::kUInt8, {8});
  Tensor out = empty({0}, ST::kInt64, kCpu);
  bitwise_and_out(out, tensor_of(ST::kInt64, {5}), Scalar(3));
  expect_int_values(out, ST::kInt64, {1});
  EXPECT_EQ(message_of([&] { bitwise_and(tensor_of(ST::kFloat32, {1}), Scalar(1)); }),
            "\"bitwise_and\" not implemented for 'float32'");
}

// ---- Every op: variants, Meta, broadcasting --------------------------------------------------

struct BinaryOp {
  std::string name;
  ST dtype;  // of both inputs
  std::function<Tensor(const Tensor&, const Tensor&)> functional;
  std::function<void(Tensor&, const Tensor&)> inplace;  // empty: PyTorch has none
  std::function<void(Tensor&, const Tensor&, const Tensor&)> out;
};

std::vector<BinaryOp> binary_ops() {
  using T = const Tensor&;
  return {
      {"add", ST::kInt32, [](T a, T b) { return add(a, b, 2); },
       [](Tensor& a, T b) { a.add_(b, 2); }, [](Tensor& o, T a, T b) { add_out(o, a, b, 2); }},
      {"sub", ST::kFloat32, [](T a, T b) { return sub(a, b); }, [](Tensor& a, T b) { a.sub_(b); },
       [](Tensor& o, T a, T b) { sub_out(o, a, b); }},
      {"mul", ST::kFloat16, [](T a, T b) { return mul(a, b); }, [](Tensor& a, T b) { a.mul_(b); },
       [](Tensor& o, T a, T b) { mul_out(o, a, b); }},
      {"div", ST::kFloat64, [](T a, T b) { return div(a, b); }, [](Tensor& a, T b) { a.div_(b); },
       [](Tensor& o, T a, T b) { div_out(o, a, b); }},
      {"div_floor", ST::kInt64, [](T a, T b) { return div(a, b, "floor"); },
       [](Tensor& a, T b) { a.div_(b, "floor"); },
       [](Tensor& o, T a, T b) { div_out(o, a, b, "floor"); }},
      {"div_trunc", ST::kFloat32, [](T a, T b) { return div(a, b, "trunc"); },
       [](Tensor& a, T b) { a.div_(b, "trunc"); },
       [](Tensor& o, T a, T b) { div_out(o, a, b, "trunc"); }},
      {"remainder", ST::kInt16, [](T a, T b) { return remainder(a, b); },
       [](Tensor& a, T b) { a.remainder_(b); },
       [](Tensor& o, T a, T b) { remainder_out(o, a, b); }},
      {"pow", ST::kBFloat16, [](T a, T b) { return pow(a, b); }, [](Tensor& a, T b) { a.pow_(b); },
       [](Tensor& o, T a, T b) { pow_out(o, a, b); }},
      {"maximum", ST::kFloat32, [](T a, T b) { return maximum(a, b); }, nullptr,
       [](Tensor& o, T a, T b) { maximum_out(o, a, b); }},
      {"atan2", ST::kFloat64, [](T a, T b) { return atan2(a, b); },
       [](Tensor& a, T b) { a.atan2_(b); }, [](Tensor& o, T a, T b) { atan2_out(o, a, b); }},
      {"gcd", ST::kInt32, [](T a, T b) { return gcd(a, b); }, [](Tensor& a, T b) { a.gcd_(b); },
       [](Tensor& o, T a, T b) { gcd_out(o, a, b); }},
      {"eq", ST::kFloat32, [](T a, T b) { return eq(a, b); }, [](Tensor& a, T b) { a.eq_(b); },
       [](Tensor& o, T a, T b) { eq_out(o, a, b); }},
      {"lt", ST::kInt8, [](T a, T b) { return lt(a, b); }, [](Tensor& a, T b) { a.lt_(b); },
       [](Tensor& o, T a, T b) { lt_out(o, a, b); }},
      {"logical_and", ST::kBool, [](T a, T b) { return logical_and(a, b); },
       [](Tensor& a, T b) { a.logical_and_(b); },
       [](Tensor& o, T a, T b) { logical_and_out(o, a, b); }},
      {"bitwise_and", ST::kUInt8, [](T a, T b) { return bitwise_and(a, b); },
       [](Tensor& a, T b) { a.bitwise_and_(b); },
       [](Tensor& o, T a, T b) { bitwise_and_out(o, a, b); }},
  };
}

// Inputs of shape [2, 3] (transposed storage) and [3] (broadcast), with no zero divisors.
Tensor left_input(ST dtype, Device device) {
  Tensor x = empty_strided({2, 3}, {1, 2}, dtype, device);
  if (device.is_cpu()) copy_(x, tensor_of(dtype, {6, 2, 3, 5, 1, 4}, {2, 3}));
  return x;
}
Tensor right_input(ST dtype, Device device) {
  Tensor x = empty({3}, dtype, device);
  if (device.is_cpu()) copy_(x, tensor_of(dtype, {2, 3, 1}));
  return x;
}

// Long enough for the vector loops (with a tail), with NaNs and equal elements: every comparison
// into a bool tensor (masks stored as bools), in place into the inputs' dtype (1 / 0) and on
// strided views (the scalar loop) agrees with the element-wise definition.
TEST(Comparisons, VectorAndScalarLoopsAgreeIntoBoolAndIntoTheInputsDtype) {
  using Cmp = std::function<Tensor(const Tensor&, const Tensor&)>;
  using InPlace = std::function<void(Tensor&, const Tensor&)>;
  const std::vector<std::tuple<std::string, Cmp, InPlace, std::function<bool(double, double)>>>
      ops = {
          {"eq", [](auto& a, auto& b) { return eq(a, b); }, [](auto& a, auto& b) { a.eq_(b); },
           [](double x, double y) { return x == y; }},
          {"ne", [](auto& a, auto& b) { return ne(a, b); }, [](auto& a, auto& b) { a.ne_(b); },
           [](double x, double y) { return x != y; }},
          {"lt", [](auto& a, auto& b) { return lt(a, b); }, [](auto& a, auto& b) { a.lt_(b); },
           [](double x, double y) { return x < y; }},
          {"le", [](auto& a, auto& b) { return le(a, b); }, [](auto& a, auto& b) { a.le_(b); },
           [](double x, double y) { return x <= y; }},
          {"gt", [](auto& a, auto& b) { return gt(a, b); }, [](auto& a, auto& b) { a.gt_(b); },
           [](double x, double y) { return x > y; }},
          {"ge", [](auto& a, auto& b) { return ge(a, b); }, [](auto& a, auto& b) { a.ge_(b); },
           [](double x, double y) { return x >= y; }},
      };
  for (ST t :
       {ST::kUInt8, ST::kInt8, ST::kInt16, ST::kInt32, ST::kInt64, ST::kFloat32, ST::kFloat64}) {
    std::vector<double> va, vb;
    for (int i = 0; i < 2 * 67; ++i) {
      va.push_back(i % 5);
      vb.push_back(i % 3 == 0 ? i % 5 : (i * 7) % 5);
    }
    if (is_floating_point(t)) va[3] = vb[3] = vb[40] = kNan;
    const Tensor a = tensor_of(t, va), b = tensor_of(t, vb);
    for (const auto& [name, fn, fn_, ref] : ops) {
      SCOPED_TRACE(name + " " + std::string(scalar_type_name(t)));
      std::vector<double> expected;
      for (size_t i = 0; i < va.size(); ++i) expected.push_back(ref(va[i], vb[i]) ? 1 : 0);
      expect_values(fn(a, b), ST::kBool, expected);
      Tensor x = a.clone();
      fn_(x, b);
      expect_values(x, t, expected);
      std::vector<double> every_other;
      for (size_t i = 0; i < expected.size(); i += 2) every_other.push_back(expected[i]);
      const Tensor sa = slice(a, 0, 0, std::nullopt, 2), sb = slice(b, 0, 0, std::nullopt, 2);
      expect_values(fn(sa, sb), ST::kBool, every_other);
      expect_values(fn(a, zero_dim(t, 2)), ST::kBool, [&] {
        std::vector<double> e;
        for (double v : va) e.push_back(ref(v, 2) ? 1 : 0);
        return e;
      }());
    }
  }
}

TEST(Ne, ComplexNumbersDifferInEitherPart) {
  const Tensor a = complex_tensor_of(ST::kComplex128, {C(1, 2), C(1, 3), C(kNan, 0), C(-0.0, 0)});
  const Tensor b = complex_tensor_of(ST::kComplex128, {C(1, 2), C(1, 2), C(kNan, 0), C(0, 0)});
  expect_values(ne(a, b), ST::kBool, {0, 1, 1, 0});
  Tensor x = a.clone();
  x.ne_(b);
  expect_complex_values(x, ST::kComplex128, {C(0, 0), C(1, 0), C(1, 0), C(0, 0)});
  EXPECT_EQ(message_of([&] { le(a, b); }), "\"le\" not implemented for 'complex128'");
}

TEST(LogicalOrAndXor, TreatNonZeroAsTrue) {
  expect_values(
      logical_or(tensor_of(ST::kFloat32, {0, kNan, 0, -0.0}), tensor_of(ST::kInt8, {0, 0, 3, 0})),
      ST::kBool, {0, 1, 1, 0});
  expect_values(
      logical_xor(tensor_of(ST::kFloat32, {0, kNan, 2, -0.0}), tensor_of(ST::kInt8, {0, 0, 3, 1})),
      ST::kBool, {0, 1, 0, 1});
  Tensor x = complex_tensor_of(ST::kComplex64, {C(0, 1), C(0, 0)});
  x.logical_xor_(tensor_of(ST::kBool, {1, 1}));
  expect_complex_values(x, ST::kComplex64, {C(0, 0), C(1, 0)});
}

TEST(BitwiseOrAndXor, CombineBitsOfIntegersAndBoolWithEveryOverload) {
  for (ST t : signed_integral_dtypes()) {
    expect_int_values(
        bitwise_or(int_tensor_of(t, {12, 0, min_of(t)}), int_tensor_of(t, {3, -1, 1})), t,
        {15, -1, min_of(t) + 1});
    expect_int_values(
        bitwise_xor(int_tensor_of(t, {12, -1, min_of(t)}), int_tensor_of(t, {10, 7, -1})), t,
        {6, -8, max_of(t)});
  }
  expect_values(bitwise_xor(tensor_of(ST::kBool, {1, 1, 0}), tensor_of(ST::kBool, {1, 0, 0})),
                ST::kBool, {0, 1, 0});
  expect_values(bitwise_or(tensor_of(ST::kBool, {1, 0}), Scalar(false)), ST::kBool, {1, 0});
  // uint8 and int8 promote to int16.
  expect_int_values(bitwise_xor(int_tensor_of(ST::kUInt8, {255}), int_tensor_of(ST::kInt8, {-1})),
                    ST::kInt16, {-256});
  expect_int_values(bitwise_xor(Scalar(5), int_tensor_of(ST::kUInt8, {3})), ST::kUInt8, {6});
  Tensor out = empty({0}, ST::kInt64, kCpu);
  bitwise_or_out(out, Scalar(8), int_tensor_of(ST::kInt32, {1}));
  expect_int_values(out, ST::kInt64, {9});
  // 1000 elements: the vector loop and its tail.
  std::vector<int64_t> va, vb, expected;
  for (int64_t i = 0; i < 1000; ++i) {
    va.push_back(i * 7919 % 1000 - 500);
    vb.push_back(i - 300);
    expected.push_back(va.back() ^ vb.back());
  }
  expect_int_values(bitwise_xor(int_tensor_of(ST::kInt32, va), int_tensor_of(ST::kInt32, vb)),
                    ST::kInt32, expected);
  EXPECT_EQ(message_of([&] { bitwise_or(tensor_of(ST::kFloat32, {1}), Scalar(1)); }),
            "\"bitwise_or\" not implemented for 'float32'");
}

// As PyTorch 1.13's CPU kernels on x86: the amount modulo 32 (int64: 64); narrower types shift
// as 32-bit integers.
TEST(Shifts, TakeTheAmountModuloTheWidthAndShiftNarrowTypesAsInt32) {
  expect_int_values(bitwise_left_shift(int_tensor_of(ST::kInt8, {1, 1, 1, 1, -1, 3}),
                                       int_tensor_of(ST::kInt8, {7, 8, 33, -1, 2, 0})),
                    ST::kInt8, {-128, 0, 2, 0, -4, 3});
  expect_int_values(bitwise_left_shift(int_tensor_of(ST::kInt32, {1, 1, 3}),
                                       int_tensor_of(ST::kInt32, {-1, 32, 33})),
                    ST::kInt32, {min_of(ST::kInt32), 1, 6});
  expect_int_values(bitwise_left_shift(int_tensor_of(ST::kInt64, {1, 1, 1}),
                                       int_tensor_of(ST::kInt64, {63, 64, -1})),
                    ST::kInt64, {min_of(ST::kInt64), 1, min_of(ST::kInt64)});
  expect_int_values(bitwise_right_shift(int_tensor_of(ST::kInt8, {-128, -128, -128, 64}),
                                        int_tensor_of(ST::kInt8, {9, 32, 33, 7})),
                    ST::kInt8, {-1, -128, -64, 0});
  expect_int_values(bitwise_right_shift(int_tensor_of(ST::kUInt8, {255, 255, 255}),
                                        int_tensor_of(ST::kUInt8, {33, 8, 255})),
                    ST::kUInt8, {127, 0, 0});
  expect_int_values(bitwise_right_shift(int_tensor_of(ST::kInt64, {-128, -128, 1}),
                                        int_tensor_of(ST::kInt64, {32, 64, -1})),
                    ST::kInt64, {-1, -128, 0});
  expect_int_values(bitwise_left_shift(Scalar(1), int_tensor_of(ST::kInt16, {3, 16})), ST::kInt16,
                    {8, 0});
  Tensor x = int_tensor_of(ST::kInt32, {-8});
  x.bitwise_right_shift_(Scalar(1));
  expect_int_values(x, ST::kInt32, {-4});
  EXPECT_EQ(message_of([&] { bitwise_left_shift(tensor_of(ST::kFloat32, {1}), Scalar(1)); }),
            "\"bitwise_left_shift\" not implemented for 'float32'");
  EXPECT_EQ(message_of([&] { bitwise_right_shift(tensor_of(ST::kBool, {1}), Scalar(true)); }),
            "\"bitwise_right_shift\" not implemented for 'bool'");
}

TEST(BinaryOps, FunctionalInPlaceAndOutVariantsAgree) {
  for (const BinaryOp& op : binary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor a = left_input(op.dtype, kCpu);
    Tensor b = right_input(op.dtype, kCpu);
    Tensor expected = op.functional(a, b);
    EXPECT_EQ(expected.sizes(), (std::vector<int64_t>{2, 3}));
    Tensor out = empty({0}, expected.dtype(), kCpu);
    op.out(out, a, b);
    expect_same(out, expected);
    if (op.inplace && expected.dtype() == op.dtype) {
      Tensor self = clone(a);
      op.inplace(self, b);
      expect_same(self, expected);
    }
  }
}

TEST(BinaryOps, MetaGivesTheSameSizesStridesAndDtypeAsCpu) {
  for (const BinaryOp& op : binary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor cpu = op.functional(left_input(op.dtype, kCpu), right_input(op.dtype, kCpu));
    Tensor meta = op.functional(left_input(op.dtype, kMeta), right_input(op.dtype, kMeta));
    EXPECT_EQ(meta.device(), kMeta);
    expect_same_geometry(meta, cpu);
  }
}

TEST(BinaryOps, BroadcastingAndLayoutsDoNotChangeValues) {
  for (const BinaryOp& op : binary_ops()) {
    SCOPED_TRACE(op.name);
    Tensor a = left_input(op.dtype, kCpu);
    Tensor b = right_input(op.dtype, kCpu);
    Tensor dense_b = clone(native::expand(b, {2, 3}), MemoryFormat::kContiguous);
    expect_same(op.functional(a, b), op.functional(clone(a, MemoryFormat::kContiguous), dense_b));
  }
}

TEST(BinaryOps, InPlaceCannotBroadcastSelf) {
  Tensor self = tensor_of(ST::kFloat32, {1, 2, 3});
  Tensor other = tensor_of(ST::kFloat32, {1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(message_of([&] { self.atan2_(other); }),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

}  // namespace
}  // namespace bp
