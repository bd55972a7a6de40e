// Gpt2Config: the sizes of a GPT-2 model. The defaults are GPT-2 small (124M parameters); tests
// shrink them.
//
//   Gpt2Config small;                          // 12 layers, 768 wide, 12 heads, 1024, 50257
//   Gpt2Config tiny = Gpt2Config::tiny();      // 2 layers, 64 wide, 4 heads, 32, 101
//
// Plain C++ (no Backplane): the libtorch side of the benchmark includes it too.
#ifndef BACKPLANE_SAMPLES_GPT2_GPT2_CONFIG_H_
#define BACKPLANE_SAMPLES_GPT2_GPT2_CONFIG_H_

#include <cstdint>

namespace gpt2 {

struct Gpt2Config {
  int64_t n_layer = 12;
  int64_t n_embd = 768;  // the residual stream's width, C
  int64_t n_head = 12;   // C must divide by it
  int64_t n_positions = 1024;
  int64_t vocab_size = 50257;
  double layer_norm_eps = 1e-5;

  int64_t head_dim() const { return n_embd / n_head; }

  // The size the tests run: small enough for a plain double-precision reference under ASan.
  static Gpt2Config tiny() {
    Gpt2Config c;
    c.n_layer = 2;
    c.n_embd = 64;
    c.n_head = 4;
    c.n_positions = 32;
    c.vocab_size = 101;
    return c;
  }
};

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_GPT2_CONFIG_H_
