// Special functions (sdk/ops/special.yaml): references in long double, from Boost.Math and the
// C++ library, independent of the Cephes ports of reference_backend/math/special.h. Where Boost
// reports a pole, an overflow or a domain error, the reference gives PyTorch's value itself.
#include <cmath>
#include <complex>
#include <limits>

#include "boost/math/distributions/normal.hpp"
#include "boost/math/policies/policy.hpp"
#include "boost/math/special_functions/bessel.hpp"
#include "boost/math/special_functions/erf.hpp"
#include "boost/math/special_functions/gamma.hpp"
#include "boost/math/special_functions/polygamma.hpp"
#include "conformance/families/pointwise.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

using LD = long double;
namespace policies = boost::math::policies;
using Policy = policies::policy<policies::domain_error<policies::errno_on_error>,
                                policies::pole_error<policies::errno_on_error>,
                                policies::overflow_error<policies::errno_on_error>,
                                policies::evaluation_error<policies::errno_on_error>>;

// The dtypes PyTorch 1.13 computes only in float32 and float64 (integers and bool promote).
constexpr DtypeSet kFloat32And64 =
    kIntegral | kBoolOnly | DtypeSet(ScalarType::kFloat32) | DtypeSet(ScalarType::kFloat64);

PointwiseSpec special_op(std::string name, DtypeSet dtypes, ElementFn math,
                         Domain domain = Domain{}) {
  return PointwiseSpec{.name = std::move(name),
                       .dtypes = dtypes,
                       .tier = 2,
                       .operands = {{"self", std::nullopt, domain}},
                       .result = ResultDtype::kFloat,
                       .math = std::move(math)};
}

double erfinv_reference(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return NAN;
  if (x == 0) return x;  // odd: erfinv(-0) = -0
  if (std::fabs(x) == 1) return std::copysign(INFINITY, x);
  return static_cast<double>(boost::math::erf_inv(static_cast<LD>(x), Policy()));
}

// I0 and I1 (order 0 or 1), or exp(-|x|) times them (scaled). PyTorch computes the unscaled ones
// as exp(|x|) times the scaled one, so they overflow where exp(|x|) does in the compute dtype
// (|x| > 88.7 in float32, where I1 itself is still finite up to 91), and are nan at +-inf
// (inf * 0); the reference does the same. Beyond |x| = 1e4 (integer inputs' extremes) the scaled
// ones are the asymptotic series (1 - (4n^2 - 1) / (8|x|)) / sqrt(2 pi |x|).
double bessel_i_reference(int order, double x, bool scaled, const Ctx& c) {
  if (std::isnan(x)) return NAN;
  const LD a = std::fabs(static_cast<LD>(x));
  const double sign = order == 1 && x < 0 ? -1.0 : 1.0;
  if (!scaled) {
    if (std::isinf(x)) return NAN;
    const double max_log = c.compute() == ScalarType::kFloat64 ? 709.782712893384 : 88.7228391;
    if (a > max_log) return sign * INFINITY;
    return static_cast<double>(boost::math::cyl_bessel_i(order, static_cast<LD>(x), Policy()));
  }
  if (std::isinf(x)) return sign * 0.0;
  if (a > 1e4) {
    const LD mu = 4.0L * order * order;
    return sign *
           static_cast<double>((1 - (mu - 1) / (8 * a) + (mu - 1) * (mu - 9) / (128 * a * a)) /
                               std::sqrt(2 * 3.14159265358979323846264338327950288L * a));
  }
  return static_cast<double>(boost::math::cyl_bessel_i(order, static_cast<LD>(x), Policy()) *
                             std::exp(-a));
}

double ndtr_reference(double x) {
  return static_cast<double>(std::erfc(-static_cast<LD>(x) / std::sqrt(2.0L)) / 2);
}

double ndtri_reference(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return NAN;
  if (p == 0) return -INFINITY;
  if (p == 1) return INFINITY;
  return static_cast<double>(
      boost::math::quantile(boost::math::normal_distribution<LD, Policy>(), static_cast<LD>(p)));
}

// exp(x^2) erfc(x): directly in long double where erfc does not underflow, else the asymptotic
// series 1 / (sqrt(pi) x) (1 - 1 / (2x^2) + 3 / (4x^4) - ...).
LD erfcx_wide(LD x) {
  if (std::isnan(x)) return x;
  if (x < 100) return std::exp(x * x) * std::erfc(x);
  LD sum = 1, term = 1;
  for (int k = 1; k < 12; ++k) {
    term *= -(2 * k - 1) / (2 * x * x);
    sum += term;
  }
  return sum / (x * std::sqrt(3.14159265358979323846264338327950288L));
}

