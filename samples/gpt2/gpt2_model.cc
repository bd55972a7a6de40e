#include "samples/gpt2/gpt2_model.h"

#include <stdexcept>
#include <string>

#include "samples/gpt2/host_tensors.h"
#include "sdk/ops/ops.h"

namespace gpt2 {

Gpt2Model::Gpt2Model(const Gpt2Config& config, const Gpt2Weights& weights, bp::Device device)
    : config_(config), device_(device) {
  const int64_t c = config.n_embd;
  auto vector = [&](const std::vector<float>& v) {
    return tensor_from_host(v, {static_cast<int64_t>(v.size())}, device);
  };
  auto matrix = [&](const std::vector<float>& v, int64_t rows, int64_t columns) {
    return tensor_from_host(v, {rows, columns}, device);
  };
  wte_ = matrix(weights.wte, config.vocab_size, c);
  wpe_ = matrix(weights.wpe, config.n_positions, c);
  for (const Gpt2LayerWeights& l : weights.layers) {
    blocks_.push_back(BlockTensors{
        vector(l.ln_1_weight), vector(l.ln_1_bias), matrix(l.attn_weight, 3 * c, c),
        vector(l.attn_bias), matrix(l.attn_proj_weight, c, c), vector(l.attn_proj_bias),
        vector(l.ln_2_weight), vector(l.ln_2_bias), matrix(l.mlp_fc_weight, 4 * c, c),
        vector(l.mlp_fc_bias), matrix(l.mlp_proj_weight, c, 4 * c), vector(l.mlp_proj_bias)});
  }
  ln_f_weight_ = vector(weights.ln_f_weight);
  ln_f_bias_ = vector(weights.ln_f_bias);
}

bp::Tensor Gpt2Model::forward(const std::vector<int64_t>& tokens) const {
  const auto t = static_cast<int64_t>(tokens.size());
  if (t < 1 || t > config_.n_positions) {
    throw std::invalid_argument("Gpt2Model::forward: " + std::to_string(t) +
                                " tokens; the model takes 1 to " +
                                std::to_string(config_.n_positions));
  }
  // Positions are 0..T-1, so their embeddings are the first T rows of wpe.
  bp::Tensor h = bp::add(embed_tokens(wte_, tokens), bp::narrow(wpe_, 0, 0, t));  // [T, C]
  for (const BlockTensors& block : blocks_) h = transformer_block(h, block, config_);
  h = bp::layer_norm(h, {config_.n_embd}, ln_f_weight_, ln_f_bias_, config_.layer_norm_eps);
  return bp::linear(h, wte_);  // [T, vocab]
}

std::vector<int64_t> generate_greedy(const Gpt2Model& model, std::vector<int64_t> tokens,
                                     int64_t count) {
  std::vector<int64_t> generated;
  for (int64_t i = 0; i < count; ++i) {
    const bp::Tensor logits = model.forward(tokens);
    const int64_t next = int64_of(bp::argmax(bp::select(logits, 0, logits.size(0) - 1)));
    tokens.push_back(next);
    generated.push_back(next);
  }
  return generated;
}

}  // namespace gpt2
