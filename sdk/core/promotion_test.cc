// Tests of promote_types, can_cast and result_type against PyTorch's tables and behaviour.
#include "sdk/core/promotion.h"

#include <array>

#include "gtest/gtest.h"

namespace bp {
namespace {

using ST = ScalarType;
constexpr ST b1 = ST::kBool, u1 = ST::kUInt8, i1 = ST::kInt8, i2 = ST::kInt16, i4 = ST::kInt32,
             i8 = ST::kInt64, f2 = ST::kFloat16, bf = ST::kBFloat16, f4 = ST::kFloat32,
             f8 = ST::kFloat64, c4 = ST::kComplex64, c8 = ST::kComplex128;

// PyTorch's _promoteTypesLookup (c10/core/ScalarType.cpp) restricted to Backplane's dtypes, rows
// and columns in Backplane's code order.
constexpr std::array<std::array<ST, kNumScalarTypes>, kNumScalarTypes> kPromoteTable = {{
    /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8  c4  c8 */
    /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8, c4, c8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c4, c8},
    /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c4, c8},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c4, c8},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8},
    /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c8},
    /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
}};

// PyTorch's canCast, from (rows) -> to (columns): 1 where allowed.
constexpr std::array<const char*, kNumScalarTypes> kCanCastTable = {
    /*         b1 u1 i1 i2 i4 i8 f2 bf f4 f8 c4 c8 */
    /* b1 */ "111111111111",
    /* u1 */ "011111111111",
    /* i1 */ "011111111111",
    /* i2 */ "011111111111",
    /* i4 */ "011111111111",
    /* i8 */ "011111111111",
    /* f2 */ "000000111111",
    /* bf */ "000000111111",
    /* f4 */ "000000111111",
    /* f8 */ "000000111111",
    /* c4 */ "000000000011",
    /* c8 */ "000000000011",
};

TEST(PromoteTypes, MatchesPyTorchsTableForEveryPair) {
  for (int a = 0; a < kNumScalarTypes; ++a) {
    for (int b = 0; b < kNumScalarTypes; ++b) {
      EXPECT_EQ(promote_types(static_cast<ST>(a), static_cast<ST>(b)), kPromoteTable[a][b])
          << static_cast<ST>(a) << " with " << static_cast<ST>(b);
    }
  }
}

TEST(PromoteTypes, IsSymmetricAndIdempotent) {
  for (int a = 0; a < kNumScalarTypes; ++a) {
    EXPECT_EQ(kPromoteTable[a][a], static_cast<ST>(a));
    for (int b = 0; b < kNumScalarTypes; ++b) EXPECT_EQ(kPromoteTable[a][b], kPromoteTable[b][a]);
  }
}

TEST(CanCast, MatchesPyTorchsRulesForEveryPair) {
  for (int from = 0; from < kNumScalarTypes; ++from) {
    for (int to = 0; to < kNumScalarTypes; ++to) {
      EXPECT_EQ(can_cast(static_cast<ST>(from), static_cast<ST>(to)),
                kCanCastTable[from][to] == '1')
          << static_cast<ST>(from) << " -> " << static_cast<ST>(to);
    }
  }
}

TEST(DefaultDtype, IsFloat32AndComplex64) {
  EXPECT_EQ(default_dtype(), f4);
  EXPECT_EQ(default_complex_dtype(), c4);
}

TEST(ToComplexType, KeepsTheComponentPrecision) {
  EXPECT_EQ(to_complex_type(f4), c4);
  EXPECT_EQ(to_complex_type(f8), c8);
  EXPECT_EQ(to_complex_type(bf), c4);  // bfloat16 has float32's range (PyTorch 1.13's rule).
  EXPECT_EQ(to_complex_type(f2), c4);  // PyTorch: complex32, which Backplane lacks.
  EXPECT_EQ(to_complex_type(c8), c8);
  try {
    to_complex_type(i4);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "Unknown Complex ScalarType for int32");
  }
}

TEST(ToRealType, GivesTheComponentDtypeOfComplexDtypes) {
  EXPECT_EQ(to_real_type(c4), f4);
  EXPECT_EQ(to_real_type(c8), f8);
  for (ST t : {b1, u1, i8, f2, bf, f4, f8}) EXPECT_EQ(to_real_type(t), t);
}

// result_type of operands given as (dtype, kind) pairs, in order.
ST result_of(std::initializer_list<std::pair<ST, OperandKind>> operands) {
  ResultTypeState state;
  for (const auto& [dtype, kind] : operands) update_result_type_state(state, dtype, kind);
  return result_type(state);
}

constexpr OperandKind kTensor = OperandKind::kTensor;
constexpr OperandKind kZeroDim = OperandKind::kZeroDimTensor;
constexpr OperandKind kWrapped = OperandKind::kWrappedScalar;

TEST(ResultType, PromotesTensorsWithDimensionsLikePromoteTypes) {
  EXPECT_EQ(result_of({{u1, kTensor}, {i1, kTensor}}), i2);
  EXPECT_EQ(result_of({{f2, kTensor}, {bf, kTensor}}), f4);
  EXPECT_EQ(result_of({{i4, kTensor}, {f2, kTensor}, {u1, kTensor}}), f2);
  EXPECT_EQ(result_of({{f4, kTensor}}), f4);
}

