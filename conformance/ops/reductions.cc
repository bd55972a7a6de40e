// Reductions: PyTorch's semantics with plain loops in wide precision (sums in double or wrapping
// int64, NaN propagation, first-occurrence indices, empty inputs).
#include <cmath>
#include <limits>

#include "conformance/families/reduction.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

std::string name_of(ScalarType t) { return std::string(scalar_type_name(t)); }

ScalarType real_counterpart(ScalarType t) {
  if (t == ScalarType::kComplex64) return ScalarType::kFloat32;
  if (t == ScalarType::kComplex128) return ScalarType::kFloat64;
  return t;
}

// sum and prod: dtype=, else int64 for bool and integral inputs.
std::vector<ScalarType> accumulate_dtype(const RefArgs& a, ScalarType self) {
  if (auto t = a.dtype("dtype")) return {*t};
  return {is_integral(self, /*include_bool=*/true) ? ScalarType::kInt64 : self};
}

std::vector<Wide> sum_of(const std::vector<Wide>& xs, const ReductionContext& c) {
  if (kind_of(c.input) == Kind::kInt) {
    Int s(0);
    for (const Wide& x : xs) s = s + Int(x.i);
    return {from_int(s)};
  }
  cd s(0, 0);
  for (const Wide& x : xs) s += x.z;
  return {kind_of(c.input) == Kind::kReal ? from_real(s.real()) : from_complex(s)};
}

std::vector<Wide> prod_of(const std::vector<Wide>& xs, const ReductionContext& c) {
  if (kind_of(c.input) == Kind::kInt) {
    Int p(1);
    for (const Wide& x : xs) p = p * Int(x.i);
    return {from_int(p)};
  }
  if (kind_of(c.input) == Kind::kReal) {
    double p = 1;
    for (const Wide& x : xs) p *= x.z.real();
    return {from_real(p)};
  }
  cd p(1, 0);
  for (const Wide& x : xs) p *= x.z;
  return {from_complex(p)};
}

bool is_nan(const Wide& x, ScalarType t) {
  return kind_of(t) != Kind::kInt && std::isnan(x.z.real());
}

// The index of the maximum, first occurrence; a NaN is the maximum (the first NaN).
size_t argmax_of(const std::vector<Wide>& xs, ScalarType t) {
  size_t best = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (is_nan(xs[i], t)) return i;
    if (kind_of(t) == Kind::kInt ? xs[i].i > xs[best].i : xs[i].z.real() > xs[best].z.real()) {
      best = i;
    }
  }
  return best;
}

std::vector<Sample> integral_mean_sample(ScalarType dtype, ValueSource& src) {
  if (dtype != ScalarType::kFloat32) return {};
  Sample s;
  s.add("self", make_tensor(src, ScalarType::kInt64, {3, 4}, Layout::kContiguous));
  s.add("dim", Value(std::vector<int64_t>{0}));
  s.note = "error: an integral input without dtype=";
  return {s};
}

double norm_order(const RefArgs& a) {
  const std::optional<ScalarArg> p = a.optional_scalar("p");
  return p ? p->as_real() : 2.0;
}

}  // namespace

