// GPT-2 (reduced: 2 layers, 64 wide, 4 heads, 32 positions, vocab 101; 16 prompt tokens) through
// Backplane's C++ API: on the CPU against an independent double-precision forward pass; on the
// sample toy plugin's device, where most ops run through the CPU fallback (the test prints which);
// and on the CUDA plugin over the emulated driver, where no op falls back to the CPU. Logits match
// and greedy decoding picks the same tokens everywhere.
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/emulated_environment.h"
#include "samples/gpt2/fallback_census.h"
#include "samples/gpt2/gpt2_model.h"
#include "samples/gpt2/gpt2_weights.h"
#include "samples/gpt2/host_tensors.h"
#include "samples/gpt2/loaded_plugin.h"
#include "samples/gpt2/reference_forward.h"

namespace gpt2 {
namespace {

constexpr char kToyPlugin[] = "samples/c_plugin/libtoy_plugin.so";
using bp::emulated_cuda::kCudaPlugin;
using bp::emulated_cuda::kEmulatedDriver;
constexpr int64_t kPromptTokens = 16;
constexpr int64_t kNewTokens = 4;
// Weight matrices of N(0, 0.3): with GPT-2's 0.02 a model this small is dominated by its
// embeddings, and greedy decoding just repeats the last token.
constexpr double kWeightStd = 0.3;

template <typename A, typename B>
double max_abs_diff(const std::vector<A>& a, const std::vector<B>& b) {
  EXPECT_EQ(a.size(), b.size());
  double diff = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
  }
  return diff;
}

class Gpt2 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The CUDA plugin runs over the emulated driver and NVRTC only when they are named; the
    // emulated cuBLAS (the driver library exports it) serves the float32 products, as the
    // toolkit's would on a GPU.
    bp::emulated_cuda::use_emulated_cuda();
    setenv("BP_CUDA_CUBLAS", kEmulatedDriver, 1);
  }

  // The model on the CPU: its logits are what the other devices must give.
  std::vector<float> cpu_logits() const {
    return floats_of(
        Gpt2Model(config_, weights_, bp::Device(bp::DeviceType::kCPU)).forward(prompt_));
  }

  const Gpt2Config config_ = Gpt2Config::tiny();
  const Gpt2Weights weights_ = make_gpt2_weights(config_, /*seed=*/1, kWeightStd);
  const std::vector<int64_t> prompt_ = make_prompt(config_, kPromptTokens, /*seed=*/2);
};

// The ops the census charged CPU fallback calls to, printed as a table.
std::map<std::string, OpCalls> fallen_back(const FallbackCensus& census,
                                           const std::string& device) {
  std::map<std::string, OpCalls> out;
  std::cout << "Ops served by the CPU fallback on " << device
            << " (calls of the op / fallback calls):\n";
  for (const auto& [op, n] : census.by_op()) {
    if (n.fallback_calls == 0) continue;
    out[op] = n;
    std::cout << "  " << op << ": " << n.calls << " / " << n.fallback_calls << "\n";
  }
  std::cout << "  total fallback calls: " << census.fallback_calls() << "\n";
  return out;
}

int64_t charged(const std::map<std::string, OpCalls>& ops) {
  int64_t total = 0;
  for (const auto& [op, n] : ops) total += n.fallback_calls;
  return total;
}

TEST_F(Gpt2, CpuLogitsMatchADoublePrecisionReference) {
  for (const double stddev : {0.02, kWeightStd}) {  // GPT-2's initialisation, and the tests'
    const Gpt2Weights weights = make_gpt2_weights(config_, /*seed=*/1, stddev);
    const Gpt2Model model(config_, weights, bp::Device(bp::DeviceType::kCPU));
    const bp::Tensor logits = model.forward(prompt_);
    ASSERT_EQ(logits.dim(), 2);
    EXPECT_EQ(logits.size(0), kPromptTokens);
    EXPECT_EQ(logits.size(1), config_.vocab_size);
    const std::vector<double> expected = reference_logits(config_, weights, prompt_);
    const double diff = max_abs_diff(floats_of(logits), expected);
    const double largest = *std::max_element(expected.begin(), expected.end());
    std::cout << "weights N(0, " << stddev << "): CPU logits vs the double reference: max abs diff "
              << diff << " (largest logit " << largest << ")\n";
    EXPECT_LE(diff, 1e-4) << stddev;
    EXPECT_GT(largest, 0.1) << "logits too small for the comparison to mean something";
  }
}