TEST(ResultType, ZeroDimTensorOfHigherCategoryWinsWithItsOwnDtype) {
  // torch.tensor([1], dtype=int32) + torch.tensor(1.0, dtype=float64) -> float64.
  EXPECT_EQ(result_of({{i4, kTensor}, {f8, kZeroDim}}), f8);
  EXPECT_EQ(result_of({{i4, kTensor}, {c8, kZeroDim}}), c8);
  EXPECT_EQ(result_of({{b1, kTensor}, {i8, kZeroDim}}), i8);
}

TEST(ResultType, ZeroDimTensorOfSameOrLowerCategoryDoesNotWiden) {
  EXPECT_EQ(result_of({{i4, kTensor}, {i8, kZeroDim}}), i4);
  EXPECT_EQ(result_of({{f2, kTensor}, {f8, kZeroDim}}), f2);
  EXPECT_EQ(result_of({{f4, kTensor}, {i8, kZeroDim}}), f4);
  EXPECT_EQ(result_of({{u1, kTensor}, {i1, kZeroDim}}), u1);
}

TEST(ResultType, FloatingTensorMeetingComplexZeroDimKeepsItsPrecision) {
  EXPECT_EQ(result_of({{f8, kTensor}, {c4, kZeroDim}}), c8);
  EXPECT_EQ(result_of({{f4, kTensor}, {c8, kZeroDim}}), c4);
}

TEST(ResultType, ZeroDimTensorsAloneBehaveLikeTensors) {
  EXPECT_EQ(result_of({{i4, kZeroDim}, {f8, kZeroDim}}), f8);
  EXPECT_EQ(result_of({{u1, kZeroDim}, {i1, kZeroDim}}), i2);
  EXPECT_EQ(result_of({{i4, kZeroDim}, {f8, kWrapped}}), f4);  // Wrapped float is default_dtype.
}

TEST(ResultType, WrappedNumbersCountByCategoryOnly) {
  EXPECT_EQ(result_type(i1, Scalar(1)), i1);
  EXPECT_EQ(result_type(i1, Scalar(1.5)), f4);
  EXPECT_EQ(result_type(f2, Scalar(1.5)), f2);
  EXPECT_EQ(result_type(bf, Scalar(1e30)), bf);
  EXPECT_EQ(result_type(f8, Scalar(1.5)), f8);
  EXPECT_EQ(result_type(f4, Scalar(complex<double>(0, 1))), c4);
  EXPECT_EQ(result_type(f8, Scalar(complex<double>(0, 1))), c8);
  EXPECT_EQ(result_type(f2, Scalar(complex<double>(0, 1))), c4);  // PyTorch: complex32.
  EXPECT_EQ(result_type(i8, Scalar(complex<double>(0, 1))), c4);
  EXPECT_EQ(result_type(c8, Scalar(1.5)), c8);
  EXPECT_EQ(result_type(b1, Scalar(true)), b1);
  EXPECT_EQ(result_type(b1, Scalar(1)), i8);
  EXPECT_EQ(result_type(b1, Scalar(1.5)), f4);
  EXPECT_EQ(result_type(u1, Scalar(true)), u1);
  EXPECT_EQ(result_type(u1, Scalar(-1)), u1);
}

TEST(ResultType, BFloat16MeetingAComplexNumberOrZeroDimTensorIsComplex64) {
  // torch.result_type(bfloat16 tensor, 1j) and with a complex128 zero-dim tensor: complex64.
  EXPECT_EQ(result_type(bf, Scalar(complex<double>(0, 1))), c4);
  EXPECT_EQ(result_of({{bf, kTensor}, {c8, kZeroDim}}), c4);
  EXPECT_EQ(result_of({{bf, kTensor}, {c4, kTensor}}), c4);
  EXPECT_EQ(result_of({{bf, kTensor}, {c8, kTensor}}), c8);
  // float16 keeps its own rule: PyTorch gives complex32, Backplane complex64.
  EXPECT_EQ(result_of({{f2, kTensor}, {c8, kZeroDim}}), c4);
}

TEST(ResultType, TensorsOutrankZeroDimTensorsOutrankWrappedNumbers) {
  // int8 tensor, zero-dim int64, wrapped float: the wrapped float is of a higher category than
  // both, so it joins as float32.
  EXPECT_EQ(result_of({{i1, kTensor}, {i8, kZeroDim}, {f8, kWrapped}}), f4);
  // A zero-dim float64 outranks the wrapped float.
  EXPECT_EQ(result_of({{i1, kTensor}, {f8, kZeroDim}, {f8, kWrapped}}), f8);
  // Wrapped complex with a zero-dim float64 and an integer tensor: complex128.
  EXPECT_EQ(result_of({{i4, kTensor}, {f8, kZeroDim}, {c8, kWrapped}}), c8);
  // Wrapped numbers alone promote among themselves.
  EXPECT_EQ(result_of({{i8, kWrapped}, {f8, kWrapped}}), f4);
  EXPECT_EQ(result_of({{b1, kWrapped}, {b1, kWrapped}}), b1);
}

TEST(ResultType, NoOperandsIsAnInternalError) {
  try {
    result_type(ResultTypeState{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
  }
}

}  // namespace
}  // namespace bp
