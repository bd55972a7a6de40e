#include "samples/gpt2/gpt2_weights.h"

#include <cmath>
#include <cstddef>
#include <utility>

namespace gpt2 {
namespace {

// splitmix64 (Steele, Lea and Flood 2014): tiny, and good enough for weights.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in (0, 1): 53 random bits, never 0 (Box-Muller takes its logarithm).
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// Makes each tensor's numbers from a stream of its own.
class WeightMaker {
 public:
  explicit WeightMaker(uint64_t seed) : seed_(seed) {}

  // n values of N(mean, stddev): Box-Muller, two values per pair of uniforms.
  std::vector<float> normal(size_t n, double mean, double stddev) {
    SplitMix64 rng(SplitMix64(seed_ ^ (0x5851f42d4c957f2dull * ++tensor_)).next());
    std::vector<float> out(n);
    constexpr double kTwoPi = 6.283185307179586476925;
    for (size_t i = 0; i < n; i += 2) {
      const double r = std::sqrt(-2.0 * std::log(rng.uniform()));
      const double theta = kTwoPi * rng.uniform();
      out[i] = static_cast<float>(mean + stddev * r * std::cos(theta));
      if (i + 1 < n) out[i + 1] = static_cast<float>(mean + stddev * r * std::sin(theta));
    }
    return out;
  }

 private:
  uint64_t seed_;
  uint64_t tensor_ = 0;  // the number of the tensor being made
};

}  // namespace

Gpt2Weights make_gpt2_weights(const Gpt2Config& config, uint64_t seed, double stddev) {
  const size_t c = static_cast<size_t>(config.n_embd);
  constexpr double kBiasStd = 0.02;
  // GPT-2 scales the projections that write into the residual stream by 1/sqrt(2 * n_layer).
  const double residual_std = stddev / std::sqrt(2.0 * static_cast<double>(config.n_layer));
  WeightMaker make(seed);
  Gpt2Weights w;
  w.wte = make.normal(static_cast<size_t>(config.vocab_size) * c, 0, stddev);
  w.wpe = make.normal(static_cast<size_t>(config.n_positions) * c, 0, stddev);
  for (int64_t i = 0; i < config.n_layer; ++i) {
    Gpt2LayerWeights l;
    l.ln_1_weight = make.normal(c, 1, 0.1);
    l.ln_1_bias = make.normal(c, 0, kBiasStd);
    l.attn_weight = make.normal(3 * c * c, 0, stddev);
    l.attn_bias = make.normal(3 * c, 0, kBiasStd);
    l.attn_proj_weight = make.normal(c * c, 0, residual_std);
    l.attn_proj_bias = make.normal(c, 0, kBiasStd);
    l.ln_2_weight = make.normal(c, 1, 0.1);
    l.ln_2_bias = make.normal(c, 0, kBiasStd);
    l.mlp_fc_weight = make.normal(4 * c * c, 0, stddev);
    l.mlp_fc_bias = make.normal(4 * c, 0, kBiasStd);
    l.mlp_proj_weight = make.normal(4 * c * c, 0, residual_std);
    l.mlp_proj_bias = make.normal(c, 0, kBiasStd);
    w.layers.push_back(std::move(l));
  }
  w.ln_f_weight = make.normal(c, 1, 0.1);
  w.ln_f_bias = make.normal(c, 0, kBiasStd);
  return w;
}

std::vector<int64_t> make_prompt(const Gpt2Config& config, int64_t length, uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<int64_t> tokens(static_cast<size_t>(length));
  for (int64_t& t : tokens)
    t = static_cast<int64_t>(rng.next() % static_cast<uint64_t>(config.vocab_size));
  return tokens;
}

}  // namespace gpt2
