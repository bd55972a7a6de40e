// Tests of bp::Half and bp::BFloat16: bit-exact rounding at the edges of both formats.
#include "sdk/core/half.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "gtest/gtest.h"
#include "sdk/core/bfloat16.h"

namespace bp {
namespace {

uint16_t half_bits(float f) { return Half(f).bits; }
uint16_t bf16_bits(float f) { return BFloat16(f).bits; }

// Reference binary16 decoder written from the IEEE 754 formula, independently of half.h:
// (-1)^s * 2^(e-15) * (1 + m/1024) for normals, (-1)^s * 2^-14 * (m/1024) for subnormals.
double reference_half_value(uint16_t bits) {
  const int s = bits >> 15;
  const int e = (bits >> 10) & 0x1F;
  const int m = bits & 0x3FF;
  const double sign = s ? -1.0 : 1.0;
  if (e == 31) return m == 0 ? sign * INFINITY : NAN;
  if (e == 0) return sign * std::ldexp(m / 1024.0, -14);
  return sign * std::ldexp(1.0 + m / 1024.0, e - 15);
}

TEST(Half, LayoutIsOneTwoByteWord) {
  EXPECT_EQ(sizeof(Half), 2u);
  EXPECT_EQ(alignof(Half), 2u);
  EXPECT_TRUE(std::is_trivially_copyable_v<Half>);
  EXPECT_EQ(Half{}.bits, 0);
  EXPECT_EQ(Half::from_bits(0x3C00).bits, 0x3C00);
}

TEST(Half, ConvertsZeroOneAndLargestFiniteExactly) {
  EXPECT_EQ(half_bits(0.0f), 0x0000);
  EXPECT_EQ(half_bits(-0.0f), 0x8000);
  EXPECT_EQ(half_bits(1.0f), 0x3C00);
  EXPECT_EQ(half_bits(-2.0f), 0xC000);
  EXPECT_EQ(half_bits(65504.0f), 0x7BFF);
}

TEST(Half, RoundsJustBelowOverflowThresholdToLargestFinite) {
  EXPECT_EQ(half_bits(65519.99f), 0x7BFF);
  EXPECT_EQ(half_bits(-65519.99f), 0xFBFF);
}

TEST(Half, OverflowsToInfinityFromTheHalfwayPointUp) {
  EXPECT_EQ(half_bits(65520.0f), 0x7C00);  // Tie between 65504 and 65536 rounds to even (inf).
  EXPECT_EQ(half_bits(-65520.0f), 0xFC00);
  EXPECT_EQ(half_bits(1e10f), 0x7C00);
  EXPECT_EQ(half_bits(std::numeric_limits<float>::max()), 0x7C00);
  EXPECT_EQ(half_bits(INFINITY), 0x7C00);
  EXPECT_EQ(half_bits(-INFINITY), 0xFC00);
}

TEST(Half, NanBecomesQuietNanKeepingSign) {
  EXPECT_EQ(half_bits(NAN), 0x7E00);
  EXPECT_EQ(half_bits(-NAN), 0xFE00);
  // A signalling NaN with a payload that would be lost by truncation still stays a NaN.
  EXPECT_EQ(half_bits(std::bit_cast<float>(0x7F800001u)), 0x7E00);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(NAN))));
}

