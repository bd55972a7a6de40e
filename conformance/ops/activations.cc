// Activation functions (relu, silu, elu, ...): PyTorch's semantics in wide precision, one entry
// each. None promotes: the result has self's dtype, and an out= must have it too (relu's takes
// any dtype, as clamp_min's).
#include <cmath>
#include <string>
#include <utility>

#include "conformance/families/pointwise.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

constexpr DtypeSet kBFloat16Float32Float64 = DtypeSet(ScalarType::kBFloat16) |
                                             DtypeSet(ScalarType::kFloat32) |
                                             DtypeSet(ScalarType::kFloat64);
constexpr DtypeSet kFloat32Float64 =
    DtypeSet(ScalarType::kFloat32) | DtypeSet(ScalarType::kFloat64);

// An op of self alone, in self's dtype, whose out= must have that dtype.
PointwiseSpec activation(std::string name, DtypeSet dtypes, ElementFn math,
                         std::vector<Kwargs> extra_kwargs = {}) {
  return PointwiseSpec{.name = std::move(name),
                       .dtypes = dtypes,
                       .tier = 2,
                       .math = std::move(math),
                       .extra_kwargs = std::move(extra_kwargs),
                       .out_dtype = OutDtypeRule::kExact,
                       .out_dtype_error = found_dtype};
}

double real_arg(const Ctx& c, const char* name, double fallback) {
  return c.scalar<double>(name, ScalarArg::real(fallback));
}

double softplus(double x) { return std::log(1.0L + std::exp(static_cast<long double>(x))); }

}  // namespace

