// Unary pointwise ops: PyTorch's semantics in wide precision, one entry each.
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include "boost/math/special_functions/digamma.hpp"
#include "conformance/families/pointwise.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

// Float ops: integral and bool inputs compute in float32; complex inputs where PyTorch has them.
PointwiseSpec float_op(std::string name, DtypeSet dtypes, ElementFn math, int tier = 1) {
  return PointwiseSpec{.name = name,
                       .dtypes = dtypes,
                       .tier = tier,
                       .result = ResultDtype::kFloat,
                       .math = std::move(math)};
}

double dtype_max(ScalarType t) {
  switch (t) {
    case ScalarType::kFloat16:
      return 65504.0;
    case ScalarType::kBFloat16:
      return 3.3895313892515355e38;
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

// nan_to_num of one real part.
double nan_to_num(double x, const Ctx& c) {
  const RefArgs& a = c.args();
  if (std::isnan(x)) return a.optional_real("nan").value_or(0.0);
  if (x == INFINITY) return a.optional_real("posinf").value_or(dtype_max(c.compute()));
  if (x == -INFINITY) return a.optional_real("neginf").value_or(-dtype_max(c.compute()));
  return x;
}

// digamma's reference: Boost.Math (an independent implementation, in long double), with PyTorch's
// values where Boost reports a pole or domain error: psi(+-0) = -+inf, nan at negative integers.
double digamma_reference(double x) {
  if (x == 0) return std::copysign(INFINITY, -x);
  if (std::isnan(x) || (x < 0 && x == std::trunc(x))) return NAN;
  if (std::isinf(x)) return INFINITY;
  return static_cast<double>(boost::math::digamma(static_cast<long double>(x)));
}

// sign in wide precision: 1, 0 or -1 (0 for NaN and both zeros); bool: itself.
template <typename T>
T sign_of(T x, const Ctx& c) {
  if constexpr (kIsInt<T>) {
    if (c.compute() == ScalarType::kBool) return x;
  }
  return T((T(0) < x) - (x < T(0)));
}

// round(decimals=d) as PyTorch computes it: x * 10^d (or x / 10^-d) rounded to the compute
// precision, to the nearest integer (ties to even), then scaled back.
double round_decimals(double x, const Ctx& c) {
  const int64_t d = c.args().scalar("decimals", ScalarArg::integer(0)).as_int().v;
  const double ten = c.round_opmath(std::pow(10.0, static_cast<double>(d < 0 ? -d : d)));
  if (d < 0) return c.round_opmath(std::nearbyint(c.round_opmath(x / ten)) * ten);
  return c.round_opmath(std::nearbyint(c.round_opmath(x * ten)) / ten);
}

// logit with PyTorch's eps: x clamped to [eps, 1 - eps] when eps >= 0 (None: no clamp).
double logit(double x, const Ctx& c) {
  const std::optional<double> eps = c.args().optional_real("eps");
  if (eps && *eps >= 0) x = x < *eps ? *eps : (x > 1 - *eps ? 1 - *eps : x);
  return std::log(x / (1 - x));
}

}  // namespace

void add_unary_entries(OpDatabase& db) {
  db.add(pointwise(
      {.name = "abs",
       .dtypes = kAllButBool,
       .result = ResultDtype::kComplexToReal,
       .math = math<kAnyKind>([](auto x) {
         using T = decltype(x);
         if constexpr (kIsComplex<T>) {
           return T(std::abs(x));
         } else if constexpr (kIsReal<T>) {
           return std::fabs(x);
         } else {
           return x < Int(0) ? -x : x;
         }
       }),
       // Real inputs need an out of their dtype, complex ones take any: unchecked.
       .out_dtype = OutDtypeRule::kFromOut,
       .inplace_rejected = kComplex,
       .inplace_rejected_message = "In-place abs is not supported for complex tensors."}));
  db.add(pointwise({.name = "neg",
                    .dtypes = kAllButBool,
                    .math = math<kAnyKind>([](auto x) { return -x; }),
                    .rejected = kBoolOnly,
                    .rejected_message =
                        "Negation, the `-` operator, on a bool tensor is not supported. If you "
                        "are trying to invert a mask, use the `~` or `logical_not()` operator "
                        "instead.",
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  db.add(pointwise(
      float_op("exp", kAllDtypes, math<kFloatingKind>([](auto x) { return std::exp(x); }))));
  db.add(pointwise(
      float_op("log", kAllDtypes, math<kFloatingKind>([](auto x) { return std::log(x); }))));
  db.add(pointwise(
      float_op("sqrt", kAllDtypes, math<kFloatingKind>([](auto x) { return std::sqrt(x); }))));
  db.add(pointwise(
      float_op("sin", kAllDtypes, math<kFloatingKind>([](auto x) { return std::sin(x); }))));
  db.add(pointwise(
      float_op("tanh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::tanh(x); }))));
  db.add(pointwise(float_op("sigmoid", kAllDtypes, math<kFloatingKind>([](auto x) {
                              using T = decltype(x);
                              return T(1) / (T(1) + std::exp(-x));
                            }))));
  db.add(pointwise(
      float_op("erf", kAllButComplex, math<kRealKind>([](double x) { return std::erf(x); }))));
  db.add(pointwise(float_op("digamma", kAllButComplex, math<kRealKind>(digamma_reference), 2)));
  db.add(pointwise(float_op("reciprocal", kAllDtypes, math<kFloatingKind>([](auto x) {
                              using T = decltype(x);
                              return T(1) / x;
                            }))));
  db.add(pointwise({.name = "ceil",
                    .dtypes = kAllTypes,
                    .math = math<kIntOrRealKind>([](auto x) {
                      if constexpr (kIsReal<decltype(x)>) {
                        return std::ceil(x);
                      } else {
                        return x;  // integers are their own ceiling
                      }
                    }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  db.add(pointwise({.name = "isnan",
                    .dtypes = kAllDtypes,
                    .operands = {{"self", std::nullopt, Domain{.complex_specials = true}}},
                    .result = ResultDtype::kBool,
                    .math = math<kAnyKind>([](auto x) {
                      using T = decltype(x);
                      if constexpr (kIsComplex<T>) {
                        return std::isnan(x.real()) || std::isnan(x.imag());
                      } else if constexpr (kIsReal<T>) {
                        return std::isnan(x);
                      } else {
                        return false;
                      }
                    })}));
  db.add(pointwise({.name = "logical_not",
                    .dtypes = kAllDtypes,
                    .result = ResultDtype::kBool,
                    .math = math<kAnyKind>([](auto x) { return x == decltype(x)(0); })}));
  db.add(pointwise({.name = "bitwise_not",
                    .dtypes = kIntegral | kBoolOnly,
                    .math = math<kIntKind>([](Int x, const Ctx& c) {
                      return c.compute() == ScalarType::kBool ? Int(x == Int(0)) : ~x;
                    }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  db.add(pointwise({
      .name = "nan_to_num",
      .dtypes = kAllDtypes,
      .operands = {{"self", std::nullopt, Domain{.complex_specials = true}}},
      .math = math<kAnyKind>([](auto x, const Ctx& c) {
        using T = decltype(x);
        if constexpr (kIsComplex<T>) {
          return T(nan_to_num(x.real(), c), nan_to_num(x.imag(), c));
        } else if constexpr (kIsReal<T>) {
          return nan_to_num(x, c);
        } else {
          return x;  // integral and bool tensors are copied
        }
      }),
      .extra_kwargs = {{{"nan", Value(1.5)}, {"posinf", Value(100.0)}, {"neginf", Value(-100.0)}},
                       {{"posinf", Value(-7.0)}}},
      .out_dtype = OutDtypeRule::kExact,
      .out_dtype_error =
          [](ScalarType expected, ScalarType given) {
            return "nan_to_num: dtype of out: " + std::string(scalar_type_name(given)) +
                   " should be same as input: " + std::string(scalar_type_name(expected));
          },
  }));
  // ---- Tier 2 ----
  const auto real = [&](const char* name, double (*f)(double)) {
    db.add(pointwise(float_op(name, kAllButComplex, math<kRealKind>(f), 2)));
  };
  real("exp2", [](double x) { return std::exp2(x); });
  real("expm1", [](double x) { return std::expm1(x); });
  real("log1p", [](double x) { return std::log1p(x); });
  real("erfc", [](double x) { return std::erfc(x); });
  db.add(pointwise(
      float_op("cos", kAllDtypes, math<kFloatingKind>([](auto x) { return std::cos(x); }), 2)));
  db.add(pointwise(
      float_op("tan", kAllDtypes, math<kFloatingKind>([](auto x) { return std::tan(x); }), 2)));
  db.add(pointwise(
      float_op("asin", kAllDtypes, math<kFloatingKind>([](auto x) { return std::asin(x); }), 2)));
  db.add(pointwise(
      float_op("acos", kAllDtypes, math<kFloatingKind>([](auto x) { return std::acos(x); }), 2)));
  db.add(pointwise(
      float_op("atan", kAllDtypes, math<kFloatingKind>([](auto x) { return std::atan(x); }), 2)));
  db.add(pointwise(
      float_op("sinh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::sinh(x); }), 2)));
  db.add(pointwise(
      float_op("cosh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::cosh(x); }), 2)));
  db.add(pointwise(
      float_op("asinh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::asinh(x); }), 2)));
  db.add(pointwise(
      float_op("acosh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::acosh(x); }), 2)));
  db.add(pointwise(
      float_op("atanh", kAllDtypes, math<kFloatingKind>([](auto x) { return std::atanh(x); }), 2)));
  db.add(pointwise(
      float_op("log10", kAllDtypes, math<kFloatingKind>([](auto x) { return std::log10(x); }), 2)));
  db.add(pointwise(float_op("log2", kAllDtypes, math<kFloatingKind>([](auto x) {
                              if constexpr (kIsComplex<decltype(x)>) {
                                return std::log(x) / std::log(2.0);
                              } else {
                                return std::log2(x);
                              }
                            }),
                            2)));
  db.add(pointwise(
      float_op("rsqrt", kAllDtypes,
               math<kFloatingKind>([](auto x) { return decltype(x)(1) / std::sqrt(x); }), 2)));
  PointwiseSpec logit_spec = float_op("logit", kAllButComplex, math<kRealKind>(logit), 2);
  logit_spec.extra_kwargs = {{{"eps", Value(0.25)}}, {{"eps", Value(-0.5)}}, {{"eps", Value(0.0)}}};
  db.add(pointwise(std::move(logit_spec)));
  for (const auto& [name, factor] :
       {std::pair{"deg2rad", M_PI / 180}, std::pair{"rad2deg", 180 / M_PI}}) {
    PointwiseSpec spec =
        float_op(name, kAllButComplex, math<kRealKind>([factor](double x, const Ctx& c) {
                   return c.round_opmath(x * c.round_opmath(factor));
                 }),
                 2);
    spec.rejected = kComplex;
    spec.rejected_message = std::string(name) + " is not supported for complex tensors.";
    db.add(pointwise(std::move(spec)));
  }
  for (const auto& [name, f] : {std::pair{"floor", +[](double x) { return std::floor(x); }},
                                std::pair{"trunc", +[](double x) { return std::trunc(x); }},
                                std::pair{"round", +[](double x) { return std::nearbyint(x); }}}) {
    db.add(pointwise({.name = name,
                      .dtypes = kAllTypes,
                      .tier = 2,
                      .math = math<kIntOrRealKind>([f](auto x) {
                        if constexpr (kIsReal<decltype(x)>) {
                          return f(x);
                        } else {
                          return x;  // integers are their own
                        }
                      }),
                      .out_dtype = OutDtypeRule::kExact,
                      .out_dtype_error = found_dtype}));
  }
  db.add(pointwise(
      {.name = "round.decimals",
       .dtypes = kFloating,
       .tier = 2,
       .math = math<kRealKind>(round_decimals),
       .kwargs = {{"decimals", Value(int64_t{2})}},
       .extra_kwargs = {{{"decimals", Value(int64_t{-1})}}, {{"decimals", Value(int64_t{0})}}},
       .out_dtype = OutDtypeRule::kExact,
       .out_dtype_error = found_dtype}));
  db.add(pointwise({.name = "frac",
                    .dtypes = kFloating,
                    .tier = 2,
                    .math = math<kRealKind>(
                        [](double x, const Ctx& c) { return c.round_opmath(x - std::trunc(x)); }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  db.add(
      pointwise({.name = "sign",
                 .dtypes = kAllButComplex,
                 .tier = 2,
                 .math = math<kIntOrRealKind>([](auto x, const Ctx& c) { return sign_of(x, c); }),
                 .rejected = kComplex,
                 .rejected_message = "Unlike NumPy, torch.sign is not intended to support complex "
                                     "numbers. Please use torch.sgn instead.",
                 .out_dtype = OutDtypeRule::kExact,
                 .out_dtype_error = found_dtype}));
  db.add(pointwise({.name = "sgn",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .math = math<kAnyKind>([](auto x, const Ctx& c) {
                      using T = decltype(x);
                      if constexpr (kIsComplex<T>) {
                        return x == T(0) ? T(0) : x / std::abs(x);
                      } else {
                        return sign_of(x, c);
                      }
                    }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  db.add(pointwise({.name = "angle",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .operands = {{"self", std::nullopt, Domain{.complex_specials = true}}},
                    .result = ResultDtype::kFloatComplexToReal,
                    .math = math<kFloatingKind>([](auto x) -> double {
                      if constexpr (kIsComplex<decltype(x)>) {
                        return std::arg(x);
                      } else {
                        return std::isnan(x) ? x : (x < 0 ? M_PI : 0.0);
                      }
                    }),
                    .out_dtype = OutDtypeRule::kFromOut}));
  db.add(pointwise({.name = "conj_physical",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .math = math<kAnyKind>([](auto x) {
                      if constexpr (kIsComplex<decltype(x)>) {
                        return std::conj(x);
                      } else {
                        return x;
                      }
                    }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype}));
  // isposinf, isneginf and signbit write bool outputs only.
  const auto predicate = [&](const char* name, DtypeSet dtypes, ElementFn fn) {
    PointwiseSpec spec{.name = name,
                       .dtypes = dtypes,
                       .tier = 2,
                       .operands = {{"self", std::nullopt, Domain{.complex_specials = true}}},
                       .result = ResultDtype::kBool,
                       .math = std::move(fn)};
    if (dtypes.has(ScalarType::kComplex64)) {
      db.add(pointwise(std::move(spec)));
      return;
    }
    spec.rejected = kComplex;
    spec.rejected_message = std::string(name) + (std::string_view(name) == "signbit"
                                                     ? " is not implemented for complex tensors."
                                                     : " does not support complex inputs.");
    spec.out_dtype = OutDtypeRule::kExact;
    spec.out_dtype_error = [name](ScalarType, ScalarType) {
      return std::string(name) + " does not support non-boolean outputs.";
    };
    db.add(pointwise(std::move(spec)));
  };
  predicate("isinf", kAllDtypes, math<kAnyKind>([](auto x) {
              if constexpr (kIsComplex<decltype(x)>) {
                return std::isinf(x.real()) || std::isinf(x.imag());
              } else if constexpr (kIsReal<decltype(x)>) {
                return std::isinf(x);
              } else {
                return false;
              }
            }));
  predicate("isfinite", kAllDtypes, math<kAnyKind>([](auto x) {
              if constexpr (kIsComplex<decltype(x)>) {
                return std::isfinite(x.real()) && std::isfinite(x.imag());
              } else if constexpr (kIsReal<decltype(x)>) {
                return std::isfinite(x);
              } else {
                return true;
              }
            }));
  predicate("isposinf", kAllButComplex, math<kIntOrRealKind>([](auto x) {
              if constexpr (kIsReal<decltype(x)>) return x == INFINITY;
              return false;
            }));
  predicate("isneginf", kAllButComplex, math<kIntOrRealKind>([](auto x) {
              if constexpr (kIsReal<decltype(x)>) return x == -INFINITY;
              return false;
            }));
  predicate("signbit", kAllButComplex, math<kIntOrRealKind>([](auto x) {
              if constexpr (kIsReal<decltype(x)>) {
                return std::signbit(x);
              } else {
                return x < decltype(x)(0);
              }
            }));
  // square is pow(self, 2): bool squares to int64, as pow with an integer exponent promotes.
  db.add(pointwise({.name = "square",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .result_dtype =
                        [](const RefArgs&, ScalarType common) {
                          return common == ScalarType::kBool ? ScalarType::kInt64 : common;
                        },
                    .math = math<kAnyKind>([](auto x, const Ctx& c) {
                      if constexpr (kIsInt<decltype(x)>) {
                        return c.wrap(x * x);
                      } else {
                        return x * x;
                      }
                    }),
                    .out_dtype = OutDtypeRule::kExact,
                    .out_dtype_error = found_dtype,
                    .inplace_dtype_error = found_dtype}));
  for (const auto& [alias, target] : std::initializer_list<std::pair<const char*, const char*>>{
           {"absolute", "abs"},
           {"negative", "neg"},
           {"arccos", "acos"},
           {"arcsin", "asin"},
           {"arctan", "atan"},
           {"arccosh", "acosh"},
           {"arcsinh", "asinh"},
           {"arctanh", "atanh"},
           {"fix", "trunc"},
           {"special_expm1", "expm1"},
           {"special_exp2", "exp2"},
           {"special_log1p", "log1p"},
           {"special_erf", "erf"},
           {"special_erfc", "erfc"},
           {"special_digamma", "digamma"},
           {"special_psi", "digamma"},
           {"special_expit", "sigmoid"},
           {"special_logit", "logit"},
           {"special_round", "round.decimals"}}) {
    add_alias(db, alias, target);
  }
}

}  // namespace bp::conformance
