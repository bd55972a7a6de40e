// The vectorised unary ops (vector forms from sdk/iter/vec/vec_math.h, SLEEF) on every ISA path
// dispatch_cpu has (SSE2 with 16-byte vectors, AVX2 with 32, AVX-512 with 64 for kWideVectors
// functors) and their scalar tails: within the stated bounds of std::, special values as std::.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/iter/vec/cpu_capability.h"
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
  double ulps;  // the bound: SLEEF's 1 ulp (exp of float: Vectorized's polynomial, 2), + 0.5
};              // for the rounding of the reference

std::vector<UnaryCase> cases() {
  return {
      {"exp", [](const Tensor& x) { return exp(x); }, [](long double v) { return std::exp(v); },
       -90, 90, 2.5},
      {"log", [](const Tensor& x) { return log(x); }, [](long double v) { return std::log(v); }, -1,
       1e4, 1.5},
      {"sin", [](const Tensor& x) { return sin(x); }, [](long double v) { return std::sin(v); },
       -50, 50, 1.5},
      {"tanh", [](const Tensor& x) { return tanh(x); }, [](long double v) { return std::tanh(v); },
       -12, 12, 1.5},
      {"sigmoid", [](const Tensor& x) { return sigmoid(x); },
       [](long double v) { return 1 / (1 + std::exp(-v)); }, -80, 80, 4},
      {"erf", [](const Tensor& x) { return erf(x); }, [](long double v) { return std::erf(v); }, -5,
       5, 1.5},
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

}  // namespace
}  // namespace bp