void add_activation_entries(OpDatabase& db) {
  PointwiseSpec relu =
      activation("relu", kIntegral | kBFloat16Float32Float64, math<kIntOrRealKind>([](auto x) {
                   using T = decltype(x);
                   if constexpr (kIsReal<T>) {
                     return std::isnan(x) || !(x < 0) ? x : 0.0;
                   } else {
                     return x < Int(0) ? Int(0) : x;
                   }
                 }));
  relu.rejected = kBoolOnly;
  relu.rejected_message = "Boolean inputs not supported for relu";
  relu.out_dtype = OutDtypeRule::kFromOut;
  db.add(pointwise(std::move(relu)));

  db.add(pointwise(
      activation("silu", kBFloat16Float32Float64 | kComplex, math<kFloatingKind>([](auto x) {
                   using T = decltype(x);
                   return x / (T(1) + std::exp(-x));
                 }))));
  db.add(pointwise(activation("mish", kFloat32Float64, math<kRealKind>([](double x) {
                                return static_cast<double>(x * std::tanh(softplus(x)));
                              }))));
  db.add(pointwise(
      activation("elu", kBFloat16Float32Float64, math<kRealKind>([](double x, const Ctx& c) {
                   const double alpha = real_arg(c, "alpha", 1), scale = real_arg(c, "scale", 1),
                                input_scale = real_arg(c, "input_scale", 1);
                   // exp - 1, not expm1, as PyTorch: elu(-0.0) is +0.0 (times alpha * scale).
                   if (x > 0 || std::isnan(x)) return x * scale;
                   const long double e = std::exp(static_cast<long double>(x) * input_scale) - 1;
                   return static_cast<double>(e * (alpha * scale));
                 }),
                 {{{"alpha", Value(Scalar(0.5))}},
                  {{"alpha", Value(Scalar(2.0))}, {"scale", Value(Scalar(1.0507))}},
                  {{"input_scale", Value(Scalar(3.0))}, {"scale", Value(Scalar(-2.0))}}})));
  db.add(pointwise(activation(
      "leaky_relu", kBFloat16Float32Float64, math<kRealKind>([](double x, const Ctx& c) {
        return x > 0 ? x : x * real_arg(c, "negative_slope", 0.01);
      }),
      {{{"negative_slope", Value(Scalar(0.2))}}, {{"negative_slope", Value(Scalar(-3.0))}}})));

  // hardtanh is clamp: integral inputs take the bounds as integers (truncated).
  PointwiseSpec hardtanh =
      activation("hardtanh", kIntegral | kBFloat16Float32Float64,
                 math<kIntOrRealKind>([](auto x, const Ctx& c) {
                   using T = decltype(x);
                   const T lo = c.scalar<T>("min_val", ScalarArg::integer(-1));
                   const T hi = c.scalar<T>("max_val", ScalarArg::integer(1));
                   if constexpr (kIsReal<T>) {
                     if (std::isnan(x) || std::isnan(lo) || std::isnan(hi)) return T(NAN);
                   }
                   const T y = x < lo ? lo : x;
                   return hi < y ? hi : y;
                 }),
                 {{{"min_val", Value(Scalar(0.0))}, {"max_val", Value(Scalar(6.0))}},
                  {{"min_val", Value(Scalar(2.0))}, {"max_val", Value(Scalar(1.0))}}});
  hardtanh.rejected = kBoolOnly;
  hardtanh.rejected_message = "Bool inputs not supported for hardtanh";
  hardtanh.check = [](const RefArgs& a, ScalarType common) {
    if (common == ScalarType::kUInt8 &&
        (a.scalar("min_val", ScalarArg::integer(-1)).as_int() < Int(0) ||
         a.scalar("max_val", ScalarArg::integer(1)).as_int() < Int(0))) {
      throw RefError{"cannot do hardtanh on an unsigned type with negative limits"};
    }
  };
  db.add(pointwise(std::move(hardtanh)));

  db.add(pointwise(activation("hardsigmoid", kBFloat16Float32Float64, math<kRealKind>([](double x) {
                                if (std::isnan(x)) return x;
                                return x <= -3 ? 0.0 : x >= 3 ? 1.0 : (x + 3) / 6;
                              }))));
  // x * min(max(x + 3, 0), 6) / 6, PyTorch's order: the product is rounded to the compute
  // precision first, so it overflows for huge x (and -inf * 0 is NaN).
  db.add(pointwise(
      activation("hardswish", kBFloat16Float32Float64, math<kRealKind>([](double x, const Ctx& c) {
                   if (std::isnan(x)) return x;
                   const double m = x <= -3 ? 0.0 : x >= 3 ? 6.0 : x + 3;
                   return c.round_opmath(x * m) / 6;
                 }))));
  PointwiseSpec gelu = activation(
      "gelu", kBFloat16Float32Float64, math<kRealKind>([](double x, const Ctx& c) {
        const long double v = x;
        if (c.args().string("approximate").value_or("none") == "tanh") {
          const long double inner = std::sqrt(2.0L / M_PIl) * (v + 0.044715L * v * v * v);
          return static_cast<double>(0.5L * v * (1 + std::tanh(inner)));
        }
        return static_cast<double>(0.5L * v * (1 + std::erf(v / std::sqrt(2.0L))));
      }),
      {{{"approximate", Value("tanh")}}, {{"approximate", Value("none")}}});
  gelu.check_after_build = [](const RefArgs& a, ScalarType) {
    const std::string approximate = a.string("approximate").value_or("none");
    if (approximate != "none" && approximate != "tanh") {
      throw RefError{"approximate argument must be either none or tanh."};
    }
  };
  db.add(pointwise(std::move(gelu)));

  // threshold: value where x <= threshold; integers take both numbers truncated. An out= takes
  // any dtype the result can be cast to.
  PointwiseSpec threshold =
      activation("threshold", kIntegral | kBFloat16Float32Float64,
                 math<kIntOrRealKind>([](auto x, const Ctx& c) {
                   using T = decltype(x);
                   const T t = c.scalar<T>("threshold", ScalarArg::integer(0));
                   const T v = c.scalar<T>("value", ScalarArg::integer(0));
                   return x <= t ? v : x;  // NaN stays
                 }),
                 {{{"threshold", Value(Scalar(int64_t{0}))}, {"value", Value(Scalar(20.5))}}});
  threshold.kwargs = {{"threshold", Value(Scalar(1.5))}, {"value", Value(Scalar(int64_t{-2}))}};
  threshold.out_dtype = OutDtypeRule::kSafeCast;
  // threshold_ of an expanded tensor writes each shared element (PyTorch's meta function skips
  // the overlap check).
  threshold.inplace_allows_overlap = true;
  db.add(pointwise(std::move(threshold)));
  db.add(pointwise(activation(
      "softplus", kBFloat16Float32Float64, math<kRealKind>([](double x, const Ctx& c) {
        const double beta = real_arg(c, "beta", 1), threshold = real_arg(c, "threshold", 20);
        if (x * beta > threshold) return x;
        return static_cast<double>(std::log1p(std::exp(static_cast<long double>(x) * beta)) / beta);
      }),
      {{{"beta", Value(Scalar(2.0))}},
       {{"beta", Value(Scalar(0.5))}, {"threshold", Value(Scalar(1.0))}}})));
}

}  // namespace bp::conformance
