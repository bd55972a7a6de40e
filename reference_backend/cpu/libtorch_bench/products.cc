// Matrix products, layer_norm and embedding at GPT-2 small's shapes, Backplane next to libtorch
// (see support.h).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "benchmark/benchmark.h"
#include "reference_backend/cpu/libtorch_bench/support.h"
#include "sdk/core/empty.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/ops.h"

namespace bp_bench {
namespace {

// Matrix products at GPT-2 small's shapes (128 tokens, 768 wide), float32, one thread: x [m, k]
// times a weight stored [n, k] and transposed (as linear's), and attention's batched product.
// Items are multiply-adds times two: the table's G/s column is GFLOP/s.
void BM_bp_linear(benchmark::State& state, int64_t m, int64_t k, int64_t n) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({m, k}), w = bp_values({n, k});
  bp::Tensor out = bp_values({m, n});
  measure(state, [&] { bp::mm_out(out, x, w.t()); });
  state.SetItemsProcessed(state.iterations() * 2 * m * k * n);
}

void BM_torch_linear(benchmark::State& state, int64_t m, int64_t k, int64_t n) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({m, k}), w = torch_values({n, k});
  at::Tensor out = torch_values({m, n});
  measure(state, [&] { at::mm_out(out, x, w.t()); });
  state.SetItemsProcessed(state.iterations() * 2 * m * k * n);
}

void BM_bp_attention_scores(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor q = bp_values({12, 128, 64}), k = bp_values({12, 128, 64});
  bp::Tensor out = bp_values({12, 128, 128});
  measure(state, [&] { bp::bmm_out(out, q, k.transpose(1, 2)); });
  state.SetItemsProcessed(state.iterations() * 2 * 12 * 128 * 64 * 128);
}

void BM_torch_attention_scores(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor q = torch_values({12, 128, 64}), k = torch_values({12, 128, 64});
  at::Tensor out = torch_values({12, 128, 128});
  measure(state, [&] { at::bmm_out(out, q, k.transpose(1, 2)); });
  state.SetItemsProcessed(state.iterations() * 2 * 12 * 128 * 64 * 128);
}

// layer_norm over GPT-2 small's rows ([128, 768], weight and bias) and its token embedding
// (128 rows of a [50257, 768] table), float32, one thread.
void BM_bp_layer_norm(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor x = bp_values({128, 768}), w = bp_values({768}), b = bp_values({768});
  const int64_t shape[] = {768};
  measure(state, [&] { benchmark::DoNotOptimize(bp::layer_norm(x, shape, w, b, 1e-5)); });
  state.SetItemsProcessed(state.iterations() * 128 * 768);
}

void BM_torch_layer_norm(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor x = torch_values({128, 768}), w = torch_values({768}), b = torch_values({768});
  measure(state, [&] { benchmark::DoNotOptimize(at::layer_norm(x, {768}, w, b, 1e-5)); });
  state.SetItemsProcessed(state.iterations() * 128 * 768);
}

void BM_bp_embedding(benchmark::State& state) {
  bp::set_num_threads(1);
  const bp::Tensor table = bp_values({50257, 768});
  const bp::Tensor tokens = bp::remainder(bp::mul(bp::arange(128), 389), 50257);
  measure(state, [&] { benchmark::DoNotOptimize(bp::embedding(table, tokens)); });
  state.SetBytesProcessed(state.iterations() * 128 * 768 * 4);
}

void BM_torch_embedding(benchmark::State& state) {
  at::set_num_threads(1);
  const at::Tensor table = torch_values({50257, 768});
  const at::Tensor tokens = at::remainder(at::mul(at::arange(128), 389), 50257);
  measure(state, [&] { benchmark::DoNotOptimize(at::embedding(table, tokens)); });
  state.SetBytesProcessed(state.iterations() * 128 * 768 * 4);
}

bool register_products() {
  for (const auto& [name, m, k, n] : {std::tuple{"linear_qkv_128x768x2304", 128, 768, 2304},
                                      std::tuple{"linear_proj_128x768x768", 128, 768, 768},
                                      std::tuple{"linear_fc2_128x3072x768", 128, 3072, 768},
                                      std::tuple{"linear_1x768x2304", 1, 768, 2304}}) {
    register_side_by_side(name, BM_bp_linear, BM_torch_linear, m, k, n);
  }
  register_side_by_side("bmm_attention_12x128x64x128", BM_bp_attention_scores,
                        BM_torch_attention_scores);
  register_side_by_side("layer_norm_128x768", BM_bp_layer_norm, BM_torch_layer_norm);
  register_side_by_side("embedding_128_of_50257x768", BM_bp_embedding, BM_torch_embedding);
  return true;
}
[[maybe_unused]] const bool registered_products = register_products();

}  // namespace
}  // namespace bp_bench
