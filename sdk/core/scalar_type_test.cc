// Tests of the dtype table, names, categories, DLPack codes and visit_dtype.
#include "sdk/core/scalar_type.h"

#include <sstream>
#include <string>
#include <typeinfo>

#include "gtest/gtest.h"

namespace bp {
namespace {

using ST = ScalarType;

TEST(ScalarType, TableIsIndexedByCode) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    EXPECT_EQ(index_of(kScalarTypeInfos[i].type), i);
  }
}

TEST(ScalarType, ElementSizesMatchTheCppTypes) {
  const size_t expected[kNumScalarTypes] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ST t = static_cast<ST>(i);
    EXPECT_EQ(element_size(t), expected[i]) << t;
    visit_dtype(t, [&](auto tag) { EXPECT_EQ(sizeof(typename decltype(tag)::type), expected[i]); });
  }
}

TEST(ScalarType, NamesArePyTorchDtypeNames) {
  const char* expected[kNumScalarTypes] = {"bool",    "uint8",   "int8",      "int16",
                                           "int32",   "int64",   "float16",   "bfloat16",
                                           "float32", "float64", "complex64", "complex128"};
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ST t = static_cast<ST>(i);
    EXPECT_EQ(scalar_type_name(t), expected[i]);
    std::ostringstream out;
    out << t;
    EXPECT_EQ(out.str(), expected[i]);
  }
}

TEST(ScalarType, PrintsInvalidCodesWithoutReadingOutOfBounds) {
  std::ostringstream out;
  out << static_cast<ST>(42);
  EXPECT_EQ(out.str(), "ScalarType(42)");
}

TEST(ScalarType, CategoriesPartitionTheDtypes) {
  EXPECT_TRUE(is_bool(ST::kBool));
  EXPECT_FALSE(is_integral(ST::kBool, false));
  EXPECT_TRUE(is_integral(ST::kBool, true));
  for (ST t : {ST::kUInt8, ST::kInt8, ST::kInt16, ST::kInt32, ST::kInt64}) {
    EXPECT_TRUE(is_integral(t, false)) << t;
    EXPECT_FALSE(is_floating_point(t)) << t;
    EXPECT_FALSE(is_complex(t)) << t;
  }
  for (ST t : {ST::kFloat16, ST::kBFloat16, ST::kFloat32, ST::kFloat64}) {
    EXPECT_TRUE(is_floating_point(t)) << t;
    EXPECT_FALSE(is_integral(t, true)) << t;
    EXPECT_FALSE(is_complex(t)) << t;
  }
  for (ST t : {ST::kComplex64, ST::kComplex128}) {
    EXPECT_TRUE(is_complex(t)) << t;
    EXPECT_FALSE(is_floating_point(t)) << t;
  }
  EXPECT_TRUE(is_reduced_floating_point(ST::kFloat16));
  EXPECT_TRUE(is_reduced_floating_point(ST::kBFloat16));
  EXPECT_FALSE(is_reduced_floating_point(ST::kFloat32));
  EXPECT_FALSE(is_signed(ST::kBool));
  EXPECT_FALSE(is_signed(ST::kUInt8));
  EXPECT_TRUE(is_signed(ST::kInt8));
  EXPECT_TRUE(is_signed(ST::kBFloat16));
  EXPECT_TRUE(is_signed(ST::kComplex64));
}

TEST(ScalarType, CategoryMasksHoldTheCategorysDtypes) {
  EXPECT_EQ(scalar_type_mask(ScalarCategory::kBool), scalar_type_mask(ST::kBool));
  EXPECT_EQ(scalar_type_mask(ScalarCategory::kIntegral),
            scalar_type_mask(ST::kUInt8) | scalar_type_mask(ST::kInt8) |
                scalar_type_mask(ST::kInt16) | scalar_type_mask(ST::kInt32) |
                scalar_type_mask(ST::kInt64));
  EXPECT_EQ(scalar_type_mask(ScalarCategory::kFloating),
            scalar_type_mask(ST::kFloat16) | scalar_type_mask(ST::kBFloat16) |
                scalar_type_mask(ST::kFloat32) | scalar_type_mask(ST::kFloat64));
  EXPECT_EQ(scalar_type_mask(ScalarCategory::kComplex),
            scalar_type_mask(ST::kComplex64) | scalar_type_mask(ST::kComplex128));
}

TEST(ScalarType, VisitDtypeCallsWithTheMatchingCppType) {
  const std::type_info* expected[kNumScalarTypes] = {
      &typeid(bool),    &typeid(uint8_t), &typeid(int8_t),         &typeid(int16_t),
      &typeid(int32_t), &typeid(int64_t), &typeid(Half),           &typeid(BFloat16),
      &typeid(float),   &typeid(double),  &typeid(complex<float>), &typeid(complex<double>)};
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ST t = static_cast<ST>(i);
    const std::type_info& got = visit_dtype(
        t, [](auto tag) -> const std::type_info& { return typeid(typename decltype(tag)::type); });
    EXPECT_EQ(got, *expected[i]) << t;
    // And scalar_type_of maps the C++ type back to the same dtype.
    const ST back =
        visit_dtype(t, [](auto tag) { return scalar_type_of<typename decltype(tag)::type>; });
    EXPECT_EQ(back, t);
  }
}