TEST(Half, RoundsSubnormalsToNearestEven) {
  const float tiny = std::ldexp(1.0f, -24);  // Smallest half subnormal.
  EXPECT_EQ(half_bits(tiny), 0x0001);
  EXPECT_EQ(half_bits(-tiny), 0x8001);
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -25)), 0x0000);  // Tie between 0 and 2^-24: even is 0.
  EXPECT_EQ(half_bits(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(half_bits(3 * std::ldexp(1.0f, -25)), 0x0002);  // Tie between 1 and 2 ulps: even.
  EXPECT_EQ(half_bits(5 * std::ldexp(1.0f, -25)), 0x0002);  // Tie between 2 and 3 ulps: even.
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(half_bits(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(half_bits(1023 * tiny), 0x03FF);            // Largest subnormal.
  EXPECT_EQ(half_bits(std::ldexp(1.0f, -14)), 0x0400);  // Smallest normal.
  // Halfway between the largest subnormal and the smallest normal: rounds up to even 0x400.
  EXPECT_EQ(half_bits(1023.5f * tiny), 0x0400);
  EXPECT_EQ(half_bits(1022.5f * tiny), 0x03FE);
}

TEST(Half, RoundsNormalsToNearestEven) {
  EXPECT_EQ(half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);      // Tie: even is 1.0.
  EXPECT_EQ(half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);  // Tie: even is 1 + 2^-9.
  EXPECT_EQ(half_bits(1.0f + std::ldexp(1.0f, -10)), 0x3C01);
  EXPECT_EQ(half_bits(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3C01);
  // Mantissa carry into the exponent: 2 - 2^-12 rounds up to 2.
  EXPECT_EQ(half_bits(2.0f - std::ldexp(1.0f, -12)), 0x4000);
  EXPECT_EQ(static_cast<float>(Half(0.1f)), 0.0999755859375f);
}

TEST(Half, ConvertsEveryBitPatternToFloatExactly) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const Half h = Half::from_bits(static_cast<uint16_t>(bits));
    const float f = h;
    const double expected = reference_half_value(static_cast<uint16_t>(bits));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << bits;
      ASSERT_EQ(std::signbit(f), (bits & 0x8000) != 0) << std::hex << bits;
    } else {
      ASSERT_EQ(static_cast<double>(f), expected) << std::hex << bits;
      ASSERT_EQ(std::signbit(f), (bits & 0x8000) != 0) << std::hex << bits;
      // And back: every non-NaN half survives the round trip bit for bit.
      ASSERT_EQ(Half(f).bits, bits) << std::hex << bits;
    }
  }
}

TEST(Half, ConversionsAreConstexpr) {
  static_assert(Half(1.0f).bits == 0x3C00);
  static_assert(static_cast<float>(Half::from_bits(0x0001)) == 0x1p-24f);
  static_assert(static_cast<float>(Half(3.0f) * Half(0.5f)) == 1.5f);
  SUCCEED();
}

TEST(Half, ArithmeticComputesInFloatAndRoundsOnce) {
  const Half a = 1.0f;
  const Half b = std::ldexp(1.0f, -11);  // Half an ulp of 1.0.
  EXPECT_EQ((a + b).bits, 0x3C00);       // 1 + 2^-11 rounds back to 1.
  EXPECT_EQ((Half(3.0f) - Half(1.0f)).bits, 0x4000);
  EXPECT_EQ((Half(3.0f) * Half(2.0f)).bits, 0x4600);
  EXPECT_EQ(static_cast<float>(Half(1.0f) / Half(3.0f)), static_cast<float>(Half(1.0f / 3.0f)));
  EXPECT_EQ((Half(60000.0f) + Half(60000.0f)).bits, 0x7C00);  // Overflows to inf.
  EXPECT_EQ((-Half(2.0f)).bits, 0xC000);
  EXPECT_EQ((-Half(0.0f)).bits, 0x8000);
  EXPECT_EQ((+Half(2.0f)).bits, 0x4000);
}

TEST(Half, MixedArithmeticFollowsC10ResultTypes) {
  const Half h = 1.5f;
  static_assert(std::is_same_v<decltype(h + 1.0f), float>);
  static_assert(std::is_same_v<decltype(h * 1.0), double>);
  static_assert(std::is_same_v<decltype(h + 1), Half>);
  static_assert(std::is_same_v<decltype(int64_t{2} * h), Half>);
  EXPECT_EQ(h + 1.0f, 2.5f);
  EXPECT_EQ(h * 2.0, 3.0);
  EXPECT_EQ((h + 1).bits, Half(2.5f).bits);
  EXPECT_EQ((int64_t{2} * h).bits, Half(3.0f).bits);
  EXPECT_EQ((5 - h).bits, Half(3.5f).bits);
  EXPECT_EQ((h / 3).bits, Half(0.5f).bits);
}

TEST(Half, CompoundAssignmentRoundsAfterEachStep) {
  Half h = 1.0f;
  h += Half(2.0f);
  EXPECT_EQ(h.bits, Half(3.0f).bits);
  h -= 0.5f;
  EXPECT_EQ(h.bits, Half(2.5f).bits);
  h *= 2;
  EXPECT_EQ(h.bits, Half(5.0f).bits);
  h /= Half(4.0f);
  EXPECT_EQ(h.bits, Half(1.25f).bits);
}

TEST(Half, ComparesByValue) {
  EXPECT_TRUE(Half(1.0f) < Half(2.0f));
  EXPECT_TRUE(Half(2.0f) >= Half(2.0f));
  EXPECT_TRUE(Half(0.0f) == Half(-0.0f));
  EXPECT_FALSE(Half(NAN) == Half(NAN));
  EXPECT_TRUE(Half(NAN) != Half(NAN));
  EXPECT_FALSE(Half(NAN) < Half(1.0f));
  EXPECT_TRUE(Half(1.5f) == 1.5f);
}

TEST(Half, PrintsItsFloatValue) {
  std::ostringstream out;
  out << Half(1.5f) << " " << Half(-65504.0f) << " " << Half(INFINITY);
  EXPECT_EQ(out.str(), "1.5 -65504 inf");
}

TEST(Half, NumericLimitsDescribeBinary16) {
  using L = std::numeric_limits<Half>;
  EXPECT_TRUE(L::is_specialized);
  EXPECT_EQ(L::digits, 11);
  EXPECT_EQ(L::max_exponent, 16);
  EXPECT_EQ(L::min_exponent, -13);
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-14f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0x1p-10f);
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(L::quiet_NaN().bits & 0x0200, 0x0200);      // Quiet bit set.
  EXPECT_EQ(L::signaling_NaN().bits & 0x0200, 0x0000);  // Quiet bit clear.
  // epsilon is the gap after 1.
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x3C01)) - 1.0f, static_cast<float>(L::epsilon()));
}