double log_ndtr_reference(double x) {
  if (std::isnan(x)) return NAN;
  const LD t = static_cast<LD>(x) / std::sqrt(2.0L);
  if (x < -1) return static_cast<double>(std::log(erfcx_wide(-t) / 2) - t * t);
  return static_cast<double>(std::log1p(-std::erfc(t) / 2));
}

double entr_reference(double x) {
  if (std::isnan(x)) return NAN;
  if (x > 0) return static_cast<double>(-static_cast<LD>(x) * std::log(static_cast<LD>(x)));
  return x == 0 ? 0.0 : -INFINITY;
}

// J0 and J1; nan at +-inf, as PyTorch (the cosine of an infinite phase).
double bessel_j_reference(int order, double x) {
  if (std::isnan(x) || std::isinf(x)) return NAN;
  if (x == 0) return order == 0 ? 1.0 : x;  // j1 is odd: j1(-0) = -0
  return static_cast<double>(boost::math::cyl_bessel_j(order, static_cast<LD>(x), Policy()));
}

// polygamma(n, x): Boost.Math's polygamma in long double, and the limits where Boost reports a
// pole or there is none: at 0, -1, -2, ... (-1)^(n+1) inf for n >= 1 (digamma's -inf at +0, +inf
// at -0 and nan at the negative integers for n = 0); at +inf digamma's inf, else (-1)^(n+1) 0;
// at -inf nan.
double polygamma_reference(int n, double x) {
  if (std::isnan(x)) return NAN;
  const double sign = n % 2 == 1 ? 1.0 : -1.0;  // (-1)^(n+1)
  if (x == INFINITY) return n == 0 ? INFINITY : sign * 0.0;
  if (x == -INFINITY) return NAN;
  if (x <= 0 && x == std::trunc(x))
    return n == 0 ? (x == 0 ? std::copysign(INFINITY, -x) : NAN) : sign * INFINITY;
  return static_cast<double>(boost::math::polygamma(n, static_cast<LD>(x), Policy()));
}

double mvlgamma_reference(double x, int64_t p) {
  if (std::isnan(x)) return NAN;
  LD sum = static_cast<LD>(p) * static_cast<LD>(p - 1) / 4 *
           std::log(3.14159265358979323846264338327950288L);
  for (int64_t j = p - 1; j >= 0; --j) sum += std::lgamma(static_cast<LD>(x) - j / 2.0L);
  return static_cast<double>(sum);
}

// xlogy and xlog1py: 0 where x is 0, nan where y is nan, else x log(y) (x log1p(y)).
double xlogy_reference(double x, double y, bool one_plus) {
  if (std::isnan(y)) return NAN;
  if (x == 0) return 0;
  const LD ly = static_cast<LD>(y);
  return static_cast<double>(static_cast<LD>(x) * (one_plus ? std::log1p(ly) : std::log(ly)));
}

// The Hurwitz zeta function sum_k (k + q)^-s for q > 0, by Euler-Maclaurin in long double: 40
// terms, then 12 Bernoulli corrections.
LD zeta_euler_maclaurin(LD s, LD q) {
  constexpr LD kB2j[12] = {1.0L / 6,       -1.0L / 30,       1.0L / 42,       -1.0L / 30,
                           5.0L / 66,      -691.0L / 2730,   7.0L / 6,        -3617.0L / 510,
                           43867.0L / 798, -174611.0L / 330, 854513.0L / 138, -236364091.0L / 2730};
  const int n = 40;
  LD sum = 0;
  for (int k = 0; k < n; ++k) sum += std::pow(k + q, -s);
  const LD w = n + q;
  sum += std::pow(w, 1 - s) / (s - 1) + std::pow(w, -s) / 2;
  LD rising = s, factorial = 2, power = std::pow(w, -s - 1);
  for (int j = 1; j <= 12; ++j) {
    sum += kB2j[j - 1] / factorial * rising * power;
    rising *= (s + 2 * j - 1) * (s + 2 * j);
    factorial *= (2 * j + 1) * (2 * j + 2);
    power /= w * w;
  }
  return sum;
}

