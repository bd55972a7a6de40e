// layer_norm and native_layer_norm: each block of the trailing dims normalised in double (mean,
// biased variance), scaled and shifted, rounded once; PyTorch 1.13's checks and messages.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/values.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

constexpr DtypeSet kLayerNormDtypes = DtypeSet(ScalarType::kFloat32) |
                                      DtypeSet(ScalarType::kFloat64) |
                                      DtypeSet(ScalarType::kBFloat16);
constexpr Domain kValues{.low = -3, .high = 3, .specials = false};

std::string list_string(const std::vector<int64_t>& v) { return sizes_string(Sizes(v)); }

// The three results of native_layer_norm, or PyTorch's error.
std::vector<RefTensor> layer_norm_ref(const RefArgs& a) {
  const RefTensor& input = a.tensor("input");
  const std::vector<int64_t> shape = a.ints("normalized_shape", {});
  const RefTensor* weight = a.optional_tensor("weight");
  const RefTensor* bias = a.optional_tensor("bias");
  const double eps = a.optional_real("eps").value_or(1e-5);
  if (shape.empty()) {
    throw RefError{
        "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
        "least one element, but got normalized_shape = []"};
  }
  for (const auto& [name, t] : {std::pair{"weight", weight}, std::pair{"bias", bias}}) {
    if (t != nullptr && t->sizes != Sizes(shape)) {
      throw RefError{std::string("Expected ") + name +
                     " to be of same shape as normalized_shape, but got " + name + " of shape " +
                     sizes_string(t->sizes) + " and normalized_shape = " + list_string(shape)};
    }
  }
  const int64_t axis = input.dim() - static_cast<int64_t>(shape.size());
  bool matches = axis >= 0;
  for (size_t i = 0; matches && i < shape.size(); ++i) matches = input.sizes[axis + i] == shape[i];
  if (!matches) throw RefError{"Given normalized_shape=" + list_string(shape)};
  const ScalarType t = input.dtype;
  for (const RefTensor* p : {weight, bias}) {
    if (p != nullptr && p->dtype != t) throw RefError{"expected scalar type"};
  }
  if (!kLayerNormDtypes.has(t)) throw RefError{"not implemented for"};
  int64_t cols = 1;
  for (int64_t s : shape) cols *= s;
  const int64_t rows = cols == 0 ? 0 : input.numel() / cols;
  Sizes stat_sizes(input.sizes.begin(), input.sizes.begin() + axis);
  stat_sizes.insert(stat_sizes.end(), shape.size(), 1);
  RefTensor out{t, input.sizes, {}}, mean{t, stat_sizes, {}}, rstd{t, stat_sizes, {}};
  const auto round = [t](double v) { return cast(from_real(v), ScalarType::kFloat64, t); };
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0, sq = 0;
    for (int64_t c = 0; c < cols; ++c) sum += input.values[r * cols + c].z.real();
    const double m = sum / static_cast<double>(cols);
    for (int64_t c = 0; c < cols; ++c) {
      const double d = input.values[r * cols + c].z.real() - m;
      sq += d * d;
    }
    const double s = 1 / std::sqrt(sq / static_cast<double>(cols) + eps);
    for (int64_t c = 0; c < cols; ++c) {
      double v = (input.values[r * cols + c].z.real() - m) * s;
      if (weight != nullptr) v *= weight->values[c].z.real();
      if (bias != nullptr) v += bias->values[c].z.real();
      out.values.push_back(round(v));
    }
    mean.values.push_back(round(m));
    rstd.values.push_back(round(s));
  }
  return {out, mean, rstd};
}

struct LayerNormCase {
  Sizes input;
  std::vector<int64_t> shape;
  bool weight, bias;
  Layout layout;
  std::string note;
  std::optional<Sizes> weight_sizes = std::nullopt;  // a weight of other sizes (an error)
};

std::vector<Sample> layer_norm_samples(ScalarType dtype, uint64_t seed) {
  ValueSource src(seed);
  const std::vector<LayerNormCase> cases = {
      {{2, 3, 4}, {4}, true, true, Layout::kContiguous, "last dim, affine"},
      {{2, 3, 4}, {3, 4}, true, false, Layout::kTransposed, "two dims, weight only"},
      {{5, 7}, {7}, false, false, Layout::kSliced, "no affine"},
      {{3, 16}, {16}, false, true, Layout::kExpanded, "bias only, rows alike"},
      {{0, 4}, {4}, true, true, Layout::kContiguous, "no rows"},
      {{6}, {6}, true, true, Layout::kOffset, "one block"},
      {{2, 3}, {}, false, false, Layout::kContiguous, "empty normalized_shape"},
      {{2, 3}, {4}, false, false, Layout::kContiguous, "shape mismatch"},
      {{2, 3}, {3}, true, false, Layout::kContiguous, "weight of other sizes", Sizes{4}},
  };
  std::vector<Sample> out;
  for (const LayerNormCase& c : cases) {
    Sample s;
    s.add("input", make_tensor(src, dtype, c.input, c.layout, kValues))
        .add("normalized_shape", Value(c.shape));
    if (c.weight) {
      s.add("weight", make_tensor(src, dtype, c.weight_sizes.value_or(Sizes(c.shape)),
                                  Layout::kContiguous, kValues));
    }
    if (c.bias)
      s.add("bias", make_tensor(src, dtype, Sizes(c.shape), Layout::kContiguous, kValues));
    s.add("eps", Value(c.note == "no affine" ? 0.25 : 1e-5));
    s.note = c.note;
    out.push_back(std::move(s));
  }
  return out;
}

OpEntry entry(const std::string& name, bool all_outputs) {
  OpEntry e;
  e.name = name;
  e.family = "normalization";
  e.tier = 2;
  e.variants = declared_variants(name);
  e.dtypes = kLayerNormDtypes;
  e.samples = layer_norm_samples;
  e.reference = [all_outputs](const RefArgs& a) {
    std::vector<RefTensor> r = layer_norm_ref(a);
    if (!all_outputs) return Expected::of(std::move(r[0]));
    Expected e = Expected::of(std::move(r[0]), std::move(r[1]));
    e.outputs.push_back(Expected::output(std::move(r[2])));
    return e;
  };
  e.tolerance_key = "layer_norm";
  return e;
}

}  // namespace

void add_normalization_entries(OpDatabase& db) {
  db.add(entry("native_layer_norm", true));
  db.add(entry("layer_norm", false));
}

}  // namespace bp::conformance