// ---- BFloat16 ----------------------------------------------------------------------------------

TEST(BFloat16, LayoutIsOneTwoByteWord) {
  EXPECT_EQ(sizeof(BFloat16), 2u);
  EXPECT_EQ(alignof(BFloat16), 2u);
  EXPECT_TRUE(std::is_trivially_copyable_v<BFloat16>);
}

TEST(BFloat16, ConvertsExactValuesExactly) {
  EXPECT_EQ(bf16_bits(0.0f), 0x0000);
  EXPECT_EQ(bf16_bits(-0.0f), 0x8000);
  EXPECT_EQ(bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(bf16_bits(-2.0f), 0xC000);
  EXPECT_EQ(bf16_bits(INFINITY), 0x7F80);
  EXPECT_EQ(bf16_bits(-INFINITY), 0xFF80);
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x7F7F0000u)), 0x7F7F);  // Max finite.
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(bf16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80);      // Tie: even is 1.0.
  EXPECT_EQ(bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);  // Tie: even is 1 + 2^-6.
  EXPECT_EQ(bf16_bits(std::nextafter(1.0f + std::ldexp(1.0f, -8), 2.0f)), 0x3F81);
  EXPECT_EQ(bf16_bits(3.14159265f), 0x4049);
  // Subnormals round like normals (bfloat16 shares float's exponent range).
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x00008000u)), 0x0000);  // Tie: even is 0.
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x00018000u)), 0x0002);  // Tie: even is 2.
}

TEST(BFloat16, RoundsPastLargestFiniteToInfinity) {
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x7F7F7FFFu)), 0x7F7F);
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x7F7F8000u)), 0x7F80);  // Tie: even is inf.
  EXPECT_EQ(bf16_bits(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(bf16_bits(-std::numeric_limits<float>::max()), 0xFF80);
}

TEST(BFloat16, NanBecomesQuietNanKeepingSign) {
  EXPECT_EQ(bf16_bits(NAN), 0x7FC0);
  EXPECT_EQ(bf16_bits(-NAN), 0xFFC0);
  // Payload only in the low 16 bits: truncation would give infinity, rounding must not.
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x7F800001u)), 0x7FC0);
  EXPECT_EQ(bf16_bits(std::bit_cast<float>(0x7FFFFFFFu)), 0x7FC0);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::bit_cast<float>(0xFF80FFFFu)))));
}

TEST(BFloat16, ConvertsEveryBitPatternToFloatExactly) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const float f = BFloat16::from_bits(static_cast<uint16_t>(bits));
    ASSERT_EQ(std::bit_cast<uint32_t>(f), bits << 16);
  }
}

TEST(BFloat16, ArithmeticComputesInFloatAndRoundsOnce) {
  EXPECT_EQ((BFloat16(1.0f) + BFloat16(std::ldexp(1.0f, -8))).bits, 0x3F80);
  EXPECT_EQ((BFloat16(3.0f) * BFloat16(2.0f)).bits, bf16_bits(6.0f));
  EXPECT_EQ((-BFloat16(2.0f)).bits, 0xC000);
  BFloat16 b = 1.0f;
  b += 1;
  EXPECT_EQ(b.bits, bf16_bits(2.0f));
  static_assert(std::is_same_v<decltype(BFloat16(1.0f) + 1.0f), float>);
  EXPECT_TRUE(BFloat16(1.0f) < BFloat16(1.5f));
}

TEST(BFloat16, PrintsItsFloatValue) {
  std::ostringstream out;
  out << BFloat16(3.14159265f);
  EXPECT_EQ(out.str(), "3.14062");
}

TEST(BFloat16, NumericLimitsDescribeTheFormat) {
  using L = std::numeric_limits<BFloat16>;
  EXPECT_EQ(L::digits, 8);
  EXPECT_EQ(L::max_exponent, 128);
  EXPECT_EQ(static_cast<float>(L::max()), std::bit_cast<float>(0x7F7F0000u));
  EXPECT_EQ(static_cast<float>(L::lowest()), -std::bit_cast<float>(0x7F7F0000u));
  EXPECT_EQ(static_cast<float>(L::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0x1p-7f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-133f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_EQ(L::quiet_NaN().bits, 0x7FC0);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(static_cast<float>(BFloat16::from_bits(0x3F81)) - 1.0f,
            static_cast<float>(L::epsilon()));
}

}  // namespace
}  // namespace bp
