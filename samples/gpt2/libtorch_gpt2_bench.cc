// GPT-2 small's forward pass (128 tokens, batch 1, float32, one thread) through Backplane
// (samples/gpt2's Gpt2Model) and through libtorch's C++ API (Debian's libtorch-dev 1.13.1, at::
// ops) with the same weights (make_gpt2_weights) and tokens, in the same process. First checks
// that the two give the same logits (max abs difference <= 1e-3, printed; exit code 1 otherwise),
// then times both forward passes with Google Benchmark and prints the ratio. Needs libtorch (the
// target is tagged manual: `bazel build //...` and `bazel test //...` skip it).
//
//   nice -n 10 bazel build --config=ci //samples/gpt2:libtorch_gpt2_bench
//   bazel-bin/samples/gpt2/libtorch_gpt2_bench [--tokens=128] [--benchmark_repetitions=3]
//
// ATEN_CPU_CAPABILITY picks libtorch's kernels (e.g. avx512), BP_CPU_CAPABILITY Backplane's.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "samples/gpt2/gpt2_model.h"
#include "samples/gpt2/gpt2_weights.h"
#include "samples/gpt2/host_tensors.h"
#include "sdk/iter/parallel.h"

namespace gpt2 {
namespace {

constexpr double kTolerance = 1e-3;

// ---- The same model in libtorch --------------------------------------------------------------

at::Tensor torch_tensor(const std::vector<float>& v, std::vector<int64_t> sizes) {
  return at::from_blob(const_cast<float*>(v.data()), sizes, at::kFloat).clone();
}

struct TorchBlock {
  at::Tensor ln_1_weight, ln_1_bias, attn_weight, attn_bias, attn_proj_weight, attn_proj_bias;
  at::Tensor ln_2_weight, ln_2_bias, mlp_fc_weight, mlp_fc_bias, mlp_proj_weight, mlp_proj_bias;
};

class TorchGpt2 {
 public:
  TorchGpt2(const Gpt2Config& config, const Gpt2Weights& w) : config_(config) {
    const int64_t c = config.n_embd;
    wte_ = torch_tensor(w.wte, {config.vocab_size, c});
    wpe_ = torch_tensor(w.wpe, {config.n_positions, c});
    for (const Gpt2LayerWeights& l : w.layers) {
      blocks_.push_back(TorchBlock{
          torch_tensor(l.ln_1_weight, {c}), torch_tensor(l.ln_1_bias, {c}),
          torch_tensor(l.attn_weight, {3 * c, c}), torch_tensor(l.attn_bias, {3 * c}),
          torch_tensor(l.attn_proj_weight, {c, c}), torch_tensor(l.attn_proj_bias, {c}),
          torch_tensor(l.ln_2_weight, {c}), torch_tensor(l.ln_2_bias, {c}),
          torch_tensor(l.mlp_fc_weight, {4 * c, c}), torch_tensor(l.mlp_fc_bias, {4 * c}),
          torch_tensor(l.mlp_proj_weight, {c, 4 * c}), torch_tensor(l.mlp_proj_bias, {c})});
    }
    ln_f_weight_ = torch_tensor(w.ln_f_weight, {c});
    ln_f_bias_ = torch_tensor(w.ln_f_bias, {c});
  }

  // [T, vocab], as Gpt2Model::forward.
  at::Tensor forward(const at::Tensor& tokens) const {
    const int64_t t = tokens.size(0), c = config_.n_embd, h = config_.n_head;
    const int64_t d = config_.head_dim();
    const double eps = config_.layer_norm_eps;
    at::Tensor x = at::embedding(wte_, tokens) + wpe_.narrow(0, 0, t);
    const at::Tensor future = at::ones({t, t}, at::kBool).triu(1);
    for (const TorchBlock& b : blocks_) {
      const at::Tensor qkv = at::linear(at::layer_norm(x, {c}, b.ln_1_weight, b.ln_1_bias, eps),
                                        b.attn_weight, b.attn_bias);
      std::vector<at::Tensor> parts = qkv.split(c, 1);
      for (at::Tensor& p : parts) p = p.view({t, h, d}).transpose(0, 1);
      at::Tensor scores =
          at::matmul(parts[0], parts[1].transpose(1, 2)) / std::sqrt(static_cast<double>(d));
      scores = scores.masked_fill(future, -std::numeric_limits<double>::infinity());
      const at::Tensor merged =
          at::matmul(at::softmax(scores, -1), parts[2]).transpose(0, 1).reshape({t, c});
      x = x + at::linear(merged, b.attn_proj_weight, b.attn_proj_bias);
      const at::Tensor hidden =
          at::gelu(at::linear(at::layer_norm(x, {c}, b.ln_2_weight, b.ln_2_bias, eps),
                              b.mlp_fc_weight, b.mlp_fc_bias),
                   "tanh");
      x = x + at::linear(hidden, b.mlp_proj_weight, b.mlp_proj_bias);
    }
    return at::linear(at::layer_norm(x, {c}, ln_f_weight_, ln_f_bias_, eps), wte_);
  }

