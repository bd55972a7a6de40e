// Scans and normalisations along a dim: PyTorch's semantics in wide precision, line by line.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "conformance/families/along_dim.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

// The running sums of a line: wrapping int64 for integral and bool dtypes (bool results are
// then non-zero: a running or), double or complex<double> otherwise.
std::vector<std::vector<Wide>> running_sums(const std::vector<Wide>& xs, ScalarType t) {
  std::vector<Wide> out;
  if (kind_of(t) == Kind::kInt) {
    Int s(0);
    for (const Wide& x : xs) out.push_back(from_int(s = s + Int(x.i)));
  } else {
    cd s(0, 0);
    for (const Wide& x : xs) out.push_back(from_complex(s += x.z));
  }
  return {out};
}

// cumsum's and cumprod's result dtype: dtype=, else int64 for bool and integral inputs. PyTorch
// has no bool kernel (dtype=torch.bool, a bool out= and an in-place call on a bool tensor raise
// once the output is built).
std::function<ScalarType(const RefArgs&, ScalarType)> cumulative_dtype(std::string name) {
  return [name](const RefArgs& a, ScalarType self) {
    const ScalarType result = a.dtype("dtype").value_or(
        is_integral(self, /*include_bool=*/true) ? ScalarType::kInt64 : self);
    if (result == ScalarType::kBool) {
      RefError e{"\"" + name + "\" not implemented for 'bool'"};
      e.result_sizes = a.tensor("self").sizes;
      e.result_dtype = result;
      throw e;
    }
    return result;
  };
}

// The running products of a line: wrapping int64 for integral and bool dtypes, double or
// complex<double> otherwise.
std::vector<std::vector<Wide>> running_products(const std::vector<Wide>& xs, ScalarType t) {
  std::vector<Wide> out;
  if (kind_of(t) == Kind::kInt) {
    Int p(1);
    for (const Wide& x : xs) out.push_back(from_int(p = p * Int(x.i)));
  } else if (kind_of(t) == Kind::kReal) {
    double p = 1;  // real products: no complex multiplication's inf * 0 parts
    for (const Wide& x : xs) out.push_back(from_real(p *= x.z.real()));
  } else {
    cd p(1, 0);
    for (const Wide& x : xs) out.push_back(from_complex(p *= x.z));
  }
  return {out};
}

// logcumsumexp: PyTorch's running log_add_exp(x, acc) = max + log1p(exp(min - max)), except that
// equal infinities (both -inf, both +inf) give that infinity; NaN stays.
std::vector<std::vector<Wide>> running_log_sum_exp(const std::vector<Wide>& xs, ScalarType) {
  std::vector<Wide> out;
  double acc = -INFINITY;
  for (const Wide& x : xs) {
    const double v = x.z.real();
    if (std::isnan(v) || std::isnan(acc)) {
      acc = NAN;
    } else {
      const double lo = std::min(v, acc), hi = std::max(v, acc);
      if (lo != hi || std::isfinite(lo)) acc = hi + std::log1p(std::exp(lo - hi));
    }
    out.push_back(from_real(acc));
  }
  return {out};
}

// cummax / cummin (kMax false): the running extreme and the index it comes from. As PyTorch's
// cummax_cummin_helper, an element is taken when it is NaN, or when the running value is not
// NaN and the element is >= (<=) it: ties and NaNs go to the later element.
template <bool kMax>
std::vector<std::vector<Wide>> running_extreme(const std::vector<Wide>& xs, ScalarType t) {
  const bool integral = kind_of(t) == Kind::kInt;
  std::vector<Wide> values, indices;
  size_t best = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    bool take = i == 0;
    if (integral) {
      take = take || (kMax ? xs[i].i >= xs[best].i : xs[i].i <= xs[best].i);
    } else {
      const double x = xs[i].z.real(), b = xs[best].z.real();
      take = take || std::isnan(x) || (!std::isnan(b) && (kMax ? x >= b : x <= b));
    }
    if (take) best = i;
    values.push_back(xs[best]);
    indices.push_back(from_int(Int(static_cast<int64_t>(best))));
  }
  return {values, indices};
}

