// The vectorised unary ops (vector forms from sdk/iter/vec/vec_math.h, SLEEF) on every ISA path
// dispatch_cpu has (SSE2 with 16-byte vectors, AVX2 with 32, AVX-512 with 64 for kWideVectors
// functors) and their scalar tails: within the stated bounds of std::, special values as std::.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/core/empty.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/division_reference.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;

struct UnaryCase {
  std::string name;
  std::function<Tensor(const Tensor&)> op;
  std::function<long double(long double)> ref;  // long double: exact enough for float64
  double lo, hi;                                // the sweep
  double ulps;  // the bound: vec_math.h's (libmvec's 4 ulp, SLEEF's 1; float exp, tanh and erf
};              // inline, <= 2), + 0.5 for the rounding of the reference

std::vector<UnaryCase> cases() {
  return {
      {"exp", [](const Tensor& x) { return exp(x); }, [](long double v) { return std::exp(v); },
       -90, 90, 4.5},
      {"log", [](const Tensor& x) { return log(x); }, [](long double v) { return std::log(v); }, -1,
       1e4, 4.5},
      {"sin", [](const Tensor& x) { return sin(x); }, [](long double v) { return std::sin(v); },
       -50, 50, 4.5},
      {"tanh", [](const Tensor& x) { return tanh(x); }, [](long double v) { return std::tanh(v); },
       -12, 12, 4.5},
      {"sigmoid", [](const Tensor& x) { return sigmoid(x); },
       [](long double v) { return 1 / (1 + std::exp(-v)); }, -80, 80, 5},
      {"erf", [](const Tensor& x) { return erf(x); }, [](long double v) { return std::erf(v); }, -5,
       5, 4.5},
      {"sqrt", [](const Tensor& x) { return sqrt(x); }, [](long double v) { return std::sqrt(v); },
       -1, 1e4, 0.5},
  };
}

// 1003 values (every vector width's unrolled loop and a scalar tail) with special values spread
// over the vector lanes and the tail.
std::vector<double> inputs(double lo, double hi) {
  std::vector<double> x;
  for (int i = 0; i < 1003; ++i) x.push_back(lo + (hi - lo) * i / 1002.0);
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {0.0, -0.0, inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1e-30};
  for (int k = 0; k < 6; ++k) {
    x[static_cast<size_t>(37 * k + 3)] = specials[k];
    x[static_cast<size_t>(1002 - k)] = specials[k];
  }
  return x;
}

template <typename T>
double ulp_distance(double got, double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  const T w = static_cast<T>(want), g = static_cast<T>(got);
  if (std::isinf(w) || std::isinf(g)) return g == w ? 0 : 1e9;
  if (w == 0 && g == 0) return std::signbit(w) == std::signbit(g) ? 0 : 1e9;
  const double ulp =
      std::nextafter(std::fabs(w), std::numeric_limits<T>::infinity()) - std::fabs(w);
  return std::fabs(got - want) / ulp;
}

TEST(VectorMath, UnaryOpsMatchStdWithinTheirBoundOnEveryIsaPath) {
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    const CpuCapability used = set_cpu_capability(c);
    for (const UnaryCase& k : cases()) {
      for (ST t : {ST::kFloat32, ST::kFloat64}) {
        const std::vector<double> x = inputs(k.lo, k.hi);
        const Tensor in = tensor_of(t, x);
        const std::vector<double> xs = values_of(in);  // as rounded to the dtype
        const std::vector<double> y = values_of(k.op(in));
        for (size_t i = 0; i < x.size(); ++i) {
          const double want = static_cast<double>(k.ref(xs[i]));
          const double d = t == ST::kFloat32 ? ulp_distance<float>(y[i], want)
                                             : ulp_distance<double>(y[i], want);
          EXPECT_LE(d, k.ulps) << k.name << "(" << xs[i] << ") = " << y[i] << ", want " << want
                               << " (" << t << ", " << cpu_capability_name(used) << ", index " << i
                               << ")";
        }
      }
    }
  }
  set_cpu_capability(CpuCapability::kAvx512);
}

