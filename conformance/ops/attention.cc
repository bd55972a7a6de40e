// scaled_dot_product_attention (PyTorch 2.1's reference composite: softmax(q k^T * scale + mask)
// v, computed in double and rounded once) and dropout, which it calls, in evaluation mode: the
// input itself. Training mode with p > 0 is refused (Backplane has no random generator yet).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/framework/declared_variants.h"
#include "conformance/framework/layouts.h"
#include "conformance/framework/values.h"
#include "conformance/ops/database.h"

namespace bp::conformance {
namespace {

constexpr DtypeSet kAttentionDtypes = DtypeSet(ScalarType::kFloat32) |
                                      DtypeSet(ScalarType::kFloat64) |
                                      DtypeSet(ScalarType::kBFloat16);
constexpr Domain kValues{.low = -2, .high = 2, .specials = false};

// A bool mask of `sizes` holding `values` (row-major).
Tensor bool_mask(const Sizes& sizes, const std::vector<int64_t>& values) {
  RefTensor t{ScalarType::kBool, sizes, {}};
  for (int64_t v : values) t.values.push_back(from_int(Int(v)));
  return lay_out(t, Layout::kContiguous);
}

std::string dropout_training_error() {
  return "dropout: training mode (train=True with p > 0) draws a random mask";
}

// dropout's checks; the result is its input.
void check_dropout(double p, bool train, int64_t numel) {
  if (p < 0 || p > 1) {
    std::string text = std::to_string(p);
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    throw RefError{"dropout probability has to be between 0 and 1, but got " + text};
  }
  if (train && p > 0 && numel > 0) throw RefError{dropout_training_error()};
}

// dropout (its tensor is `input`) or dropout_ (`self`: not a variant of dropout's group, whose
// arguments are named otherwise, as PyTorch's).
OpEntry dropout_entry(const std::string& op, const std::string& tensor) {
  OpEntry e;
  e.name = op;
  e.family = "activation";
  e.tier = 2;
  e.variants = declared_variants(op);
  e.dtypes = kAllDtypes;
  e.samples = [tensor](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    const std::vector<std::tuple<Sizes, Layout, double, bool, std::string>> cases = {
        {{2, 3}, Layout::kContiguous, 0.5, false, "evaluation"},
        {{3, 2}, Layout::kTransposed, 0.1, false, "evaluation, transposed"},
        {{4}, Layout::kContiguous, 0.0, true, "training with p = 0"},
        {{0, 2}, Layout::kContiguous, 0.5, true, "training, no elements"},
        {{2}, Layout::kContiguous, 1.5, false, "p above 1"},
        {{2}, Layout::kContiguous, -0.25, true, "p below 0"},
        {{2}, Layout::kContiguous, 0.5, true, "training (refused)"}};
    for (const auto& [sizes, layout, p, train, note] : cases) {
      Sample s;
      s.add(tensor, make_tensor(src, dtype, sizes, layout))
          .add("p", Value(p))
          .add("train", Value(train));
      s.note = note;
      out.push_back(std::move(s));
    }
    return out;
  };
  e.reference = [tensor](const RefArgs& a) {
    const RefTensor& input = a.tensor(tensor);
    check_dropout(a.optional_real("p").value_or(0), a.boolean("train", false), input.numel());
    Expected r = Expected::of(input);
    r.outputs[0].aliases = tensor;
    r.outputs[0].may_alias = true;
    return r;
  };
  return e;
}

// softmax(q k^T * scale + bias) v over the last two dims, batch dims broadcast as matmul's.
Expected attention_reference(const RefArgs& a) {
  const RefTensor& q = a.tensor("query");
  const RefTensor& k = a.tensor("key");
  const RefTensor& v = a.tensor("value");
  const RefTensor* mask = a.optional_tensor("attn_mask");
  const bool causal = a.boolean("is_causal", false);
  if (causal && mask != nullptr) {
    throw RefError{
        "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
        "is_causal=True"};
  }
  const int64_t n = q.sizes.end()[-2], e = q.sizes.back(), s = k.sizes.end()[-2],
                ev = v.sizes.back();
  const double scale = a.optional_real("scale").value_or(1.0 / std::sqrt(static_cast<double>(e)));
  const Sizes batch(q.sizes.begin(), q.sizes.end() - 2);
  Sizes out_sizes = batch;
  out_sizes.push_back(n);
  out_sizes.push_back(ev);
  const ScalarType t = q.dtype;
  RefTensor r{t, out_sizes, {}};
  const double minus_inf = -std::numeric_limits<double>::infinity();
  for_each_index(batch, [&](const Index& b) {
    auto at = [&](const RefTensor& x, int64_t i, int64_t j) {
      Index index = b;
      index.push_back(i);
      index.push_back(j);
      return x.at_broadcast(index).z.real();
    };
    for (int64_t i = 0; i < n; ++i) {
      std::vector<double> w(static_cast<size_t>(s));
      double max = minus_inf;
      for (int64_t j = 0; j < s; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < e; ++c) dot += at(q, i, c) * at(k, j, c);
        double score = dot * scale;
        if (causal && j > i) score = minus_inf;
        if (mask != nullptr) {
          Index index = b;
          index.push_back(i);
          index.push_back(j);
          const Wide m = mask->at_broadcast(index);
          if (mask->dtype == ScalarType::kBool) {
            if (m.i == 0) score = minus_inf;
          } else {
            score += m.z.real();
          }
        }
        w[j] = score;
        max = std::max(max, score);
      }
      double sum = 0;
      for (double& x : w) sum += (x = std::exp(x - max));
      for (int64_t c = 0; c < ev; ++c) {
        double acc = 0;
        for (int64_t j = 0; j < s; ++j) acc += w[j] / sum * at(v, j, c);
        r.values.push_back(cast(from_real(acc), ScalarType::kFloat64, t));
      }
    }
  });
  return Expected::of(r);
}

OpEntry attention_entry() {
  OpEntry e;
  e.name = "scaled_dot_product_attention";
  e.family = "linalg";
  e.tier = 2;
  e.variants = declared_variants("scaled_dot_product_attention");
  e.dtypes = kAttentionDtypes;
  e.samples = [](ScalarType dtype, uint64_t seed) {
    ValueSource src(seed);
    std::vector<Sample> out;
    auto tensor = [&](const Sizes& sizes, Layout layout = Layout::kContiguous,
                      std::optional<ScalarType> t = std::nullopt) {
      return make_tensor(src, t.value_or(dtype), sizes, layout, kValues);
    };
    auto add = [&](Sample s, std::string note) {
      s.note = std::move(note);
      out.push_back(std::move(s));
    };
    Sample plain;
    plain.add("query", tensor({2, 3, 4}))
        .add("key", tensor({2, 5, 4}))
        .add("value", tensor({2, 5, 3}));
    add(plain, "batched");
    Sample causal = plain;
    causal.set("key", tensor({2, 3, 4})).set("value", tensor({2, 3, 2}, Layout::kTransposed));
    causal.add("is_causal", Value(true));
    add(causal, "causal, transposed value");
    Sample heads;
    heads.add("query", tensor({1, 2, 4, 8}, Layout::kTransposed))
        .add("key", tensor({1, 2, 4, 8}))
        .add("value", tensor({1, 2, 4, 8}))
        .add("scale", Value(0.5));
    add(heads, "heads, scale given");
    Sample masked = plain;
    masked.add("attn_mask", bool_mask({3, 5}, {1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1}));
    add(masked, "bool mask");
    Sample float_mask = plain;
    float_mask.add("attn_mask", tensor({1, 5}));
    add(float_mask, "additive mask, broadcast");
    Sample both = causal;
    both.add("attn_mask", tensor({3, 3}));
    add(both, "causal with a mask");
    Sample drop = plain;
    drop.add("dropout_p", Value(0.5));
    add(drop, "dropout (training: refused)");
    return out;
  };
  e.reference = [](const RefArgs& a) {
    if (a.optional_real("dropout_p").value_or(0) > 0) throw RefError{dropout_training_error()};
    return attention_reference(a);
  };
  return e;
}

}  // namespace

void add_attention_entries(OpDatabase& db) {
  db.add(dropout_entry("dropout", "input"));
  db.add(dropout_entry("dropout_", "self"));
  db.add(attention_entry());
}

}  // namespace bp::conformance