void add_reduction_entries(OpDatabase& db) {
  db.add(reduction({.name = "sum.dim_IntList",
                    .out = "sum.IntList_out",
                    .dtypes = kAllDtypes,
                    .dim = DimArg::kOptionalList,
                    .result_dtypes = accumulate_dtype,
                    .reduce = sum_of,
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut}));
  db.add(reduction({.name = "mean.dim",
                    .out = "mean.out",
                    .dtypes = kFloatingAndComplex,
                    .dim = DimArg::kOptionalList,
                    .result_dtypes =
                        [](const RefArgs& a, ScalarType self) {
                          return std::vector<ScalarType>{a.dtype("dtype").value_or(self)};
                        },
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext& c) {
                          Wide s = sum_of(xs, c)[0];
                          s.z /= static_cast<double>(xs.size());
                          return std::vector<Wide>{s};
                        },
                    .check =
                        [](const RefArgs& a, const std::vector<bool>&) {
                          const ScalarType t = a.tensor("self").dtype;
                          if (!a.dtype("dtype") && is_integral(t, /*include_bool=*/true)) {
                            throw RefError{
                                "mean(): could not infer output dtype. Input dtype must be either "
                                "a floating point or complex dtype. Got: " +
                                name_of(t)};
                          }
                        },
                    .dtype_kwargs = {ScalarType::kFloat64},
                    .out_dtype = OutDtypeRule::kFromOut,
                    .extra_samples = integral_mean_sample}));
  db.add(reduction({.name = "prod.dim_int",
                    .out = "prod.int_out",
                    .dtypes = kAllDtypes,
                    .dim = DimArg::kInt,
                    .result_dtypes = accumulate_dtype,
                    .reduce = prod_of,
                    // Magnitudes near 1: a product of 257 values from [-1.5, 1.5] underflows in
                    // float32 (and complex ones overflow), and then 0 * inf (a special value) is
                    // NaN or inf by the order of the multiplications, which PyTorch does not fix
                    // either. Signs come from the specials (-0.0, -inf).
                    .domain = Domain{.low = 0.5, .high = 1.2, .int_low = -3, .int_high = 3},
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut}));
  db.add(reduction({.name = "amax",
                    .out = "amax.out",
                    .dtypes = kAllButComplex,
                    .dim = DimArg::kList,
                    .result_dtypes = [](const RefArgs&,
                                        ScalarType self) { return std::vector<ScalarType>{self}; },
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext& c) {
                          return std::vector<Wide>{xs[argmax_of(xs, c.input)]};
                        },
                    .empty_check = "amax()",
                    .out_dtype_error =
                        [](ScalarType expected, ScalarType given) {
                          return "Expected the dtype for input and out to match, but got " +
                                 name_of(expected) + " for input's dtype and " + name_of(given) +
                                 " for out's dtype.";
                        }}));
  db.add(reduction({.name = "max.dim",
                    .out = "max.dim_max",
                    .dtypes = kAllButComplex,
                    .dim = DimArg::kInt,
                    .result_dtypes =
                        [](const RefArgs&, ScalarType self) {
                          return std::vector<ScalarType>{self, ScalarType::kInt64};
                        },
                    .reduce_in_input = true,
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext& c) {
                          const size_t i = argmax_of(xs, c.input);
                          return std::vector<Wide>{xs[i], from_int(Int(static_cast<int64_t>(i)))};
                        },
                    .empty_check = "max()"}));
  db.add(reduction(
      {.name = "argmax",
       .out = "argmax.out",
       .dtypes = kAllTypes,
       .dim = DimArg::kOptionalInt,
       .result_dtypes = [](const RefArgs&,
                           ScalarType) { return std::vector<ScalarType>{ScalarType::kInt64}; },
       .reduce_in_input = true,
       .reduce =
           [](const std::vector<Wide>& xs, const ReductionContext& c) {
             return std::vector<Wide>{from_int(Int(static_cast<int64_t>(argmax_of(xs, c.input))))};
           },
       .empty_check = "argmax()"}));
  db.add(reduction({.name = "var.correction",
                    .out = "var.correction_out",
                    .dtypes = kFloatingAndComplex,
                    .dim = DimArg::kOptionalList,
                    .result_dtypes =
                        [](const RefArgs&, ScalarType self) {
                          return std::vector<ScalarType>{real_counterpart(self)};
                        },
                    .reduce_in_input = true,
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext& c) {
                          const std::optional<ScalarArg> corr =
                              c.args.optional_scalar("correction");
                          const double correction = corr ? corr->as_real() : 1.0;
                          cd mean(0, 0);
                          for (const Wide& x : xs) mean += x.z;
                          mean /= static_cast<double>(xs.size());
                          double m2 = 0;
                          for (const Wide& x : xs) m2 += std::norm(x.z - mean);
                          const double n = static_cast<double>(xs.size());
                          return std::vector<Wide>{from_real(m2 / std::max(0.0, n - correction))};
                        },
                    .extra_kwargs = {{{"correction", Value(Scalar(int64_t{0}))}},
                                     {{"correction", Value(Scalar(int64_t{2}))}},
                                     {{"correction", Value(Scalar(0.5))}}},
                    .out_dtype = OutDtypeRule::kFromOut}));
  ReductionSpec norm{
      .name = "norm.ScalarOpt_dim",
      .out = "norm.out",
      .dtypes = kFloatingAndComplex,
      .dim = DimArg::kList,
      .result_dtypes =
          [](const RefArgs&, ScalarType self) {
            return std::vector<ScalarType>{real_counterpart(self)};
          },
      .reduce_in_input = true,
      .reduce =
          [](const std::vector<Wide>& xs, const ReductionContext& c) {
            const double p = norm_order(c.args);
            double acc = p == -INFINITY ? INFINITY : 0;
            bool nan = false;
            for (const Wide& x : xs) {
              const double m = std::abs(x.z);
              nan |= std::isnan(m);
              if (p == INFINITY) {
                acc = std::max(acc, m);
              } else if (p == -INFINITY) {
                acc = std::min(acc, m);
              } else if (p == 0) {
                acc += m != 0 ? 1 : 0;
              } else {
                acc += std::pow(m, p);
              }
            }
            if (nan) return std::vector<Wide>{from_real(std::nan(""))};
            if (p == INFINITY || p == -INFINITY || p == 0 || p == 1) {
              return std::vector<Wide>{from_real(acc)};
            }
            return std::vector<Wide>{from_real(p == 2 ? std::sqrt(acc) : std::pow(acc, 1 / p))};
          },
      .check =
          [](const RefArgs& a, const std::vector<bool>& reduced) {
            const double p = norm_order(a);
            if (!(p < 0 || p == INFINITY)) return;
            const RefTensor& self = a.tensor("self");
            for (size_t d = 0; d < reduced.size(); ++d) {
              if (reduced[d] && self.sizes[d] == 0) {
                throw RefError{"linalg.vector_norm cannot compute the"};
              }
            }
          },
      .kwargs = {{"p", Value()}},
      .extra_kwargs = {{{"p", Value(Scalar(int64_t{1}))}},
                       {{"p", Value(Scalar(3.0))}},
                       {{"p", Value(Scalar(INFINITY))}},
                       {{"p", Value(Scalar(-INFINITY))}},
                       {{"p", Value(Scalar(int64_t{0}))}},
                       {{"p", Value(Scalar(0.5))}}},
      .out_dtype = OutDtypeRule::kFromOut};
  db.add(reduction(norm));
  // norm with dtype=: the input is cast to dtype, then reduced.
  norm.name = "norm.ScalarOpt_dim_dtype";
  norm.out = "norm.dtype_out";
  norm.dtypes = kFloating;
  norm.kwargs.push_back({"dtype", Value(ScalarType::kFloat64)});
  norm.result_dtypes = [](const RefArgs& a, ScalarType self) {
    return std::vector<ScalarType>{a.dtype("dtype").value_or(self)};
  };
  norm.reduce_in_input = false;
  db.add(reduction(std::move(norm)));
  for (const bool all : {true, false}) {
    db.add(reduction({.name = all ? "all.dim" : "any.dim",
                      .out = all ? "all.out" : "any.out",
                      .dtypes = kAllDtypes,
                      .dim = DimArg::kInt,
                      .result_dtypes =
                          [](const RefArgs&, ScalarType self) {
                            return std::vector<ScalarType>{
                                self == ScalarType::kUInt8 ? self : ScalarType::kBool};
                          },
                      .reduce_in_input = true,
                      .reduce =
                          [all](const std::vector<Wide>& xs, const ReductionContext& c) {
                            bool result = all;
                            for (const Wide& x : xs) {
                              const bool nonzero = as_complex(x, c.input) != cd(0, 0);
                              result = all ? result && nonzero : result || nonzero;
                            }
                            return std::vector<Wide>{from_int(Int(result ? 1 : 0))};
                          },
                      .out_dtype = OutDtypeRule::kFromOut}));
  }
  db.add(reduction({.name = "logsumexp",
                    .out = "logsumexp.out",
                    .dtypes = kAllButComplex,
                    .dim = DimArg::kList,
                    .result_dtypes =
                        [](const RefArgs&, ScalarType self) {
                          return std::vector<ScalarType>{is_integral(self, /*include_bool=*/true)
                                                             ? ScalarType::kFloat32
                                                             : self};
                        },
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext&) {
                          // PyTorch's: the maximum, with infinite maxima replaced by 0.
                          double m = -INFINITY;
                          for (const Wide& x : xs) m = std::max(m, x.z.real());
                          if (std::isinf(m)) m = 0;
                          double s = 0;
                          for (const Wide& x : xs) s += std::exp(x.z.real() - m);
                          return std::vector<Wide>{from_real(std::log(s) + m)};
                        },
                    .out_dtype = OutDtypeRule::kFromOut}));
}

}  // namespace bp::conformance