// The largest element of a line (NaN when any element is: PyTorch's kernels do not guard
// infinities, so a line holding +inf, or only -inf, gives NaN) and the sum of exp(x - max).
std::pair<double, double> max_and_sum(const std::vector<Wide>& xs) {
  double max = -INFINITY;
  for (const Wide& x : xs) {
    if (std::isnan(x.z.real()) || x.z.real() > max) max = std::isnan(max) ? max : x.z.real();
  }
  double sum = 0;
  for (const Wide& x : xs) sum += std::exp(x.z.real() - max);
  return {max, sum};
}

// softmax: exp(x - max) / sum(exp(x - max)).
std::vector<std::vector<Wide>> softmax_line(const std::vector<Wide>& xs, ScalarType) {
  const auto [max, sum] = max_and_sum(xs);
  std::vector<Wide> out;
  for (const Wide& x : xs) out.push_back(from_real(std::exp(x.z.real() - max) / sum));
  return {out};
}

// log_softmax: (x - max) - log(sum(exp(x - max))).
std::vector<std::vector<Wide>> log_softmax_line(const std::vector<Wide>& xs, ScalarType) {
  const auto [max, sum] = max_and_sum(xs);
  std::vector<Wide> out;
  for (const Wide& x : xs) out.push_back(from_real((x.z.real() - max) - std::log(sum)));
  return {out};
}

}  // namespace

void add_scan_entries(OpDatabase& db) {
  db.add(along_dim({.name = "cumsum",
                    .family = "scan",
                    .dtypes = kAllDtypes,
                    .result_dtype = cumulative_dtype("cumsum"),
                    .line = running_sums,
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut,
                    .inplace_in_self_dtype = true}));
  db.add(along_dim({.name = "cumprod",
                    .family = "scan",
                    .dtypes = kAllDtypes,
                    .result_dtype = cumulative_dtype("cumprod"),
                    .line = running_products,
                    // Magnitudes near 1, as prod's: long lines neither overflow nor underflow.
                    .domain = Domain{.low = 0.5, .high = 1.2, .int_low = -3, .int_high = 3},
                    .dtype_kwargs = {ScalarType::kFloat64, ScalarType::kInt64},
                    .out_dtype = OutDtypeRule::kFromOut,
                    .inplace_in_self_dtype = true}));
  db.add(along_dim({.name = "logcumsumexp",
                    .family = "scan",
                    .dtypes = kFloating,
                    .result_dtype = [](const RefArgs&, ScalarType self) { return self; },
                    .line = running_log_sum_exp}));
  for (const auto& [name, line] : {std::pair{"cummax", &running_extreme<true>},
                                   std::pair{"cummin", &running_extreme<false>}}) {
    db.add(along_dim({.name = name,
                      .family = "scan",
                      .dtypes = kAllButComplex,
                      .result_dtype = [](const RefArgs&, ScalarType self) { return self; },
                      .line = line,
                      .indices = true}));
  }
  db.add(along_dim({.name = "softmax.int",
                    .family = "normalization",
                    .dtypes = kFloating,
                    .result_dtype = [](const RefArgs& a,
                                       ScalarType self) { return a.dtype("dtype").value_or(self); },
                    .line = softmax_line,
                    .dtype_kwargs = {ScalarType::kFloat64}}));
  db.add(along_dim({.name = "log_softmax.int",
                    .family = "normalization",
                    .dtypes = kFloating,
                    .result_dtype = [](const RefArgs& a,
                                       ScalarType self) { return a.dtype("dtype").value_or(self); },
                    .line = log_softmax_line,
                    .dtype_kwargs = {ScalarType::kFloat64}}));
}

}  // namespace bp::conformance
