// Reductions: PyTorch's semantics with plain loops in wide precision (sums in double or wrapping
// int64, NaN propagation, first-occurrence indices, empty inputs).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "conformance/families/reduction.h"
#include "conformance/framework/layouts.h"
#include "conformance/ops/database.h"
#include "sdk/core/promotion.h"

namespace bp::conformance {
namespace {

std::string name_of(ScalarType t) { return std::string(scalar_type_name(t)); }

// mean, nanmean and norm: dtype=, else the input's dtype.
std::vector<ScalarType> dtype_or_self(const RefArgs& a, ScalarType self) {
  return {a.dtype("dtype").value_or(self)};
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

// The index of the maximum (kMax false: minimum), first occurrence; a NaN wins (the first NaN).
template <bool kMax = true>
size_t argmax_of(const std::vector<Wide>& xs, ScalarType t) {
  size_t best = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (is_nan(xs[i], t)) return i;
    const bool beyond =
        kind_of(t) == Kind::kInt
            ? (kMax ? xs[i].i > xs[best].i : xs[i].i < xs[best].i)
            : (kMax ? xs[i].z.real() > xs[best].z.real() : xs[i].z.real() < xs[best].z.real());
    if (beyond) best = i;
  }
  return best;
}

size_t argmin_of(const std::vector<Wide>& xs, ScalarType t) { return argmax_of<false>(xs, t); }

// The sum of the elements that are not NaN (nansum).
std::vector<Wide> nan_sum_of(const std::vector<Wide>& xs, const ReductionContext& c) {
  std::vector<Wide> kept;
  for (const Wide& x : xs) {
    if (!is_nan(x, c.input)) kept.push_back(x);
  }
  return sum_of(kept, c);
}

// var over the slice with the sample's correction (1 when None).
double variance_of(const std::vector<Wide>& xs, const RefArgs& args) {
  const std::optional<ScalarArg> corr = args.optional_scalar("correction");
  const double correction = corr ? corr->as_real() : 1.0;
  cd mean(0, 0);
  for (const Wide& x : xs) mean += x.z;
  mean /= static_cast<double>(xs.size());
  double m2 = 0;
  for (const Wide& x : xs) m2 += std::norm(x.z - mean);
  const double n = static_cast<double>(xs.size());
  return m2 / std::max(0.0, n - correction);
}

// A sample with an input of `input` dtype (on the float32 run only), for an error.
std::vector<Sample> error_sample(ScalarType dtype, ValueSource& src, ScalarType input,
                                 const std::string& note) {
  if (dtype != ScalarType::kFloat32) return {};
  Sample s;
  s.add("self", make_tensor(src, input, {3, 4}, Layout::kContiguous));
  s.note = "error: " + note;
  return {s};
}

std::vector<Sample> integral_mean_sample(ScalarType dtype, ValueSource& src) {
  if (dtype != ScalarType::kFloat32) return {};
  Sample s;
  s.add("self", make_tensor(src, ScalarType::kInt64, {3, 4}, Layout::kContiguous));
  s.add("dim", Value(std::vector<int64_t>{0}));
  s.note = "error: an integral input without dtype=";
  return {s};
}

// The norm's order: norm's `p` (None: 2) or linalg_vector_norm's `ord` (default 2).
double norm_order(const RefArgs& a) {
  if (const std::optional<ScalarArg> ord = a.optional_scalar("ord")) return ord->as_real();
  const std::optional<ScalarArg> p = a.optional_scalar("p");
  return p ? p->as_real() : 2.0;
}

// The p-norm of a slice: NaN if any element is; inf / -inf the largest / smallest |x|, 0 the
// count of non-zero elements.
std::vector<Wide> vector_norm_of(const std::vector<Wide>& xs, const ReductionContext& c) {
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
}

// The norms without an identity (p < 0, inf) over an empty dim.
void check_norm_of_empty(const RefArgs& a, const std::vector<bool>& reduced) {
  const double p = norm_order(a);
  if (!(p < 0 || p == INFINITY)) return;
  const RefTensor& self = a.tensor("self");
  for (size_t d = 0; d < reduced.size(); ++d) {
    if (reduced[d] && self.sizes[d] == 0) throw RefError{"linalg.vector_norm cannot compute the"};
  }
}

// The orders norm samples try besides the default.
std::vector<Kwargs> norm_orders(const std::string& name) {
  std::vector<Kwargs> out;
  for (const Scalar& p : {Scalar(int64_t{1}), Scalar(3.0), Scalar(INFINITY), Scalar(-INFINITY),
                          Scalar(int64_t{0}), Scalar(0.5)}) {
    out.push_back({{name, Value(p)}});
  }
  return out;
}

// The full overload of a reduction over dims (sum(self) of sum.dim_IntList): the same entry over
// every dim, without dim or keepdim, in tier 2 (its extra samples, which name dims, dropped).
ReductionSpec every_dim(ReductionSpec spec, std::string name, std::string out) {
  spec.name = std::move(name);
  spec.out = std::move(out);
  spec.tier = 2;
  spec.dim = DimArg::kNone;
  spec.extra_samples = nullptr;
  return spec;
}

}  // namespace

void add_reduction_entries(OpDatabase& db) {
  ReductionSpec sum{.name = "sum.dim_IntList",
                    .out = "sum.IntList_out",
                    .dtypes = kAllDtypes,
                    .dim = DimArg::kOptionalList,
                    .result_dtypes = accumulate_dtype,
                    .reduce = sum_of,
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut};
  db.add(reduction(sum));
  db.add(reduction(every_dim(std::move(sum), "sum", "sum.out")));
  ReductionSpec mean{.name = "mean.dim",
                     .out = "mean.out",
                     .dtypes = kFloatingAndComplex,
                     .dim = DimArg::kOptionalList,
                     .result_dtypes = dtype_or_self,
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
                     .extra_samples = integral_mean_sample};
  db.add(reduction(mean));
  db.add(reduction(every_dim(std::move(mean), "mean", "")));
  ReductionSpec prod{.name = "prod.dim_int",
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
                     .out_dtype = OutDtypeRule::kFromOut};
  db.add(reduction(prod));
  prod.large_of_ones = true;
  db.add(reduction(every_dim(std::move(prod), "prod", "prod.out")));
  // amax / amin, max.dim / min.dim, argmax / argmin, and max() / min(): amax / amin over every
  // dim, with the full overload's name in its message.
  for (const bool is_max : {true, false}) {
    const auto extreme_index = is_max ? argmax_of<true> : argmax_of<false>;
    const int tier = is_max ? 1 : 2;
    ReductionSpec extreme{
        .name = is_max ? "amax" : "amin",
        .out = is_max ? "amax.out" : "amin.out",
        .dtypes = kAllButComplex,
        .tier = tier,
        .dim = DimArg::kList,
        .result_dtypes = [](const RefArgs&,
                            ScalarType self) { return std::vector<ScalarType>{self}; },
        .reduce =
            [extreme_index](const std::vector<Wide>& xs, const ReductionContext& c) {
              return std::vector<Wide>{xs[extreme_index(xs, c.input)]};
            },
        .empty_check = is_max ? "amax()" : "amin()",
        .out_dtype_error =
            [](ScalarType expected, ScalarType given) {
              return "Expected the dtype for input and out to match, but got " + name_of(expected) +
                     " for input's dtype and " + name_of(given) + " for out's dtype.";
            }};
    db.add(reduction(extreme));
    extreme.empty_check = is_max ? "max()" : "min()";
    db.add(reduction(every_dim(std::move(extreme), is_max ? "max" : "min", "")));
    db.add(reduction({.name = is_max ? "max.dim" : "min.dim",
                      .out = is_max ? "max.dim_max" : "min.dim_min",
                      .dtypes = kAllButComplex,
                      .tier = tier,
                      .dim = DimArg::kInt,
                      .result_dtypes =
                          [](const RefArgs&, ScalarType self) {
                            return std::vector<ScalarType>{self, ScalarType::kInt64};
                          },
                      .reduce_in_input = true,
                      .reduce =
                          [extreme_index](const std::vector<Wide>& xs, const ReductionContext& c) {
                            const size_t i = extreme_index(xs, c.input);
                            return std::vector<Wide>{xs[i], from_int(Int(static_cast<int64_t>(i)))};
                          },
                      .empty_check = is_max ? "max()" : "min()"}));
    db.add(reduction(
        {.name = is_max ? "argmax" : "argmin",
         .out = is_max ? "argmax.out" : "argmin.out",
         .dtypes = kAllTypes,
         .tier = tier,
         .dim = DimArg::kOptionalInt,
         .result_dtypes = [](const RefArgs&,
                             ScalarType) { return std::vector<ScalarType>{ScalarType::kInt64}; },
         .reduce_in_input = true,
         .reduce =
             [extreme_index](const std::vector<Wide>& xs, const ReductionContext& c) {
               return std::vector<Wide>{
                   from_int(Int(static_cast<int64_t>(extreme_index(xs, c.input))))};
             },
         .empty_check = is_max ? "argmax()" : "argmin()"}));
  }
  db.add(reduction(
      {.name = "var.correction",
       .out = "var.correction_out",
       .dtypes = kFloatingAndComplex,
       .dim = DimArg::kOptionalList,
       .result_dtypes = [](const RefArgs&,
                           ScalarType self) { return std::vector<ScalarType>{to_real_type(self)}; },
       .reduce_in_input = true,
       .reduce =
           [](const std::vector<Wide>& xs, const ReductionContext& c) {
             return std::vector<Wide>{from_real(variance_of(xs, c.args))};
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
      .result_dtypes = [](const RefArgs&,
                          ScalarType self) { return std::vector<ScalarType>{to_real_type(self)}; },
      .reduce_in_input = true,
      .reduce = vector_norm_of,
      .check = check_norm_of_empty,
      .kwargs = {{"p", Value()}},
      .extra_kwargs = norm_orders("p"),
      .out_dtype = OutDtypeRule::kFromOut};
  db.add(reduction(norm));
  // norm with dtype=: the input is cast to dtype, then reduced.
  norm.name = "norm.ScalarOpt_dim_dtype";
  norm.out = "norm.dtype_out";
  norm.dtypes = kFloating;
  norm.kwargs.push_back({"dtype", Value(ScalarType::kFloat64)});
  norm.result_dtypes = dtype_or_self;
  norm.reduce_in_input = false;
  db.add(reduction(std::move(norm)));
  for (const bool all : {true, false}) {
    ReductionSpec all_any{
        .name = all ? "all.dim" : "any.dim",
        .out = all ? "all.out" : "any.out",
        .dtypes = kAllDtypes,
        .dim = DimArg::kInt,
        .result_dtypes =
            [](const RefArgs&, ScalarType self) {
              return std::vector<ScalarType>{self == ScalarType::kUInt8 ? self : ScalarType::kBool};
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
        .out_dtype = OutDtypeRule::kFromOut};
    db.add(reduction(all_any));
    db.add(reduction(
        every_dim(std::move(all_any), all ? "all" : "any", all ? "all.all_out" : "any.all_out")));
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

  // ---- Tier 2 ----
  db.add(reduction(
      {.name = "aminmax",
       .out = "aminmax.out",
       .dtypes = kAllButComplex,
       .tier = 2,
       .dim = DimArg::kOptionalInt,
       .result_dtypes =
           [](const RefArgs&, ScalarType self) {
             return std::vector<ScalarType>{self, self};
           },
       .reduce_in_input = true,
       .input =
           [](const RefArgs& a) {
             RefTensor self = a.tensor("self");
             if (self.dim() == 0 && a.optional_integer("dim")) self.sizes = {1};
             return self;
           },
       .reduce =
           [](const std::vector<Wide>& xs, const ReductionContext& c) {
             return std::vector<Wide>{xs[argmin_of(xs, c.input)], xs[argmax_of(xs, c.input)]};
           },
       .check =
           [](const RefArgs& a, const std::vector<bool>& reduced) {
             const RefTensor& self = a.tensor("self");
             if (self.numel() != 0) return;
             const std::optional<int64_t> dim = a.optional_integer("dim");
             if (!dim) {
               throw RefError{
                   "aminmax(): cannot compute aminmax over an empty dimension as the operation "
                   "has no identity."};
             }
             for (size_t d = 0; d < reduced.size(); ++d) {
               if (reduced[d] && self.sizes[d] == 0) {
                 throw RefError{"aminmax: Expected reduction dim " + std::to_string(d) +
                                " to have non-zero size."};
               }
             }
           }}));
  db.add(
      reduction({.name = "nansum",
                 .out = "nansum.out",
                 .dtypes = kAllButComplex,
                 .tier = 2,
                 .dim = DimArg::kOptionalList,
                 .result_dtypes = accumulate_dtype,
                 .reduce = nan_sum_of,
                 .check =
                     [](const RefArgs& a, const std::vector<bool>&) {
                       const ScalarType t = a.tensor("self").dtype;
                       if (is_complex(t)) throw RefError{"nansum does not support complex inputs"};
                       const ScalarType result = accumulate_dtype(a, t)[0];
                       if (!is_integral(t, /*include_bool=*/true) && !is_floating_point(result)) {
                         throw RefError{"\"nansum\" not implemented for '" + name_of(result) + "'"};
                       }
                     },
                 .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                 .out_dtype = OutDtypeRule::kFromOut,
                 .extra_samples =
                     [](ScalarType dtype, ValueSource& src) {
                       return error_sample(dtype, src, ScalarType::kComplex64, "a complex input");
                     }}));
  db.add(reduction({.name = "nanmean",
                    .out = "nanmean.out",
                    .dtypes = kFloating,
                    .tier = 2,
                    .dim = DimArg::kOptionalList,
                    .result_dtypes = dtype_or_self,
                    .reduce =
                        [](const std::vector<Wide>& xs, const ReductionContext& c) {
                          size_t count = 0;
                          for (const Wide& x : xs) count += is_nan(x, c.input) ? 0 : 1;
                          Wide s = nan_sum_of(xs, c)[0];
                          s.z /= static_cast<double>(count);
                          return std::vector<Wide>{s};
                        },
                    .check =
                        [](const RefArgs& a, const std::vector<bool>&) {
                          const ScalarType t = a.tensor("self").dtype;
                          if (!is_floating_point(t)) {
                            throw RefError{
                                "nanmean(): expected input to have floating point dtype but got " +
                                name_of(t)};
                          }
                          if (auto d = a.dtype("dtype"); d && !is_floating_point(*d)) {
                            throw RefError{"\"nanmean\" not implemented for '" + name_of(*d) + "'"};
                          }
                        },
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut,
                    .extra_samples =
                        [](ScalarType dtype, ValueSource& src) {
                          return error_sample(dtype, src, ScalarType::kInt64, "an integral input");
                        }}));
  auto count_nonzero_of = [](const std::vector<Wide>& xs, const ReductionContext& c) {
    int64_t n = 0;
    for (const Wide& x : xs) n += as_complex(x, c.input) != cd(0, 0) ? 1 : 0;
    return std::vector<Wide>{from_int(Int(n))};
  };
  auto int64_result = [](const RefArgs&, ScalarType) {
    return std::vector<ScalarType>{ScalarType::kInt64};
  };
  db.add(reduction({.name = "count_nonzero.dim_IntList",
                    .out = "count_nonzero.dim_IntList_out",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .dim = DimArg::kList,
                    .result_dtypes = int64_result,
                    .reduce_in_input = true,
                    .keepdim = false,
                    .reduce = count_nonzero_of,
                    .out_dtype = OutDtypeRule::kFromOut}));
  db.add(reduction({.name = "count_nonzero",
                    .out = "count_nonzero.out",
                    .dtypes = kAllDtypes,
                    .tier = 2,
                    .dim = DimArg::kOptionalInt,
                    .result_dtypes = int64_result,
                    .reduce_in_input = true,
                    .keepdim = false,
                    .reduce = count_nonzero_of,
                    .out_dtype = OutDtypeRule::kFromOut}));
  db.add(reduction(
      {.name = "std.correction",
       .out = "std.correction_out",
       .dtypes = kFloatingAndComplex,
       .tier = 2,
       .dim = DimArg::kOptionalList,
       .result_dtypes = [](const RefArgs&,
                           ScalarType self) { return std::vector<ScalarType>{to_real_type(self)}; },
       .reduce_in_input = true,
       .reduce =
           [](const std::vector<Wide>& xs, const ReductionContext& c) {
             return std::vector<Wide>{from_real(std::sqrt(variance_of(xs, c.args)))};
           },
       .extra_kwargs = {{{"correction", Value(Scalar(int64_t{0}))}},
                        {{"correction", Value(Scalar(int64_t{2}))}},
                        {{"correction", Value(Scalar(0.5))}}},
       .out_dtype = OutDtypeRule::kFromOut}));
  for (const bool is_std : {false, true}) {
    const std::string name = is_std ? "std_mean" : "var_mean";
    db.add(
        reduction({.name = name + ".correction",
                   .out = name + ".correction_out",
                   .dtypes = kFloatingAndComplex,
                   .tier = 2,
                   .dim = DimArg::kOptionalList,
                   .result_dtypes =
                       [](const RefArgs&, ScalarType self) {
                         return std::vector<ScalarType>{to_real_type(self), self};
                       },
                   .reduce_in_input = true,
                   .reduce =
                       [is_std](const std::vector<Wide>& xs, const ReductionContext& c) {
                         const double v = variance_of(xs, c.args);
                         cd mean(0, 0);
                         for (const Wide& x : xs) mean += x.z;
                         mean /= static_cast<double>(xs.size());
                         return std::vector<Wide>{from_real(is_std ? std::sqrt(v) : v),
                                                  kind_of(c.input) == Kind::kComplex
                                                      ? from_complex(mean)
                                                      : from_real(mean.real())};
                       },
                   .check =
                       [name](const RefArgs& a, const std::vector<bool>&) {
                         const ScalarType t = a.tensor("self").dtype;
                         if (!is_floating_point(t) && !is_complex(t)) {
                           throw RefError{name + " only support floating point and complex dtypes"};
                         }
                       },
                   .extra_kwargs = {{{"correction", Value(Scalar(int64_t{0}))}},
                                    {{"correction", Value(Scalar(int64_t{2}))}}},
                   .extra_samples =
                       [](ScalarType dtype, ValueSource& src) {
                         return error_sample(dtype, src, ScalarType::kInt64, "an integral input");
                       }}));
  }
  db.add(reduction(
      {.name = "linalg_vector_norm",
       .out = "linalg_vector_norm.out",
       .dtypes = kFloatingAndComplex,
       .tier = 2,
       .dim = DimArg::kOptionalList,
       .result_dtypes =
           [](const RefArgs& a, ScalarType self) {
             return std::vector<ScalarType>{to_real_type(a.dtype("dtype").value_or(self))};
           },
       .reduce_in_input = true,
       .reduce = vector_norm_of,
       .check =
           [](const RefArgs& a, const std::vector<bool>& reduced) {
             const ScalarType t = a.tensor("self").dtype;
             if (!is_floating_point(t) && !is_complex(t)) {
               throw RefError{
                   "linalg.vector_norm: Expected a floating point or complex tensor as input. "
                   "Got " +
                   name_of(t)};
             }
             if (auto d = a.dtype("dtype")) {
               if (is_complex(*d) != is_complex(t)) {
                 throw RefError{std::string("linalg.vector_norm: dtype should be ") +
                                (is_complex(t) ? "complex" : "real")};
               }
               if (promote_types(t, *d) != *d) {
                 throw RefError{"linalg.vector_norm: the dtype of the input (" + name_of(t) +
                                ") should be convertible without narrowing to the specified "
                                "dtype (" +
                                name_of(*d) + ")"};
               }
             }
             check_norm_of_empty(a, reduced);
           },
       .extra_kwargs = norm_orders("ord"),
       .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kComplex128},
       .extra_samples =
           [](ScalarType dtype, ValueSource& src) {
             return error_sample(dtype, src, ScalarType::kInt64, "an integral input");
           }}));
}

}  // namespace bp::conformance
