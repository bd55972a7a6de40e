#include "samples/gpt2/reference_forward.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace gpt2 {
namespace {

// A row-major matrix of doubles.
struct Matrix {
  size_t rows = 0, columns = 0;
  std::vector<double> v;

  Matrix(size_t r, size_t c) : rows(r), columns(c), v(r * c, 0.0) {}
  double& at(size_t r, size_t c) { return v[r * columns + c]; }
  double at(size_t r, size_t c) const { return v[r * columns + c]; }
};

// x W^T + b, W given as float32 [out, in].
Matrix linear(const Matrix& x, const std::vector<float>& w, const std::vector<float>* b,
              size_t out) {
  Matrix y(x.rows, out);
  for (size_t r = 0; r < x.rows; ++r) {
    for (size_t o = 0; o < out; ++o) {
      double sum = b != nullptr ? (*b)[o] : 0.0;
      for (size_t i = 0; i < x.columns; ++i) sum += x.at(r, i) * w[o * x.columns + i];
      y.at(r, o) = sum;
    }
  }
  return y;
}

// Normalises each row over its columns (biased variance), then scales and shifts.
Matrix layer_norm(const Matrix& x, const std::vector<float>& w, const std::vector<float>& b,
                  double eps) {
  Matrix y(x.rows, x.columns);
  const auto n = static_cast<double>(x.columns);
  for (size_t r = 0; r < x.rows; ++r) {
    double mean = 0, var = 0;
    for (size_t c = 0; c < x.columns; ++c) mean += x.at(r, c);
    mean /= n;
    for (size_t c = 0; c < x.columns; ++c) var += (x.at(r, c) - mean) * (x.at(r, c) - mean);
    var /= n;
    const double inv = 1.0 / std::sqrt(var + eps);
    for (size_t c = 0; c < x.columns; ++c) y.at(r, c) = (x.at(r, c) - mean) * inv * w[c] + b[c];
  }
  return y;
}

// GELU, tanh approximation: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
double gelu_tanh(double x) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

void add_into(Matrix& x, const Matrix& y) {
  for (size_t i = 0; i < x.v.size(); ++i) x.v[i] += y.v[i];
}

Matrix attention(const Matrix& x, const Gpt2LayerWeights& l, const Gpt2Config& config) {
  const size_t t = x.rows, c = static_cast<size_t>(config.n_embd);
  const size_t heads = static_cast<size_t>(config.n_head), d = c / heads;
  const Matrix qkv = linear(x, l.attn_weight, &l.attn_bias, 3 * c);  // q | k | v
  Matrix merged(t, c);
  std::vector<double> p(t);
  for (size_t h = 0; h < heads; ++h) {
    const size_t q0 = h * d, k0 = c + h * d, v0 = 2 * c + h * d;
    for (size_t i = 0; i < t; ++i) {
      double top = -std::numeric_limits<double>::infinity();
      for (size_t j = 0; j <= i; ++j) {  // causal: keys up to the query's own position
        double s = 0;
        for (size_t e = 0; e < d; ++e) s += qkv.at(i, q0 + e) * qkv.at(j, k0 + e);
        p[j] = s / std::sqrt(static_cast<double>(d));
        top = std::max(top, p[j]);
      }
      double total = 0;
      for (size_t j = 0; j <= i; ++j) total += (p[j] = std::exp(p[j] - top));
      for (size_t e = 0; e < d; ++e) {
        double sum = 0;
        for (size_t j = 0; j <= i; ++j) sum += p[j] / total * qkv.at(j, v0 + e);
        merged.at(i, h * d + e) = sum;
      }
    }
  }
  return linear(merged, l.attn_proj_weight, &l.attn_proj_bias, c);
}

Matrix mlp(const Matrix& x, const Gpt2LayerWeights& l, size_t c) {
  Matrix hidden = linear(x, l.mlp_fc_weight, &l.mlp_fc_bias, 4 * c);
  for (double& v : hidden.v) v = gelu_tanh(v);
  return linear(hidden, l.mlp_proj_weight, &l.mlp_proj_bias, c);
}

}  // namespace

std::vector<double> reference_logits(const Gpt2Config& config, const Gpt2Weights& weights,
                                     const std::vector<int64_t>& tokens) {
  const size_t t = tokens.size(), c = static_cast<size_t>(config.n_embd);
  const double eps = config.layer_norm_eps;
  Matrix h(t, c);
  for (size_t i = 0; i < t; ++i) {
    const auto token = static_cast<size_t>(tokens[i]);
    for (size_t e = 0; e < c; ++e)
      h.at(i, e) = double{weights.wte[token * c + e]} + weights.wpe[i * c + e];
  }
  for (const Gpt2LayerWeights& l : weights.layers) {
    add_into(h, attention(layer_norm(h, l.ln_1_weight, l.ln_1_bias, eps), l, config));
    add_into(h, mlp(layer_norm(h, l.ln_2_weight, l.ln_2_bias, eps), l, c));
  }
  const Matrix final_h = layer_norm(h, weights.ln_f_weight, weights.ln_f_bias, eps);
  return linear(final_h, weights.wte, nullptr, static_cast<size_t>(config.vocab_size)).v;
}

std::vector<int64_t> reference_generate_greedy(const Gpt2Config& config, const Gpt2Weights& weights,
                                               std::vector<int64_t> tokens, int64_t count) {
  const auto vocab = static_cast<size_t>(config.vocab_size);
  std::vector<int64_t> generated;
  for (int64_t n = 0; n < count; ++n) {
    const std::vector<double> logits = reference_logits(config, weights, tokens);
    const auto last = logits.begin() + static_cast<std::ptrdiff_t>((tokens.size() - 1) * vocab);
    // The first maximum, as argmax.
    const int64_t next = std::max_element(last, last + static_cast<std::ptrdiff_t>(vocab)) - last;
    tokens.push_back(next);
    generated.push_back(next);
  }
  return generated;
}

}  // namespace gpt2
