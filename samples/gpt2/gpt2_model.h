// Gpt2Model: GPT-2's forward pass and greedy decoding on one Backplane device, written with the
// C++ API (bp:: ops). Batch 1.
//
//   Gpt2Model model(config, make_gpt2_weights(config, 1), bp::Device(bp::DeviceType::kCPU));
//   bp::Tensor logits = model.forward(tokens);               // [T, vocab] on the model's device
//   std::vector<int64_t> next = generate_greedy(model, tokens, 8);
//
// Any device works: the weights are copied there, and every op runs on that device's backend (a
// plugin's kernels, or the CPU through its fallback). Thread safety: const members may be called
// from several threads at once.
#ifndef BACKPLANE_SAMPLES_GPT2_GPT2_MODEL_H_
#define BACKPLANE_SAMPLES_GPT2_GPT2_MODEL_H_

#include <cstdint>
#include <vector>

#include "samples/gpt2/gpt2_config.h"
#include "samples/gpt2/gpt2_layers.h"
#include "samples/gpt2/gpt2_weights.h"
#include "sdk/core/device.h"
#include "sdk/core/tensor.h"

namespace gpt2 {

class Gpt2Model {
 public:
  // Copies `weights` (made for `config`) into float32 tensors on `device`; `weights` may be
  // dropped afterwards.
  Gpt2Model(const Gpt2Config& config, const Gpt2Weights& weights, bp::Device device);

  const Gpt2Config& config() const { return config_; }
  bp::Device device() const { return device_; }

  // The logits of every position, [T, vocab] float32 on the model's device, for `tokens` (T of
  // them, 1 <= T <= n_positions; std::invalid_argument otherwise). Logits are h @ wte^T (the
  // embedding is tied).
  bp::Tensor forward(const std::vector<int64_t>& tokens) const;

 private:
  Gpt2Config config_;
  bp::Device device_;
  bp::Tensor wte_, wpe_;  // [vocab, C], [n_positions, C]
  std::vector<BlockTensors> blocks_;
  bp::Tensor ln_f_weight_, ln_f_bias_;
};

// Greedy decoding: `count` times, runs the whole sequence again (no key/value cache) and appends
// the argmax of the last position's logits. Returns the `count` new tokens. std::invalid_argument
// when the sequence would outgrow n_positions.
std::vector<int64_t> generate_greedy(const Gpt2Model& model, std::vector<int64_t> tokens,
                                     int64_t count);

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_GPT2_MODEL_H_
