// The pieces of GPT-2's forward pass, each written with Backplane's C++ API (bp:: ops), on
// tensors of any one device: the CPU, a plugin's, or CUDA's. Shapes for one sequence of T tokens
// (batch 1); C is the model's width.
//
//   bp::Tensor h = bp::add(embed_tokens(wte, tokens), bp::narrow(wpe, 0, 0, T));   // [T, C]
//   h = transformer_block(h, block, config);                                       // [T, C]
//
// Thread safety: as the ops they call (any thread; tensors are not shared between calls).
#ifndef BACKPLANE_SAMPLES_GPT2_GPT2_LAYERS_H_
#define BACKPLANE_SAMPLES_GPT2_GPT2_LAYERS_H_

#include <cstdint>
#include <vector>

#include "samples/gpt2/gpt2_config.h"
#include "sdk/core/tensor.h"

namespace gpt2 {

// One block's parameters, float32 on the model's device; linear weights are [out, in].
struct BlockTensors {
  bp::Tensor ln_1_weight, ln_1_bias;
  bp::Tensor attn_weight, attn_bias;  // [3C, C], [3C]
  bp::Tensor attn_proj_weight, attn_proj_bias;
  bp::Tensor ln_2_weight, ln_2_bias;
  bp::Tensor mlp_fc_weight, mlp_fc_bias;  // [4C, C], [4C]
  bp::Tensor mlp_proj_weight, mlp_proj_bias;
};

// Row tokens[i] of `wte` ([vocab, C]) for each i (bp::embedding): [T, C] on wte's device.
// Errors: a token out of [0, vocab) ("index out of range in self").
bp::Tensor embed_tokens(const bp::Tensor& wte, const std::vector<int64_t>& tokens);

// Masked multi-head self-attention of `x` ([T, C]): qkv projection, per head
// bp::scaled_dot_product_attention with is_causal (softmax(q k^T / sqrt(head_dim)) over positions
// up to each query's own, times v); heads merged and projected.
bp::Tensor causal_self_attention(const bp::Tensor& x, const BlockTensors& block,
                                 const Gpt2Config& config);

// The feed-forward part: linear to 4C, GELU (tanh approximation, as GPT-2), linear back to C.
bp::Tensor mlp(const bp::Tensor& x, const BlockTensors& block);

// A pre-LN block: x + attention(ln_1(x)), then that + mlp(ln_2(that)).
bp::Tensor transformer_block(const bp::Tensor& x, const BlockTensors& block,
                             const Gpt2Config& config);

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_GPT2_LAYERS_H_
