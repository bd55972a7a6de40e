// The device prelude's complex functions (jit/prelude_math.cuh), compiled as host C++ as the
// emulation compiles them, against the host's std:: functions (glibc, libgcc's complex division)
// that the CPU backend calls, on a grid of parts wider than the emulation tests' special values:
// zeros of both signs, subnormal, tiny, moderate and huge values, the largest finite value,
// infinities and NaN, every pair. Parts must match as the CPU backend's results do: NaN with NaN,
// infinities and zeros with their signs, finite values within the emulation tests' tolerance.
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/host_shim.h"
#include "reference_backend/math/traits.h"
#include "sdk/core/portable/element_cast.h"
// The prelude after its dependencies, as in the jitted programs.
#include "reference_backend/cuda/jit/prelude_math.cuh"

namespace bp::cuda {
namespace {

template <typename T>
std::vector<T> grid_parts() {
  using limits = std::numeric_limits<T>;
  std::vector<T> magnitudes = {T(0),          limits::denorm_min(),
                               limits::min(), T(1e-20),
                               T(1e-8),       T(1e-4),
                               T(0.25),       T(0.5),
                               T(0.999),      T(1),
                               T(1.001),      T(1.5),
                               T(2),          T(3.14159265358979),
                               T(10),         T(50),
                               T(100),        T(400),
                               T(1000),       T(1e8),
                               T(1e15),       T(1e20),
                               T(1e30),       limits::max() / T(4),
                               limits::max(), limits::infinity()};
  // Around the overflow thresholds of exp, sinh and cosh.
  if constexpr (sizeof(T) == 8) {
    magnitudes.insert(magnitudes.end(), {T(710), T(800), T(1e200)});
  } else {
    magnitudes.insert(magnitudes.end(), {T(89), T(200)});
  }
  std::vector<T> parts;
  for (T m : magnitudes) {
    parts.push_back(m);
    parts.push_back(-m);
  }
  parts.push_back(limits::quiet_NaN());
  return parts;
}

template <typename T>
bool same_part(T actual, T expected) {
  const double tol_rel = sizeof(T) == 4 ? 2e-5 : 1e-12, tol_abs = sizeof(T) == 4 ? 1e-6 : 1e-14;
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected)) return actual == expected;
  if (actual == 0 && expected == 0) return std::signbit(actual) == std::signbit(expected);
  return std::abs(double(actual) - double(expected)) <=
         tol_abs + tol_rel * std::abs(double(expected));
}

template <typename T>
void expect_matches_host(const char* name, const std::function<complex<T>(complex<T>)>& device,
                         const std::function<std::complex<T>(std::complex<T>)>& host) {
  int failures = 0;
  const std::vector<T> parts = grid_parts<T>();
  for (T x : parts) {
    for (T y : parts) {
      const complex<T> d = device(complex<T>(x, y));
      const std::complex<T> h = host(std::complex<T>(x, y));
      if (same_part(d.real(), h.real()) && same_part(d.imag(), h.imag())) continue;
      if (++failures > 5) continue;
      std::ostringstream message;
      message.precision(9);
      message << name << "<" << (sizeof(T) == 4 ? "float" : "double") << ">(" << x << ", " << y
              << ") is (" << d.real() << ", " << d.imag() << "), the host's (" << h.real() << ", "
              << h.imag() << ")";
      ADD_FAILURE() << message.str();
    }
  }
  EXPECT_EQ(failures, 0) << name << " differs from the host on " << failures << " inputs";
}

#define BP_EXPECT_MATCHES_HOST(name, host_expression)                  \
  expect_matches_host<float>(                                          \
      #name, [](complex<float> z) { return jit::complex_##name(z); },  \
      [](std::complex<float> z) { return host_expression; });          \
  expect_matches_host<double>(                                         \
      #name, [](complex<double> z) { return jit::complex_##name(z); }, \
      [](std::complex<double> z) { return host_expression; })

TEST(PreludeMathOnTheHost, ExpLogAndRootsMatchTheHostsStdFunctions) {
  BP_EXPECT_MATCHES_HOST(exp, std::exp(z));
  BP_EXPECT_MATCHES_HOST(log, std::log(z));
  // As reference_backend/math/primitives.h computes them on the host.
  BP_EXPECT_MATCHES_HOST(log2, std::log(z) / decltype(z)::value_type(0.6931471805599453094));
  BP_EXPECT_MATCHES_HOST(log10, std::log10(z));
  BP_EXPECT_MATCHES_HOST(sqrt, std::sqrt(z));
  BP_EXPECT_MATCHES_HOST(rsqrt, decltype(z)::value_type(1) / std::sqrt(z));
}

TEST(PreludeMathOnTheHost, TrigonometricAndHyperbolicFunctionsMatchTheHostsStdFunctions) {
  BP_EXPECT_MATCHES_HOST(sin, std::sin(z));
  BP_EXPECT_MATCHES_HOST(cos, std::cos(z));
  BP_EXPECT_MATCHES_HOST(tan, std::tan(z));
  BP_EXPECT_MATCHES_HOST(sinh, std::sinh(z));
  BP_EXPECT_MATCHES_HOST(cosh, std::cosh(z));
  BP_EXPECT_MATCHES_HOST(tanh, std::tanh(z));
}

TEST(PreludeMathOnTheHost, InverseFunctionsMatchTheHostsStdFunctions) {
  BP_EXPECT_MATCHES_HOST(asin, std::asin(z));
  BP_EXPECT_MATCHES_HOST(acos, std::acos(z));
  BP_EXPECT_MATCHES_HOST(atan, std::atan(z));
  BP_EXPECT_MATCHES_HOST(asinh, std::asinh(z));
  BP_EXPECT_MATCHES_HOST(acosh, std::acosh(z));
  BP_EXPECT_MATCHES_HOST(atanh, std::atanh(z));
}

}  // namespace
}  // namespace bp::cuda
