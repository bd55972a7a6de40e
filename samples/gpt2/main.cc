// Runs GPT-2 (small by default: 124M parameters, weights made from a seed) through Backplane on
// the CPU or on a plugin's device: one forward pass over a prompt of random tokens, then greedy
// decoding. Prints the tokens and the times; on a plugin, also which ops the CPU fallback served.
//
//   bazel build --config=ci //samples/gpt2 //samples:c_plugin/libtoy_plugin.so
//   bazel-bin/samples/gpt2/gpt2 --prompt_tokens=64 --new_tokens=4 --threads=2
//   bazel-bin/samples/gpt2/gpt2 --size=tiny --device=bazel-bin/samples/c_plugin/libtoy_plugin.so
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "samples/gpt2/fallback_census.h"
#include "samples/gpt2/gpt2_model.h"
#include "samples/gpt2/gpt2_weights.h"
#include "samples/gpt2/loaded_plugin.h"
#include "sdk/iter/parallel.h"

ABSL_FLAG(std::string, size, "small", "model size: small (GPT-2 small) or tiny (the tests')");
ABSL_FLAG(int64_t, n_layer, 0, "number of blocks (0: the size's)");
ABSL_FLAG(int64_t, prompt_tokens, 16, "prompt length (random tokens)");
ABSL_FLAG(int64_t, new_tokens, 8, "tokens to generate greedily");
ABSL_FLAG(std::string, device, "cpu", "cpu, or the path of a plugin (.so) to run on");
ABSL_FLAG(int64_t, seed, 1, "seed of the weights (the prompt uses seed + 1)");
ABSL_FLAG(double, weight_std, 0.02, "standard deviation of the weight matrices");
ABSL_FLAG(int, threads, 0, "CPU threads (0: Backplane's default)");

namespace gpt2 {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void print_tokens(const char* what, const std::vector<int64_t>& tokens) {
  std::cout << what << ":";
  for (int64_t t : tokens) std::cout << " " << t;
  std::cout << "\n";
}

void print_fallbacks(const FallbackCensus& census) {
  std::cout << "ops served by the CPU fallback (calls / fallback calls):\n";
  for (const auto& [op, n] : census.by_op()) {
    if (n.fallback_calls > 0)
      std::cout << "  " << op << ": " << n.calls << " / " << n.fallback_calls << "\n";
  }
}

int run() {
  Gpt2Config config = absl::GetFlag(FLAGS_size) == "tiny" ? Gpt2Config::tiny() : Gpt2Config();
  if (absl::GetFlag(FLAGS_size) != "tiny" && absl::GetFlag(FLAGS_size) != "small") {
    std::cerr << "--size: expected small or tiny\n";
    return 2;
  }
  if (absl::GetFlag(FLAGS_n_layer) > 0) config.n_layer = absl::GetFlag(FLAGS_n_layer);
  if (absl::GetFlag(FLAGS_threads) > 0) bp::set_num_threads(absl::GetFlag(FLAGS_threads));
  const auto seed = static_cast<uint64_t>(absl::GetFlag(FLAGS_seed));
  const std::string device_flag = absl::GetFlag(FLAGS_device);

  // Declared before the model: the plugin unloads after the model's tensors are gone.
  std::unique_ptr<LoadedPlugin> plugin;
  bp::Device device(bp::DeviceType::kCPU);
  if (device_flag != "cpu") {
    plugin = std::make_unique<LoadedPlugin>(device_flag);
    device = plugin->device();
  }
  std::cout << "GPT-2: " << config.n_layer << " layers, " << config.n_embd << " wide, "
            << config.n_head << " heads, " << config.n_positions << " positions, vocab "
            << config.vocab_size << "; device " << device << "; " << bp::get_num_threads()
            << " CPU threads\n";

  auto start = std::chrono::steady_clock::now();
  const Gpt2Model model(config, make_gpt2_weights(config, seed, absl::GetFlag(FLAGS_weight_std)),
                        device);
  std::cout << "weights made and copied to the device in " << seconds_since(start) << " s\n";

  const std::vector<int64_t> prompt =
      make_prompt(config, absl::GetFlag(FLAGS_prompt_tokens), seed + 1);
  print_tokens("prompt", prompt);
  std::optional<FallbackCensus> census;
  if (plugin) census.emplace();
  start = std::chrono::steady_clock::now();
  model.forward(prompt);
  std::cout << "one forward pass over " << prompt.size() << " tokens: " << seconds_since(start)
            << " s\n";

  start = std::chrono::steady_clock::now();
  const std::vector<int64_t> generated =
      generate_greedy(model, prompt, absl::GetFlag(FLAGS_new_tokens));
  const double generation = seconds_since(start);
  print_tokens("generated", generated);
  std::cout << "greedy decoding (a full forward pass per token): " << generation << " s, "
            << generation / static_cast<double>(std::max<size_t>(generated.size(), 1))
            << " s per token\n";
  if (census) print_fallbacks(*census);
  return 0;
}

}  // namespace
}  // namespace gpt2

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  try {
    return gpt2::run();
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