// zeta(s, q): Boost.Math's polygamma for integer s in [2, 60) (zeta(s, q) = (-1)^s
// psi^(s-1)(q) / (s - 1)!), else Euler-Maclaurin, after summing the terms below zero directly
// for q < 0 (integer s; at most 1e6 of them, beyond that the same sum by its reflection).
// Special values as special.h states them: inf at s = 1 and at q = 0, -1, ...; nan for s < 1,
// for q < 0 unless s is an integer, at q = -inf; the limits 0 at q = +inf and at s = +inf (q > 1).
double zeta_reference(double s, double q) {
  if (s == 1) return INFINITY;
  if (std::isnan(s) || std::isnan(q) || s < 1) return NAN;
  if (q == INFINITY) return 0;
  if (q == -INFINITY) return NAN;
  if (q <= 0 && q == std::floor(q)) return INFINITY;
  if (q < 0 && s != std::floor(s)) return NAN;
  if (std::isinf(s)) return q < 0 ? NAN : (q > 1 ? 0 : (q == 1 ? 1 : INFINITY));
  const LD ls = s, lq = q;
  if (s < 60 && s == std::floor(s)) {
    const int n = static_cast<int>(s) - 1;
    const LD sign = n % 2 == 1 ? 1 : -1;  // (-1)^s
    return static_cast<double>(sign * boost::math::polygamma(n, lq, Policy()) / std::tgamma(ls));
  }
  if (q > 0) return static_cast<double>(zeta_euler_maclaurin(ls, lq));
  const LD below = std::floor(-lq) + 1;  // the terms with k + q < 0
  if (below > 1e6) {
    const LD f = lq - std::floor(lq);
    const LD sign = std::fmod(ls, 2.0L) == 0 ? 1 : -1;
    return static_cast<double>(
        zeta_euler_maclaurin(ls, f) +
        sign * (zeta_euler_maclaurin(ls, 1 - f) - zeta_euler_maclaurin(ls, 1 - lq)));
  }
  LD sum = 0;
  for (LD k = 0; k < below; ++k) sum += std::pow(k + lq, -ls);
  return static_cast<double>(sum + zeta_euler_maclaurin(ls, lq + below));
}

// The regularized incomplete gamma functions P(a, x) (igamma) and Q(a, x) (igammac): Boost.Math's
// gamma_p and gamma_q in long double, after PyTorch's (SciPy's) boundary values in its order.
double igamma_reference(double a, double x, bool upper) {
  if (x < 0 || a < 0) return NAN;
  if (a == 0) return x > 0 ? (upper ? 0 : 1) : NAN;
  if (x == 0) return upper ? 1 : 0;
  if (std::isinf(a)) return std::isinf(x) ? NAN : (upper ? 1 : 0);
  if (std::isinf(x)) return upper ? 0 : 1;
  if (std::isnan(a) || std::isnan(x)) return NAN;
  const LD la = a, lx = x;
  return static_cast<double>(upper ? boost::math::gamma_q(la, lx, Policy())
                                   : boost::math::gamma_p(la, lx, Policy()));
}

PointwiseSpec special_binary_op(std::string name, DtypeSet dtypes, ElementFn math,
                                ResultDtype result, Domain self_domain = Domain{},
                                Domain other_domain = Domain{}) {
  return PointwiseSpec{
      .name = std::move(name),
      .dtypes = dtypes,
      .tier = 2,
      .operands = {{"self", std::nullopt, self_domain}, {"other", std::nullopt, other_domain}},
      .result = result,
      .math = std::move(math)};
}

// The Scalar overloads of a binary special function: `self_scalar` (a number for self, from
// `selves`) and `other_scalar` (a number for other, from `others`; self from `self_domain`).
void add_scalar_overloads(OpDatabase& db, std::string self_scalar, std::string other_scalar,
                          DtypeSet dtypes, ElementFn math, std::vector<Scalar> selves,
                          std::vector<Scalar> others, Domain self_domain = Domain{}) {
  db.add(pointwise({.name = std::move(self_scalar),
                    .dtypes = dtypes,
                    .tier = 2,
                    .operands = {{"other"}},
                    .scalar_operands = {"self"},
                    .scalars = std::move(selves),
                    .result = ResultDtype::kFloat,
                    .math = scalar_first(math)}));
  db.add(pointwise({.name = std::move(other_scalar),
                    .dtypes = dtypes,
                    .tier = 2,
                    .operands = {{"self", std::nullopt, self_domain}},
                    .scalar_operands = {"other"},
                    .scalars = std::move(others),
                    .result = ResultDtype::kFloat,
                    .math = std::move(math)}));
}

}  // namespace