// floor_divide (div rounding_mode='floor') runs DivFloor on vectors (floating types: SLEEF's fmod,
// 64-byte vectors on AVX-512; int32 and int64: division in float or double). On every ISA path
// it gives, bit for bit, the scalar formula (floor_divide_reference: PyTorch's, with branches and
// std::) and Python's // of integers, for pairs of special and ordinary values spread over vector
// lanes and the scalar tail. remainder and fmod run on float and double vectors (SLEEF's fmod,
// exact): the scalar formulas.
template <typename T>
T remainder_reference(T a, T b) {
  T mod = std::fmod(a, b);
  if (mod != T(0) && (b < T(0)) != (mod < T(0))) mod += b;
  return mod;
}

// op(a, b) for every pair of `values` (over vector lanes and a scalar tail), on every ISA path,
// against reference(a, b), bit for bit (NaN: any NaN).
template <typename T, typename Op, typename Reference>
void check_binary(ST dtype, const std::vector<T>& values, const char* symbol, Op op,
                  Reference reference) {
  std::vector<T> a, b;
  for (T x : values) {
    for (T y : values) {
      if constexpr (std::is_integral_v<T>) {
        if (y == 0) continue;
      }
      a.push_back(x);
      b.push_back(y);
    }
  }
  a.push_back(values[1]);  // an odd count: a scalar tail
  b.push_back(values[2]);
  const int64_t n = static_cast<int64_t>(a.size());
  Tensor ta = native::empty({n}, dtype, kCpu), tb = native::empty({n}, dtype, kCpu);
  std::memcpy(ta.data_ptr<T>(), a.data(), a.size() * sizeof(T));
  std::memcpy(tb.data_ptr<T>(), b.data(), b.size() * sizeof(T));
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    const CpuCapability used = set_cpu_capability(c);
    const Tensor q = op(ta, tb);
    const T* got = q.data_ptr<T>();
    int failures = 0;
    for (size_t i = 0; i < a.size() && failures < 20; ++i) {
      const T want = reference(a[i], b[i]);
      bool same;
      if constexpr (std::is_integral_v<T>) {
        same = got[i] == want;
      } else {
        same = std::isnan(want) ? std::isnan(got[i]) : std::memcmp(&want, &got[i], sizeof(T)) == 0;
      }
      if (!same) ++failures;
      EXPECT_TRUE(same) << a[i] << " " << symbol << " " << b[i] << " = " << got[i] << ", want "
                        << want << " (" << dtype << ", " << cpu_capability_name(used) << ")";
    }
  }
  set_cpu_capability(CpuCapability::kAvx512);
}

template <typename T>
std::vector<T> floating_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      T(0.5),
                      T(1),
                      T(1.5),
                      T(2),
                      T(3),
                      T(7.25),
                      T(10),
                      T(0.1),
                      T(1e-3),
                      T(1e6),
                      T(1e30),
                      T(1e-30),
                      L::min(),
                      L::denorm_min(),
                      L::max(),
                      L::infinity(),
                      L::quiet_NaN(),
                      T(16777217),
                      T(2.5),
                      T(5.5),
                      T(4503599627370497.0)};
  const size_t n = v.size();
  for (size_t k = 0; k < n; ++k) v.push_back(-v[k]);
  for (int i = 0; i < 60; ++i) v.push_back(static_cast<T>(-3000 + 101.7 * i));
  return v;
}

// Values whose quotients are mostly not integers, so that whole vectors take floor division's
// path by one division (vec_division.h), with integers among them for the exact multiples.
template <typename T>
std::vector<T> ordinary_values() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-10, 10);
  std::vector<T> v;
  for (int i = 0; i < 90; ++i) {
    const T x = static_cast<T>(std::exp2(exponent(rng)));
    v.push_back(i % 2 ? -x : x);
  }
  for (int i = 1; i <= 10; ++i) v.push_back(static_cast<T>(i % 2 ? -3 * i : 3 * i));
  return v;
}