TEST_F(Gpt2, CpuGreedyDecodingPicksTheReferencesTokens) {
  const Gpt2Model model(config_, weights_, bp::Device(bp::DeviceType::kCPU));
  const std::vector<int64_t> tokens = generate_greedy(model, prompt_, kNewTokens);
  EXPECT_EQ(tokens, reference_generate_greedy(config_, weights_, prompt_, kNewTokens));
  // Not just the last token again (the test's weights are chosen so).
  EXPECT_NE(std::count(tokens.begin(), tokens.end(), prompt_.back()), kNewTokens);
  EXPECT_THROW(generate_greedy(model, prompt_, config_.n_positions), std::invalid_argument);
}

TEST_F(Gpt2, OnTheToyPluginTheCpuFallbackServesWhatTheToyLacks) {
  const std::vector<float> expected = cpu_logits();
  const LoadedPlugin toy(kToyPlugin);
  const Gpt2Model model(config_, weights_, toy.device());
  const FallbackCensus census;
  const bp::Tensor logits = model.forward(prompt_);
  EXPECT_EQ(logits.device(), toy.device());
  const double diff = max_abs_diff(floats_of(logits), expected);
  std::cout << "toy logits vs CPU logits: max abs diff " << diff << "\n";
  EXPECT_LE(diff, 1e-5);

  std::map<std::string, OpCalls> ops = fallen_back(census, "toy");
  EXPECT_FALSE(ops.empty());
  // Every fallback call is charged to exactly one op.
  EXPECT_EQ(charged(ops), census.fallback_calls());
  // The toy's own float32 add.out (through Common) serves the residual adds; the adds with a
  // Scalar operand (float64, as layer_norm's eps) its kernel hands to the fallback.
  ASSERT_TRUE(census.by_op().count("bp::add.Tensor"));
  EXPECT_LT(ops["bp::add.Tensor"].fallback_calls, census.by_op().at("bp::add.Tensor").calls);
  // Ops the toy has no kernel for.
  for (const char* op : {"bp::addmm", "bp::bmm", "bp::gelu", "bp::softmax.int"}) {
    EXPECT_TRUE(ops.count(op)) << op;
  }

  EXPECT_EQ(generate_greedy(model, prompt_, kNewTokens),
            reference_generate_greedy(config_, weights_, prompt_, kNewTokens));
}

TEST_F(Gpt2, OnTheCudaPluginUnderTheEmulatedDriverLogitsMatchTheCpu) {
  const std::vector<float> expected = cpu_logits();
  const LoadedPlugin cuda(kCudaPlugin);
  ASSERT_EQ(cuda.device().type, bp::DeviceType::kCUDA);
  void* driver = dlopen(kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(driver, nullptr) << "the plugin did not load the emulated driver";
  const auto counters = reinterpret_cast<decltype(&bp_emulated_cuda_get_counters)>(
      dlsym(driver, "bp_emulated_cuda_get_counters"));
  ASSERT_NE(counters, nullptr);
  bp_emulated_cuda_counters before{}, after{};
  {
    const Gpt2Model model(config_, weights_, cuda.device());
    counters(&before);
    const FallbackCensus census;
    const bp::Tensor logits = model.forward(prompt_);
    EXPECT_EQ(logits.device().type, bp::DeviceType::kCUDA);
    const double diff = max_abs_diff(floats_of(logits), expected);
    counters(&after);
    std::cout << "CUDA (emulated) logits vs CPU logits: max abs diff " << diff << "; "
              << after.launches - before.launches << " kernel launches\n";
    EXPECT_LE(diff, 1e-4);
    EXPECT_GT(after.launches, before.launches) << "no kernel ran on the emulated device";
    EXPECT_GT(after.cublas_gemms, before.cublas_gemms) << "no product went through cuBLAS";
    const std::map<std::string, OpCalls> ops = fallen_back(census, "cuda");
    EXPECT_EQ(charged(ops), census.fallback_calls());
    // The plugin serves everything: jitted kernels the pointwise ops, softmax, layer_norm's
    // reductions and the embeddings' index_select, cuBLAS the linear layers' and attention's
    // matrix products.
    for (const char* op : {"bp::gelu", "bp::softmax.int", "bp::var.correction", "bp::addmm",
                           "bp::bmm", "bp::index_select"}) {
      EXPECT_FALSE(ops.count(op)) << op;
    }
    EXPECT_EQ(census.fallback_calls(), 0);
    EXPECT_EQ(generate_greedy(model, prompt_, kNewTokens),
              reference_generate_greedy(config_, weights_, prompt_, kNewTokens));
  }
  dlclose(driver);
}

}  // namespace
}  // namespace gpt2
