// The special functions of special.h against Boost.Math, an independent implementation, in long
// double: each function's stated accuracy is checked over a grid that covers its regimes, and its
// special values exactly.
#include "reference_backend/math/special.h"

#include <cmath>
#include <limits>

#include "boost/math/policies/policy.hpp"
#include "boost/math/special_functions/digamma.hpp"
#include "gtest/gtest.h"

namespace bp::math {
namespace {

// Boost reports domain and pole errors through errno instead of throwing; the grids avoid them.
using Policy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
    boost::math::policies::pole_error<boost::math::policies::errno_on_error>>;

long double reference_digamma(long double x) { return boost::math::digamma(x, Policy()); }

// The largest error of digamma<T> over x in [lo, hi] in steps of `step`, relative where
// |psi| >= 1 and absolute below (Cephes' measure), skipping the poles at 0 and the negative
// integers (within 1e-3).
template <typename T>
double max_error(double lo, double hi, double step) {
  double worst = 0;
  for (double x = lo; x <= hi; x += step) {
    const T t = static_cast<T>(x);
    if (std::abs(t - std::round(t)) < 1e-3 && t <= 0) continue;
    const long double expected = reference_digamma(static_cast<long double>(t));
    const long double actual = digamma(t);
    const long double scale = std::max(std::abs(expected), 1.0L);
    worst = std::max(worst, static_cast<double>(std::abs(actual - expected) / scale));
  }
  return worst;
}

TEST(Digamma, DoubleIsWithinItsStatedBounds) {
  // special.h: <= 1.5e-15 for x > 0; <= 1e-13 for x < 0 at least 1e-3 from a pole.
  EXPECT_LE(max_error<double>(1e-3, 30.0, 0.0137), 1.5e-15);
  EXPECT_LE(max_error<double>(1e-6, 1e-3, 1.1e-6), 1.5e-15);
  EXPECT_LE(max_error<double>(-30.0, 0.0, 0.0137), 1e-13);
}

TEST(Digamma, DoubleIsAccurateForLargeArguments) {
  for (double x : {11.0, 123.456, 1e5, 1e10, 1e16, 1e18, 1e300}) {
    const long double expected = reference_digamma(x);
    EXPECT_NEAR(digamma(x) / expected, 1.0, 1.5e-15) << "x = " << x;
  }
}

TEST(Digamma, FloatIsWithinItsStatedBound) {
  // Computed in float as PyTorch does: <= 1e-6 (a few ulp of float) on both sides.
  EXPECT_LE(max_error<float>(1e-3, 30.0, 0.0137), 1e-6);
  EXPECT_LE(max_error<float>(-30.0, 0.0, 0.0137), 1e-6);
}

TEST(Digamma, HasPyTorchsSpecialValues) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(digamma(0.0), -kInf);
  EXPECT_EQ(digamma(-0.0), kInf);
  EXPECT_EQ(digamma(0.0f), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(digamma(-1.0)));
  EXPECT_TRUE(std::isnan(digamma(-1e20)));
  EXPECT_TRUE(std::isnan(digamma(-kInf)));
  EXPECT_TRUE(std::isnan(digamma(std::nan(""))));
  EXPECT_EQ(digamma(kInf), kInf);
  // psi(1) = -Euler's gamma; psi(10) comes from the constant.
  EXPECT_DOUBLE_EQ(digamma(1.0), -0.57721566490153286061);
  EXPECT_DOUBLE_EQ(digamma(10.0), 2.25175258906672110764);
  EXPECT_DOUBLE_EQ(digamma(0.5), -1.96351002602142347944);
}

}  // namespace
}  // namespace bp::math