template <typename T>
std::vector<T> integer_values() {
  std::vector<T> v = {0,
                      1,
                      2,
                      3,
                      7,
                      10,
                      1000,
                      8388607,
                      8388608,
                      8388609,
                      16777217,
                      std::numeric_limits<T>::max(),
                      std::numeric_limits<T>::min()};
  if constexpr (sizeof(T) == 8) {
    for (int64_t x : {int64_t{1} << 52, (int64_t{1} << 52) + 1, int64_t{1} << 60}) v.push_back(x);
  }
  const size_t n = v.size();
  // Negated in unsigned arithmetic: the minimum wraps to itself, without signed overflow.
  for (size_t k = 1; k < n; ++k)
    v.push_back(static_cast<T>(-static_cast<std::make_unsigned_t<T>>(v[k])));
  for (int i = 0; i < 60; ++i) v.push_back(static_cast<T>(-2999 + 97 * i));
  return v;
}

template <typename T>
void check_floor_divide(ST dtype, const std::vector<T>& values) {
  check_binary(
      dtype, values, "//", [](const Tensor& a, const Tensor& b) { return floor_divide(a, b); },
      testing::floor_divide_reference<T>);
}

TEST(VectorMath, FloorDivideOnVectorsIsTheScalarFormulaBitForBit) {
  check_floor_divide<float>(ST::kFloat32, floating_values<float>());
  check_floor_divide<double>(ST::kFloat64, floating_values<double>());
  check_floor_divide<int32_t>(ST::kInt32, integer_values<int32_t>());
  check_floor_divide<int64_t>(ST::kInt64, integer_values<int64_t>());
}

TEST(VectorMath, FloorDivideOfOrdinaryValuesIsTheScalarFormulaBitForBit) {
  check_floor_divide<float>(ST::kFloat32, ordinary_values<float>());
  check_floor_divide<double>(ST::kFloat64, ordinary_values<double>());
}

// div(rounding_mode='trunc') runs DivTrunc on vectors (floating: trunc of the quotient, inline;
// int32 and int64: division in float or double).
template <typename T>
T div_trunc_reference(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // In unsigned arithmetic: the minimum wraps to itself, without signed overflow.
    if (b == T(-1)) return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a));
    return static_cast<T>(a / b);
  } else {
    return std::trunc(a / b);
  }
}

template <typename T>
void check_div_trunc(ST dtype, const std::vector<T>& values) {
  check_binary(
      dtype, values, "trunc/", [](const Tensor& a, const Tensor& b) { return div(a, b, "trunc"); },
      div_trunc_reference<T>);
}

TEST(VectorMath, TruncatedDivisionOnVectorsIsTheScalarFormulaBitForBit) {
  check_div_trunc<float>(ST::kFloat32, floating_values<float>());
  check_div_trunc<double>(ST::kFloat64, floating_values<double>());
  check_div_trunc<float>(ST::kFloat32, ordinary_values<float>());
  check_div_trunc<double>(ST::kFloat64, ordinary_values<double>());
  check_div_trunc<int32_t>(ST::kInt32, integer_values<int32_t>());
  check_div_trunc<int64_t>(ST::kInt64, integer_values<int64_t>());
}

template <typename T>
void check_remainder_and_fmod(ST dtype) {
  for (const std::vector<T>& values : {floating_values<T>(), ordinary_values<T>()}) {
    check_binary(
        dtype, values, "%", [](const Tensor& a, const Tensor& b) { return remainder(a, b); },
        remainder_reference<T>);
    check_binary(
        dtype, values, "fmod", [](const Tensor& a, const Tensor& b) { return fmod(a, b); },
        [](T a, T b) { return std::fmod(a, b); });
  }
}

TEST(VectorMath, RemainderAndFmodOnVectorsAreTheScalarFormulasBitForBit) {
  check_remainder_and_fmod<float>(ST::kFloat32);
  check_remainder_and_fmod<double>(ST::kFloat64);
}

}  // namespace
}  // namespace bp