 private:
  Gpt2Config config_;
  at::Tensor wte_, wpe_;
  std::vector<TorchBlock> blocks_;
  at::Tensor ln_f_weight_, ln_f_bias_;
};

// ---- Both models, built once -----------------------------------------------------------------

struct Models {
  std::unique_ptr<Gpt2Model> bp;
  std::unique_ptr<TorchGpt2> torch;
  std::vector<int64_t> tokens;
  at::Tensor torch_tokens;
};

Models& models() {
  static Models m;
  return m;
}

void build_models(int64_t token_count) {
  const Gpt2Config config;  // GPT-2 small
  Models& m = models();
  const Gpt2Weights weights = make_gpt2_weights(config, /*seed=*/1);
  m.bp = std::make_unique<Gpt2Model>(config, weights, bp::Device(bp::DeviceType::kCPU));
  m.torch = std::make_unique<TorchGpt2>(config, weights);
  m.tokens = make_prompt(config, token_count, /*seed=*/2);
  m.torch_tokens = at::from_blob(m.tokens.data(), {token_count}, at::kLong).clone();
}

// The largest |bp - torch| over the logits.
double logits_max_abs_diff() {
  const Models& m = models();
  const std::vector<float> ours = floats_of(m.bp->forward(m.tokens));
  const at::Tensor theirs = m.torch->forward(m.torch_tokens).contiguous();
  const float* p = theirs.data_ptr<float>();
  if (static_cast<int64_t>(ours.size()) != theirs.numel()) return INFINITY;
  double diff = 0;
  for (size_t i = 0; i < ours.size(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(ours[i]) - static_cast<double>(p[i])));
  }
  return diff;
}

// ---- Timing ----------------------------------------------------------------------------------

void BM_bp_gpt2_forward(benchmark::State& state) {
  bp::set_num_threads(1);
  const Models& m = models();
  for (auto _ : state) benchmark::DoNotOptimize(m.bp->forward(m.tokens));
}

void BM_torch_gpt2_forward(benchmark::State& state) {
  at::set_num_threads(1);
  const Models& m = models();
  for (auto _ : state) benchmark::DoNotOptimize(m.torch->forward(m.torch_tokens));
}

// Prints as the console does and keeps each benchmark's times per iteration (ms).
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  RecordingReporter() : ConsoleReporter(OO_Tabular) {}  // no colour codes in logs

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Iteration && !r.error_occurred) {
        ms_[r.run_name.function_name].push_back(r.GetAdjustedRealTime());
      }
    }
  }

  // The median time of `name`'s runs, or NaN.
  double median_ms(const std::string& name) const {
    auto it = ms_.find(name);
    if (it == ms_.end() || it->second.empty()) return NAN;
    std::vector<double> v = it->second;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

 private:
  std::map<std::string, std::vector<double>> ms_;
};

int64_t token_flag(int* argc, char** argv) {
  int64_t tokens = 128;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp(argv[i], "--tokens=", 9) == 0) {
      tokens = std::atoll(argv[i] + 9);
      std::copy(argv + i + 1, argv + *argc, argv + i);
      --*argc;
      break;
    }
  }
  return tokens;
}

}  // namespace
}  // namespace gpt2

int main(int argc, char** argv) {
  using namespace gpt2;
  const int64_t tokens = token_flag(&argc, argv);
  benchmark::Initialize(&argc, argv);
  c10::InferenceMode no_autograd;
  at::set_num_threads(1);
  bp::set_num_threads(1);
  build_models(tokens);
  std::cout << "GPT-2 small, " << tokens << " tokens, batch 1, float32, 1 thread each\n";
  const double diff = logits_max_abs_diff();
  std::cout << "logits max abs diff, Backplane vs libtorch: " << diff << " (tolerance "
            << kTolerance << ")\n";
  if (!(diff <= kTolerance)) {
    std::cerr << "FAIL: the logits differ by more than " << kTolerance << "\n";
    return 1;
  }
  benchmark::RegisterBenchmark("bp/gpt2_forward", BM_bp_gpt2_forward)
      ->Unit(benchmark::kMillisecond)
      ->MinTime(3.0);
  benchmark::RegisterBenchmark("torch/gpt2_forward", BM_torch_gpt2_forward)
      ->Unit(benchmark::kMillisecond)
      ->MinTime(3.0);
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double ours = reporter.median_ms("bp/gpt2_forward");
  const double theirs = reporter.median_ms("torch/gpt2_forward");
  std::cout << "forward: Backplane " << ours << " ms, libtorch " << theirs
            << " ms; Backplane / libtorch = " << ours / theirs << "\n";
  benchmark::Shutdown();
  return 0;
}
