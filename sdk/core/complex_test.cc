// Tests of bp::complex<T>.
#include "sdk/core/complex.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <sstream>

#include "gtest/gtest.h"

namespace bp {
namespace {

TEST(Complex, HasTheLayoutOfStdComplex) {
  EXPECT_EQ(sizeof(complex<float>), 8u);
  EXPECT_EQ(alignof(complex<float>), 8u);
  EXPECT_EQ(sizeof(complex<double>), 16u);
  EXPECT_EQ(alignof(complex<double>), 16u);
  const std::complex<float> s(1.5f, -2.5f);
  complex<float> z;
  std::memcpy(static_cast<void*>(&z), &s, sizeof z);
  EXPECT_EQ(z.real(), 1.5f);
  EXPECT_EQ(z.imag(), -2.5f);
}

TEST(Complex, ConstructsFromPartsRealsAndStdComplex) {
  constexpr complex<double> zero;
  static_assert(zero.real() == 0.0 && zero.imag() == 0.0);
  constexpr complex<float> real_only = 3.0f;
  static_assert(real_only.real() == 3.0f && real_only.imag() == 0.0f);
  const complex<double> from_std = std::complex<double>(1.0, 2.0);
  EXPECT_EQ(from_std, complex<double>(1.0, 2.0));
  const auto back = static_cast<std::complex<double>>(from_std);
  EXPECT_EQ(back, std::complex<double>(1.0, 2.0));
  complex<float> z(1.0f, 2.0f);
  z.real(5.0f);
  z.imag(-1.0f);
  EXPECT_EQ(z, complex<float>(5.0f, -1.0f));
}

TEST(Complex, WidensImplicitlyAndNarrowsExplicitly) {
  static_assert(std::is_convertible_v<complex<float>, complex<double>>);
  static_assert(!std::is_convertible_v<complex<double>, complex<float>>);
  static_assert(std::is_constructible_v<complex<float>, complex<double>>);
  const complex<double> wide = complex<float>(0.1f, 0.2f);
  EXPECT_EQ(wide.real(), static_cast<double>(0.1f));
  const complex<float> narrow(complex<double>(0.1, 1e300));
  EXPECT_EQ(narrow.real(), 0.1f);
  EXPECT_EQ(narrow.imag(), INFINITY);
}

TEST(Complex, AddsSubtractsAndMultiplies) {
  const complex<double> a(1.0, 2.0), b(3.0, -1.0);
  EXPECT_EQ(a + b, complex<double>(4.0, 1.0));
  EXPECT_EQ(a - b, complex<double>(-2.0, 3.0));
  EXPECT_EQ(a * b, complex<double>(5.0, 5.0));
  EXPECT_EQ(a * a + 1.0, complex<double>(-2.0, 4.0));
  EXPECT_EQ(-a, complex<double>(-1.0, -2.0));
  EXPECT_EQ(+a, a);
  static_assert(complex<float>(1, 2) * complex<float>(1, 2) == complex<float>(-3, 4));
}

TEST(Complex, MixesWithRealOperandsOnEitherSide) {
  const complex<float> z(2.0f, 4.0f);
  EXPECT_EQ(z + 1.0f, complex<float>(3.0f, 4.0f));
  EXPECT_EQ(1.0f + z, complex<float>(3.0f, 4.0f));
  EXPECT_EQ(z - 1.0f, complex<float>(1.0f, 4.0f));
  EXPECT_EQ(1.0f - z, complex<float>(-1.0f, -4.0f));
  EXPECT_EQ(z * 2.0f, complex<float>(4.0f, 8.0f));
  EXPECT_EQ(2 * z, complex<float>(4.0f, 8.0f));
  EXPECT_EQ(z / 2.0f, complex<float>(1.0f, 2.0f));
  EXPECT_EQ(10.0f / complex<float>(1.0f, 2.0f), complex<float>(2.0f, -4.0f));
  // A real factor does not turn an infinite part into NaN in the other part.
  const complex<double> inf_real(INFINITY, 0.0);
  EXPECT_EQ((inf_real * 2.0).imag(), 0.0);
}

TEST(Complex, DividesExactlyWhereTheQuotientIsExact) {
  EXPECT_EQ(complex<double>(-2.0, 6.0) / complex<double>(2.0, 2.0), complex<double>(1.0, 2.0));
  const complex<double> q = complex<double>(5.0, 5.0) / complex<double>(3.0, -1.0);
  EXPECT_DOUBLE_EQ(q.real(), 1.0);
  EXPECT_DOUBLE_EQ(q.imag(), 2.0);
  EXPECT_EQ(complex<double>(1.0, 0.0) / complex<double>(0.0, 1.0), complex<double>(0.0, -1.0));
  complex<float> z(4.0f, 2.0f);
  z /= complex<float>(2.0f, 0.0f);
  EXPECT_EQ(z, complex<float>(2.0f, 1.0f));
}

TEST(Complex, DivisionDoesNotOverflowForHugeOperands) {
  // The naive formula computes c*c + d*d = inf here and returns 0 or NaN.
  const double big = 1e300;
  const complex<double> q = complex<double>(big, big) / complex<double>(big, big);
  EXPECT_DOUBLE_EQ(q.real(), 1.0);
  EXPECT_DOUBLE_EQ(q.imag(), 0.0);
  const complex<float> r = complex<float>(1e30f, 0.0f) / complex<float>(0.0f, 1e30f);
  EXPECT_FLOAT_EQ(r.real(), 0.0f);
  EXPECT_FLOAT_EQ(r.imag(), -1.0f);
  // And tiny ones (c*c + d*d would underflow to 0).
  const complex<double> s = complex<double>(1e-300, 0.0) / complex<double>(1e-300, 1e-300);
  EXPECT_DOUBLE_EQ(s.real(), 0.5);
  EXPECT_DOUBLE_EQ(s.imag(), -0.5);
}

TEST(Complex, DivisionByZeroGivesInfOrNan) {
  const complex<double> q = complex<double>(1.0, 1.0) / complex<double>(0.0, 0.0);
  EXPECT_TRUE(std::isinf(q.real()));
  EXPECT_TRUE(std::isinf(q.imag()));
  const complex<double> n = complex<double>(0.0, 0.0) / complex<double>(0.0, 0.0);
  EXPECT_TRUE(std::isnan(n.real()));
  // Each part over +0 whatever the zeros' signs, as c10::complex (std::abs of the divisor).
  const complex<float> s = complex<float>(1.0f, -1.0f) / complex<float>(-0.0f, -0.0f);
  EXPECT_EQ(s.real(), INFINITY);
  EXPECT_EQ(s.imag(), -INFINITY);
}

TEST(Complex, ComparesBothParts) {
  EXPECT_TRUE(complex<float>(1.0f, 2.0f) == complex<float>(1.0f, 2.0f));
  EXPECT_TRUE(complex<float>(1.0f, 2.0f) != complex<float>(1.0f, -2.0f));
  EXPECT_TRUE(complex<float>(3.0f, 0.0f) == 3.0f);
  EXPECT_TRUE(complex<float>(3.0f, 1.0f) != 3.0f);
  EXPECT_TRUE(3.0f == complex<float>(3.0f, 0.0f));
  EXPECT_FALSE(complex<double>(NAN, 0.0) == complex<double>(NAN, 0.0));
}

TEST(Complex, PrintsLikeStdComplex) {
  std::ostringstream out;
  out << complex<double>(1.5, -2.0);
  EXPECT_EQ(out.str(), "(1.5,-2)");
}

}  // namespace
}  // namespace bp
