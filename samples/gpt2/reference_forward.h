// GPT-2's forward pass in double precision with plain loops, written independently of Backplane:
// what gpt2_test holds Gpt2Model to.
//
//   std::vector<double> logits = reference_logits(config, weights, tokens);  // [T, vocab]
//   std::vector<int64_t> next = reference_generate_greedy(config, weights, tokens, 4);
//
// O(T^2 C + T C^2 L + T C vocab) operations: for the tests' reduced sizes. Thread safety: pure
// functions.
#ifndef BACKPLANE_SAMPLES_GPT2_REFERENCE_FORWARD_H_
#define BACKPLANE_SAMPLES_GPT2_REFERENCE_FORWARD_H_

#include <cstdint>
#include <vector>

#include "samples/gpt2/gpt2_config.h"
#include "samples/gpt2/gpt2_weights.h"

namespace gpt2 {

// The logits of every position, row-major [T, vocab].
std::vector<double> reference_logits(const Gpt2Config& config, const Gpt2Weights& weights,
                                     const std::vector<int64_t>& tokens);

// Greedy decoding as generate_greedy: the `count` tokens appended.
std::vector<int64_t> reference_generate_greedy(const Gpt2Config& config, const Gpt2Weights& weights,
                                               std::vector<int64_t> tokens, int64_t count);

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_REFERENCE_FORWARD_H_
