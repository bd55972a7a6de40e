#include "samples/gpt2/gpt2_layers.h"

#include <algorithm>
#include <optional>

#include "sdk/ops/ops.h"

namespace gpt2 {

bp::Tensor embed_tokens(const bp::Tensor& wte, const std::vector<int64_t>& tokens) {
  bp::Tensor ids = bp::empty({static_cast<int64_t>(tokens.size())}, bp::ScalarType::kInt64);
  std::copy(tokens.begin(), tokens.end(), ids.data_ptr<int64_t>());
  return bp::embedding(wte, bp::_to_copy(ids, std::nullopt, wte.device(), false, std::nullopt));
}

bp::Tensor causal_self_attention(const bp::Tensor& x, const BlockTensors& block,
                                 const Gpt2Config& config) {
  const int64_t t = x.size(0), c = config.n_embd, h = config.n_head, d = config.head_dim();
  const bp::Tensor qkv = bp::linear(x, block.attn_weight, block.attn_bias);  // [T, 3C]
  const std::vector<bp::Tensor> parts = bp::split(qkv, c, 1);
  // [T, C] -> [H, T, D]: views of qkv, no copies (reshape of a column block views it).
  auto heads = [&](const bp::Tensor& part) {
    return bp::transpose(bp::reshape(part, {t, h, d}), 0, 1);
  };
  const bp::Tensor q = heads(parts[0]), k = heads(parts[1]), v = heads(parts[2]);
  // softmax(q k^T / sqrt(D)) v per head, query i seeing keys 0..i.
  const bp::Tensor attended = bp::scaled_dot_product_attention(
      q, k, v, std::nullopt, /*dropout_p=*/0.0, /*is_causal=*/true);  // [H, T, D]
  const bp::Tensor merged = bp::reshape(bp::transpose(attended, 0, 1), {t, c});
  return bp::linear(merged, block.attn_proj_weight, block.attn_proj_bias);
}

bp::Tensor mlp(const bp::Tensor& x, const BlockTensors& block) {
  const bp::Tensor hidden = bp::gelu(bp::linear(x, block.mlp_fc_weight, block.mlp_fc_bias), "tanh");
  return bp::linear(hidden, block.mlp_proj_weight, block.mlp_proj_bias);
}

bp::Tensor transformer_block(const bp::Tensor& x, const BlockTensors& block,
                             const Gpt2Config& config) {
  const int64_t c = config.n_embd;
  const double eps = config.layer_norm_eps;
  const bp::Tensor after_attention = bp::add(
      x, causal_self_attention(bp::layer_norm(x, {c}, block.ln_1_weight, block.ln_1_bias, eps),
                               block, config));
  return bp::add(
      after_attention,
      mlp(bp::layer_norm(after_attention, {c}, block.ln_2_weight, block.ln_2_bias, eps), block));
}

}  // namespace gpt2
