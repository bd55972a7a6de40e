// Tests of bp::Scalar and the element conversions it uses.
#include "sdk/core/scalar.h"

#include <cmath>
#include <complex>
#include <limits>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace bp {
namespace {

using ST = ScalarType;

// The message of the Error that `f` throws (fails the test when it throws nothing).
template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    return e.message();
  }
  ADD_FAILURE() << "expected an Error";
  return "";
}

std::string printed(const Scalar& s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

TEST(Scalar, WidensEachCategoryToItsWidestType) {
  EXPECT_EQ(Scalar().type(), ST::kInt64);
  EXPECT_EQ(Scalar(true).type(), ST::kBool);
  EXPECT_EQ(Scalar(uint8_t{200}).type(), ST::kInt64);
  EXPECT_EQ(Scalar(int8_t{-3}).type(), ST::kInt64);
  EXPECT_EQ(Scalar(short{3}).type(), ST::kInt64);
  EXPECT_EQ(Scalar(3).type(), ST::kInt64);
  EXPECT_EQ(Scalar(3u).type(), ST::kInt64);
  EXPECT_EQ(Scalar(int64_t{3}).type(), ST::kInt64);
  EXPECT_EQ(Scalar(uint64_t{3}).type(), ST::kInt64);
  EXPECT_EQ(Scalar(1.5f).type(), ST::kFloat64);
  EXPECT_EQ(Scalar(1.5).type(), ST::kFloat64);
  EXPECT_EQ(Scalar(Half(1.5f)).type(), ST::kFloat64);
  EXPECT_EQ(Scalar(BFloat16(1.5f)).type(), ST::kFloat64);
  EXPECT_EQ(Scalar(complex<float>(1, 2)).type(), ST::kComplex128);
  EXPECT_EQ(Scalar(complex<double>(1, 2)).type(), ST::kComplex128);
  EXPECT_EQ(Scalar(std::complex<float>(1, 2)).type(), ST::kComplex128);
}

TEST(Scalar, KeepsTheValueItWasGiven) {
  EXPECT_EQ(Scalar(uint8_t{200}).to<int64_t>(), 200);
  EXPECT_EQ(Scalar(Half(0.1f)).to<double>(), static_cast<double>(static_cast<float>(Half(0.1f))));
  EXPECT_EQ(Scalar(0.1f).to<double>(), static_cast<double>(0.1f));
  EXPECT_EQ(Scalar(complex<float>(1.5f, -2.5f)).to<complex<double>>(), complex<double>(1.5, -2.5));
  EXPECT_EQ(Scalar(std::numeric_limits<int64_t>::min()).to<int64_t>(),
            std::numeric_limits<int64_t>::min());
}

TEST(Scalar, RejectsUnsignedValuesBeyondInt64) {
  EXPECT_EQ(error_message([] { Scalar(std::numeric_limits<uint64_t>::max()); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(Scalar(uint64_t{1} << 62).to<int64_t>(), int64_t{1} << 62);
}

TEST(Scalar, ReportsItsCategory) {
  EXPECT_TRUE(Scalar(true).is_boolean());
  EXPECT_FALSE(Scalar(true).is_integral(false));
  EXPECT_TRUE(Scalar(true).is_integral(true));
  EXPECT_TRUE(Scalar(1).is_integral(false));
  EXPECT_FALSE(Scalar(1).is_boolean());
  EXPECT_FALSE(Scalar(1).is_floating_point());
  EXPECT_TRUE(Scalar(1.0).is_floating_point());
  EXPECT_FALSE(Scalar(1.0).is_integral(true));
  EXPECT_TRUE(Scalar(complex<double>(1, 0)).is_complex());
  EXPECT_FALSE(Scalar(complex<double>(1, 0)).is_floating_point());
}

TEST(Scalar, ConvertsInRangeValuesToEveryElementType) {
  const Scalar s = 3;
  EXPECT_EQ(s.to<bool>(), true);
  EXPECT_EQ(s.to<uint8_t>(), 3);
  EXPECT_EQ(s.to<int8_t>(), 3);
  EXPECT_EQ(s.to<int16_t>(), 3);
  EXPECT_EQ(s.to<int32_t>(), 3);
  EXPECT_EQ(s.to<int64_t>(), 3);
  EXPECT_EQ(s.to<Half>().bits, Half(3.0f).bits);
  EXPECT_EQ(s.to<BFloat16>().bits, BFloat16(3.0f).bits);
  EXPECT_EQ(s.to<float>(), 3.0f);
  EXPECT_EQ(s.to<double>(), 3.0);
  EXPECT_EQ(s.to<complex<float>>(), complex<float>(3.0f, 0.0f));
  EXPECT_EQ(s.to<complex<double>>(), complex<double>(3.0, 0.0));
  EXPECT_EQ(Scalar(2.75).to<int32_t>(), 2);  // Truncates toward zero.
  EXPECT_EQ(Scalar(-2.75).to<int32_t>(), -2);
  EXPECT_EQ(Scalar(true).to<double>(), 1.0);
  EXPECT_EQ(Scalar(false).to<complex<float>>(), complex<float>(0.0f, 0.0f));
  EXPECT_EQ(Scalar(0.0).to<bool>(), false);
  EXPECT_EQ(Scalar(complex<double>(0.0, 1.0)).to<bool>(), true);
  EXPECT_EQ(Scalar(complex<double>(2.0, 0.0)).to<int64_t>(), 2);
  EXPECT_EQ(Scalar(0.1).to<Half>().bits, Half(0.1f).bits);  // Rounds through float, as c10.
}

TEST(Scalar, ThrowsWhenAnIntegerDoesNotFit) {
  EXPECT_EQ(error_message([] { Scalar(300).to<uint8_t>(); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(error_message([] { Scalar(128).to<int8_t>(); }),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_message([] { Scalar(-129).to<int8_t>(); }),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_message([] { Scalar(int64_t{1} << 40).to<int32_t>(); }),
            "value cannot be converted to type int without overflow");
  EXPECT_EQ(error_message([] { Scalar(70000).to<Half>(); }),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(Scalar(127).to<int8_t>(), 127);
  EXPECT_EQ(Scalar(-128).to<int8_t>(), -128);
  EXPECT_EQ(Scalar(65504).to<Half>().bits, 0x7BFF);
  EXPECT_EQ(Scalar(70000).to<BFloat16>().bits, BFloat16(70000.0f).bits);
}

TEST(Scalar, LetsNegativeIntegersWrapIntoUnsignedTypes) {
  // PyTorch allows this so that `a - b` can run as `a + 255 * b` on uint8.
  EXPECT_EQ(Scalar(-1).to<uint8_t>(), 255);
  EXPECT_EQ(Scalar(-255).to<uint8_t>(), 1);
  EXPECT_EQ(error_message([] { Scalar(-256).to<uint8_t>(); }),
            "value cannot be converted to type uint8_t without overflow");
}

TEST(Scalar, ThrowsWhenAFloatingValueDoesNotFit) {
  EXPECT_EQ(error_message([] { Scalar(65520.0).to<Half>(); }),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(error_message([] { Scalar(-1e39).to<float>(); }),
            "value cannot be converted to type float without overflow");
  EXPECT_EQ(error_message([] { Scalar(1e39).to<BFloat16>(); }),
            "value cannot be converted to type at::BFloat16 without overflow");
  EXPECT_EQ(error_message([] { Scalar(256.0).to<uint8_t>(); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(error_message([] { Scalar(-0.5).to<uint8_t>(); }),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(Scalar(255.9).to<uint8_t>(), 255);
  // 2^63 is the first double past int64's range (INT64_MAX itself rounds up to 2^63).
  EXPECT_EQ(error_message([] { Scalar(0x1p63).to<int64_t>(); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(Scalar(-0x1p63).to<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Scalar(1e300).to<complex<double>>(), complex<double>(1e300, 0.0));
  EXPECT_EQ(error_message([] { Scalar(1e300).to<complex<float>>(); }),
            "value cannot be converted to type c10::complex<float> without overflow");
}

TEST(Scalar, AllowsInfinityAndNanIntoFloatingTypesOnly) {
  EXPECT_EQ(Scalar(INFINITY).to<Half>().bits, 0x7C00);
  EXPECT_EQ(Scalar(-INFINITY).to<float>(), -INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(Scalar(NAN).to<Half>())));
  EXPECT_TRUE(std::isnan(Scalar(NAN).to<complex<float>>().real()));
  EXPECT_EQ(error_message([] { Scalar(NAN).to<int64_t>(); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(error_message([] { Scalar(INFINITY).to<int32_t>(); }),
            "value cannot be converted to type int without overflow");
}

TEST(Scalar, NeverOverflowsIntoOrOutOfBool) {
  EXPECT_EQ(Scalar(300).to<bool>(), true);
  EXPECT_EQ(Scalar(NAN).to<bool>(), true);
  EXPECT_EQ(Scalar(1e300).to<bool>(), true);
  EXPECT_EQ(Scalar(true).to<uint8_t>(), 1);
  EXPECT_FALSE(Scalar(1e300).overflows(ST::kBool));
}

TEST(Scalar, ThrowsForComplexWithImaginaryPartIntoRealTypes) {
  const Scalar z = complex<double>(1.0, 2.0);
  EXPECT_EQ(error_message([&] { z.to<double>(); }),
            "value cannot be converted to type double without overflow");
  EXPECT_EQ(error_message([&] { z.to<int64_t>(); }),
            "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(z.to<complex<float>>(), complex<float>(1.0f, 2.0f));
  EXPECT_EQ(Scalar(complex<double>(1.5, 0.0)).to<float>(), 1.5f);
  EXPECT_EQ(error_message([] { Scalar(complex<double>(1.0, 1e300)).to<complex<float>>(); }),
            "value cannot be converted to type c10::complex<float> without overflow");
}

TEST(Scalar, OverflowsMatchesWhatToThrowsFor) {
  for (const Scalar& s : {Scalar(300), Scalar(-1), Scalar(1e6), Scalar(NAN), Scalar(INFINITY),
                          Scalar(true), Scalar(complex<double>(1, 1)), Scalar(0.5)}) {
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const ST t = static_cast<ST>(i);
      const bool throws = visit_dtype(t, [&](auto tag) {
        try {
          s.to<typename decltype(tag)::type>();
          return false;
        } catch (const Error&) {
          return true;
        }
      });
      EXPECT_EQ(s.overflows(t), throws) << s << " to " << t;
    }
  }
  EXPECT_TRUE(Scalar(300).overflows(ST::kUInt8));
  EXPECT_FALSE(Scalar(300).overflows(ST::kInt16));
  EXPECT_TRUE(Scalar(1e6).overflows(ST::kFloat16));
  EXPECT_FALSE(Scalar(1e6).overflows(ST::kBFloat16));
}

TEST(Scalar, UncheckedConversionWrapsLikePyTorchKernels) {
  EXPECT_EQ(Scalar(300).to_unchecked<uint8_t>(), 44);
  EXPECT_EQ(Scalar(-1.0).to_unchecked<uint8_t>(), 255);  // Through int64, as c10 does.
  EXPECT_EQ(Scalar(NAN).to_unchecked<int64_t>(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Scalar(1e300).to_unchecked<int32_t>(), 0);  // INT64_MIN narrowed to 32 bits.
  EXPECT_EQ(Scalar(complex<double>(1.5, 2.0)).to_unchecked<float>(), 1.5f);
  EXPECT_EQ(Scalar(70000).to_unchecked<Half>().bits, 0x7C00);
}

TEST(Scalar, NegatesWithinItsType) {
  EXPECT_EQ(-Scalar(3), Scalar(-3));
  EXPECT_EQ(-Scalar(1.5), Scalar(-1.5));
  EXPECT_EQ(-Scalar(complex<double>(1, -2)), Scalar(complex<double>(-1, 2)));
  EXPECT_EQ(-Scalar(std::numeric_limits<int64_t>::min()),
            Scalar(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(error_message([] { -Scalar(true); }),
            "torch boolean negative, the `-` operator, is not supported.");
}

TEST(Scalar, EqualityNeedsSameTypeAndValue) {
  EXPECT_EQ(Scalar(1), Scalar(int8_t{1}));
  EXPECT_NE(Scalar(1), Scalar(1.0));
  EXPECT_NE(Scalar(1), Scalar(true));
  EXPECT_NE(Scalar(1.0), Scalar(complex<double>(1.0, 0.0)));
  EXPECT_NE(Scalar(NAN), Scalar(NAN));
  EXPECT_EQ(Scalar(1.5f), Scalar(1.5));
}

TEST(Scalar, PrintsItsValue) {
  EXPECT_EQ(printed(Scalar(true)), "true");
  EXPECT_EQ(printed(Scalar(false)), "false");
  EXPECT_EQ(printed(Scalar(-42)), "-42");
  EXPECT_EQ(printed(Scalar(1.5)), "1.5");
  EXPECT_EQ(printed(Scalar(complex<double>(1, -2))), "(1,-2)");
}

TEST(ElementCast, NamesTypesAsPyTorchMessagesDo) {
  EXPECT_EQ(pytorch_cpp_type_name(ST::kBool), "bool");
  EXPECT_EQ(pytorch_cpp_type_name(ST::kInt32), "int");
  EXPECT_EQ(pytorch_cpp_type_name(ST::kFloat16), "at::Half");
  EXPECT_EQ(pytorch_cpp_type_name(ST::kBFloat16), "at::BFloat16");
  EXPECT_EQ(pytorch_cpp_type_name(ST::kComplex128), "c10::complex<double>");
}

TEST(ElementCast, ConvertsBetweenElementTypes) {
  EXPECT_EQ(element_cast<int8_t>(int64_t{200}), -56);
  EXPECT_EQ(element_cast<float>(Half(1.5f)), 1.5f);
  EXPECT_EQ(element_cast<Half>(BFloat16(1.5f)).bits, Half(1.5f).bits);
  EXPECT_EQ(element_cast<int32_t>(Half(-2.5f)), -2);
  EXPECT_EQ(element_cast<complex<float>>(Half(2.0f)), complex<float>(2.0f, 0.0f));
  EXPECT_EQ(element_cast<bool>(Half(0.0f)), false);
  EXPECT_EQ(element_cast<bool>(BFloat16(-0.5f)), true);
  EXPECT_EQ(element_cast<Half>(complex<float>(3.0f, 9.0f)).bits, Half(3.0f).bits);
  EXPECT_EQ(element_cast<complex<double>>(complex<float>(1.0f, 2.0f)), complex<double>(1.0, 2.0));
}

}  // namespace
}  // namespace bp