TEST(ScalarType, VisitDtypeRejectsInvalidCodesAsInternalError) {
  try {
    visit_dtype(static_cast<ST>(12), [](auto) {});
    FAIL() << "expected an internal error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
  }
}

TEST(ScalarType, CppTypeMapIsCompileTime) {
  static_assert(std::is_same_v<cpp_type_t<ST::kFloat16>, Half>);
  static_assert(std::is_same_v<cpp_type_t<ST::kComplex128>, complex<double>>);
  static_assert(scalar_type_of<uint8_t> == ST::kUInt8);
  static_assert(scalar_type_of<BFloat16> == ST::kBFloat16);
  static_assert(scalar_type_of<complex<float>> == ST::kComplex64);
  SUCCEED();
}

TEST(ScalarType, ParsesCanonicalNames) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ST t = static_cast<ST>(i);
    EXPECT_EQ(scalar_type_from_name(scalar_type_name(t)), t);
  }
}

TEST(ScalarType, ParsesPyTorchAliases) {
  EXPECT_EQ(scalar_type_from_name("half"), ST::kFloat16);
  EXPECT_EQ(scalar_type_from_name("float"), ST::kFloat32);
  EXPECT_EQ(scalar_type_from_name("double"), ST::kFloat64);
  EXPECT_EQ(scalar_type_from_name("short"), ST::kInt16);
  EXPECT_EQ(scalar_type_from_name("int"), ST::kInt32);
  EXPECT_EQ(scalar_type_from_name("long"), ST::kInt64);
  EXPECT_EQ(scalar_type_from_name("cfloat"), ST::kComplex64);
  EXPECT_EQ(scalar_type_from_name("cdouble"), ST::kComplex128);
}

TEST(ScalarType, RejectsUnknownNames) {
  EXPECT_EQ(scalar_type_from_name(""), std::nullopt);
  EXPECT_EQ(scalar_type_from_name("Float"), std::nullopt);  // Names are case-sensitive.
  EXPECT_EQ(scalar_type_from_name("torch.float32"), std::nullopt);
  EXPECT_EQ(scalar_type_from_name("complex32"), std::nullopt);
  EXPECT_EQ(scalar_type_from_name("uint16"), std::nullopt);
  EXPECT_EQ(scalar_type_from_name("byte"), std::nullopt);  // Not a torch dtype alias.
}

TEST(ScalarType, MapsDlpackCodesBothWays) {
  using C = DLPackTypeCode;
  EXPECT_EQ(scalar_type_from_dlpack(C::kBool, 8), ST::kBool);
  EXPECT_EQ(scalar_type_from_dlpack(C::kUInt, 8), ST::kUInt8);
  EXPECT_EQ(scalar_type_from_dlpack(C::kInt, 8), ST::kInt8);
  EXPECT_EQ(scalar_type_from_dlpack(C::kInt, 16), ST::kInt16);
  EXPECT_EQ(scalar_type_from_dlpack(C::kInt, 32), ST::kInt32);
  EXPECT_EQ(scalar_type_from_dlpack(C::kInt, 64), ST::kInt64);
  EXPECT_EQ(scalar_type_from_dlpack(C::kFloat, 16), ST::kFloat16);
  EXPECT_EQ(scalar_type_from_dlpack(C::kBfloat, 16), ST::kBFloat16);
  EXPECT_EQ(scalar_type_from_dlpack(C::kFloat, 32), ST::kFloat32);
  EXPECT_EQ(scalar_type_from_dlpack(C::kFloat, 64), ST::kFloat64);
  EXPECT_EQ(scalar_type_from_dlpack(C::kComplex, 64), ST::kComplex64);
  EXPECT_EQ(scalar_type_from_dlpack(C::kComplex, 128), ST::kComplex128);
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const ScalarTypeInfo& info = kScalarTypeInfos[i];
    EXPECT_EQ(scalar_type_from_dlpack(info.dlpack_code, info.dlpack_bits), info.type);
    EXPECT_EQ(info.dlpack_bits, 8 * info.itemsize);
  }
  EXPECT_EQ(static_cast<int>(C::kInt), 0);
  EXPECT_EQ(static_cast<int>(C::kUInt), 1);
  EXPECT_EQ(static_cast<int>(C::kFloat), 2);
  EXPECT_EQ(static_cast<int>(C::kBfloat), 4);
  EXPECT_EQ(static_cast<int>(C::kComplex), 5);
  EXPECT_EQ(static_cast<int>(C::kBool), 6);
}

TEST(ScalarType, RejectsDlpackTypesBackplaneLacks) {
  using C = DLPackTypeCode;
  EXPECT_EQ(scalar_type_from_dlpack(C::kUInt, 16), std::nullopt);
  EXPECT_EQ(scalar_type_from_dlpack(C::kUInt, 64), std::nullopt);
  EXPECT_EQ(scalar_type_from_dlpack(C::kFloat, 8), std::nullopt);
  EXPECT_EQ(scalar_type_from_dlpack(C::kComplex, 32), std::nullopt);
  EXPECT_EQ(scalar_type_from_dlpack(C::kBool, 1), std::nullopt);
  EXPECT_EQ(scalar_type_from_dlpack(static_cast<C>(3), 64), std::nullopt);  // kDLOpaqueHandle
}

}  // namespace
}  // namespace bp
