// Unary pointwise ops: PyTorch's semantics in wide precision, one entry each.
#include <cmath>
#include <limits>

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
}

}  // namespace bp::conformance