void add_special_entries(OpDatabase& db) {
  db.add(pointwise(special_op("lgamma", kAllButComplex, math<kRealKind>([](double x) {
                                return static_cast<double>(std::lgamma(static_cast<LD>(x)));
                              }))));
  db.add(pointwise(special_op("erfinv", kAllButComplex, math<kRealKind>(erfinv_reference),
                              Domain{.low = -1, .high = 1})));
  db.add(pointwise(special_op("i0", kAllButComplex, math<kRealKind>([](double x, const Ctx& c) {
                                return bessel_i_reference(0, x, false, c);
                              }))));
  db.add(pointwise(special_op(
      "special_i0e", kAllButComplex,
      math<kRealKind>([](double x, const Ctx& c) { return bessel_i_reference(0, x, true, c); }))));
  db.add(pointwise(special_op(
      "special_i1", kFloat32And64,
      math<kRealKind>([](double x, const Ctx& c) { return bessel_i_reference(1, x, false, c); }))));
  db.add(pointwise(special_op(
      "special_i1e", kFloat32And64,
      math<kRealKind>([](double x, const Ctx& c) { return bessel_i_reference(1, x, true, c); }))));
  db.add(pointwise(special_op("sinc", kAllDtypes, math<kFloatingKind>([](auto x) {
                                using T = decltype(x);
                                if (x == T(0)) return T(1);
                                const long double pi = 3.14159265358979323846264338327950288L;
                                if constexpr (kIsComplex<T>) {
                                  const std::complex<LD> p(pi * x.real(), pi * x.imag());
                                  const std::complex<LD> r = std::sin(p) / p;
                                  return T(static_cast<double>(r.real()),
                                           static_cast<double>(r.imag()));
                                } else {
                                  const LD p = pi * x;
                                  return static_cast<T>(std::sin(p) / p);
                                }
                              }))));
  db.add(pointwise(special_op("special_ndtr", kAllButComplex, math<kRealKind>(ndtr_reference))));
  db.add(pointwise(special_op("special_ndtri", kFloat32And64, math<kRealKind>(ndtri_reference),
                              Domain{.low = 0, .high = 1})));
  db.add(pointwise(
      special_op("special_log_ndtr", kFloat32And64, math<kRealKind>(log_ndtr_reference))));
  db.add(pointwise(special_op("special_erfcx", kFloat32And64, math<kRealKind>([](double x) {
                                return static_cast<double>(erfcx_wide(static_cast<LD>(x)));
                              }))));
  db.add(pointwise(special_op("special_entr", kAllButComplex, math<kRealKind>(entr_reference))));
  db.add(pointwise(special_op("special_bessel_j0", kFloat32And64,
                              math<kRealKind>([](double x) { return bessel_j_reference(0, x); }))));
  db.add(pointwise(special_op("special_bessel_j1", kFloat32And64,
                              math<kRealKind>([](double x) { return bessel_j_reference(1, x); }))));
  // polygamma(n, self): the exact value and its limits (polygamma_reference), which differ from
  // PyTorch 1.13's at the poles and infinities and from its float trigamma next to the poles
  // (docs/pytorch_parity.md, polygamma-exact).
  db.add(pointwise({.name = "polygamma",
                    .dtypes = kAllButComplex,
                    .tier = 2,
                    .result = ResultDtype::kFloat,
                    .math = math<kRealKind>([](double x, const Ctx& c) {
                      return polygamma_reference(static_cast<int>(c.args().integer("n", 0)), x);
                    }),
                    .check =
                        [](const RefArgs& a, ScalarType) {
                          if (a.integer("n", 0) < 0) {
                            throw RefError{"polygamma(n, x) does not support negative n."};
                          }
                        },
                    .kwargs = {{"n", Value(int64_t{2})}},
                    .extra_kwargs = {{{"n", Value(int64_t{0})}},
                                     {{"n", Value(int64_t{1})}},
                                     {{"n", Value(int64_t{3})}},
                                     {{"n", Value(int64_t{-1})}}}}));
  // mvlgamma(self, p): p (p - 1) / 4 log(pi) + sum_j lgamma(x - j / 2) in long double; no domain
  // check (PyTorch 1.13 has none).
  db.add(pointwise(
      {.name = "mvlgamma",
       .dtypes = kAllButComplex - kBoolOnly,
       .tier = 2,
       .result = ResultDtype::kFloat,
       .math = math<kRealKind>(
           [](double x, const Ctx& c) { return mvlgamma_reference(x, c.args().integer("p", 1)); }),
       .check =
           [](const RefArgs& a, ScalarType) {
             if (a.integer("p", 1) < 1) {
               throw RefError{"p has to be greater than or equal to 1"};
             }
           },
       .rejected = kBoolOnly,
       .rejected_message = "The input tensor may not be a boolean tensor.",
       .kwargs = {{"p", Value(int64_t{2})}},
       .extra_kwargs = {
           {{"p", Value(int64_t{1})}}, {{"p", Value(int64_t{5})}}, {{"p", Value(int64_t{0})}}}}));
  add_alias(db, "special_gammaln", "lgamma");
  add_alias(db, "special_erfinv", "erfinv");
  add_alias(db, "special_i0", "i0");
  add_alias(db, "special_sinc", "sinc");
  add_alias(db, "special_polygamma", "polygamma");
  add_alias(db, "special_multigammaln", "mvlgamma");
  db.add(pointwise(special_binary_op(
      "xlogy.Tensor", kAllButComplex,
      math<kRealKind>([](double x, double y) { return xlogy_reference(x, y, false); }),
      ResultDtype::kFloat)));
  db.add(pointwise(special_binary_op(
      "special_xlog1py", kAllButComplex,
      math<kRealKind>([](double x, double y) { return xlogy_reference(x, y, true); }),
      ResultDtype::kFloat)));
  // s from [1, 12] (below 1 zeta is nan), q from [-10, 10] (nan for q < 0 unless s is an
  // integer: the integral dtypes' samples).
  db.add(pointwise(special_binary_op("special_zeta", kFloat32And64, math<kRealKind>(zeta_reference),
                                     ResultDtype::kFloat, Domain{.low = 1, .high = 12})));
  // a and x from [0, 20], where P and Q are not nan.
  db.add(pointwise(special_binary_op(
      "igamma", kFloating,
      math<kRealKind>([](double a, double x) { return igamma_reference(a, x, false); }),
      ResultDtype::kCommon, Domain{.low = 0, .high = 20}, Domain{.low = 0, .high = 20})));
  db.add(pointwise(special_binary_op(
      "igammac", kFloating,
      math<kRealKind>([](double a, double x) { return igamma_reference(a, x, true); }),
      ResultDtype::kCommon, Domain{.low = 0, .high = 20}, Domain{.low = 0, .high = 20})));
  add_alias(db, "special_xlogy", "xlogy.Tensor");
  add_scalar_overloads(
      db, "xlogy.Scalar_Self", "xlogy.Scalar_Other", kAllButComplex,
      math<kRealKind>([](double x, double y) { return xlogy_reference(x, y, false); }),
      {Scalar(int64_t{0}), Scalar(int64_t{3}), Scalar(-2.5), Scalar(true)},
      {Scalar(int64_t{0}), Scalar(2.5), Scalar(-1.5), Scalar(true)});
  add_scalar_overloads(
      db, "special_xlog1py.self_scalar", "special_xlog1py.other_scalar", kAllButComplex,
      math<kRealKind>([](double x, double y) { return xlogy_reference(x, y, true); }),
      {Scalar(int64_t{0}), Scalar(int64_t{3}), Scalar(-2.5), Scalar(true)},
      {Scalar(int64_t{0}), Scalar(2.5), Scalar(-1.5), Scalar(true)});
  // s a number from [1, 12], or q a number (nan below 0 unless s is an integer).
  add_scalar_overloads(
      db, "special_zeta.self_scalar", "special_zeta.other_scalar", kFloat32And64,
      math<kRealKind>(zeta_reference), {Scalar(int64_t{2}), Scalar(3.5), Scalar(true)},
      {Scalar(int64_t{3}), Scalar(0.5), Scalar(-2.5), Scalar(true)}, Domain{.low = 1, .high = 12});
  add_alias(db, "special_xlogy.self_scalar", "xlogy.Scalar_Self");
  add_alias(db, "special_xlogy.other_scalar", "xlogy.Scalar_Other");
  add_alias(db, "special_gammainc", "igamma");
  add_alias(db, "special_gammaincc", "igammac");
}

}  // namespace bp::conformance
