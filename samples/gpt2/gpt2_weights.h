// GPT-2's weights made from a seed, with no download: the same numbers on every machine and for
// every consumer (the Backplane model, the tests' double-precision reference, the libtorch
// benchmark), as plain float32 host buffers.
//
//   Gpt2Weights w = make_gpt2_weights(config, /*seed=*/1);
//   w.layers[0].attn_weight;   // [3C, C], row-major: out x in, as torch.nn.Linear's weight
//   std::vector<int64_t> prompt = make_prompt(config, /*length=*/16, /*seed=*/2);
//
// Matrices and embeddings are N(0, stddev), 0.02 by default as GPT-2's initialisation (its
// residual projections scaled by 1/sqrt(2 * n_layer)); linear biases are N(0, 0.02), not 0;
// layer-norm weights are N(1, 0.1) and biases N(0, 0.02), so that a mistake in their use shows
// in the logits. Each tensor has a random stream of its own (splitmix64 of the seed and the
// tensor's number), so its values do not depend on the order tensors are made in.
//
// Plain C++ (no Backplane): the libtorch side of the benchmark uses it too. Thread safety: pure
// functions.
#ifndef BACKPLANE_SAMPLES_GPT2_GPT2_WEIGHTS_H_
#define BACKPLANE_SAMPLES_GPT2_GPT2_WEIGHTS_H_

#include <cstdint>
#include <vector>

#include "samples/gpt2/gpt2_config.h"

namespace gpt2 {

// One transformer block. Linear weights are [out, in] row-major.
struct Gpt2LayerWeights {
  std::vector<float> ln_1_weight, ln_1_bias;            // [C]
  std::vector<float> attn_weight, attn_bias;            // [3C, C], [3C]: q, k, v stacked
  std::vector<float> attn_proj_weight, attn_proj_bias;  // [C, C], [C]
  std::vector<float> ln_2_weight, ln_2_bias;            // [C]
  std::vector<float> mlp_fc_weight, mlp_fc_bias;        // [4C, C], [4C]
  std::vector<float> mlp_proj_weight, mlp_proj_bias;    // [C, 4C], [C]
};

struct Gpt2Weights {
  std::vector<float> wte;  // [vocab, C]: token embedding, also the output projection (tied)
  std::vector<float> wpe;  // [n_positions, C]: position embedding
  std::vector<Gpt2LayerWeights> layers;
  std::vector<float> ln_f_weight, ln_f_bias;  // [C]
};

// `stddev`: the matrices' (0.02 is GPT-2's). Larger values make the blocks' outputs outweigh
// the embeddings, so that greedy decoding of a small random model does not just repeat the last
// token.
Gpt2Weights make_gpt2_weights(const Gpt2Config& config, uint64_t seed, double stddev = 0.02);

// `length` token ids in [0, vocab_size), drawn from `seed`.
std::vector<int64_t> make_prompt(const Gpt2Config& config, int64_t length, uint64_t seed);

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_GPT2_WEIGHTS_H_
