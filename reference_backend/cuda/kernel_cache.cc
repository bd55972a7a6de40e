#include "reference_backend/cuda/kernel_cache.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/jit_sources.h"
#include "reference_backend/cuda/nvrtc.h"

namespace bp::cuda {
namespace {

// Machine code for `arch`, or PTX for the newest architecture NVRTC knows below it.
std::pair<int, Nvrtc::Target> target_for(const Nvrtc& nvrtc, int arch) {
  const std::vector<int>& archs = nvrtc.supported_archs();
  if (std::find(archs.begin(), archs.end(), arch) != archs.end()) return {arch, Nvrtc::kCubin};
  int best = 0;
  for (int a : archs) {
    if (a <= arch) best = std::max(best, a);
  }
  BP_CUDA_CHECK(best != 0, BP_ERROR_NOT_IMPLEMENTED, "NVRTC ", nvrtc.major(), ".", nvrtc.minor(),
                " cannot compile for sm_", arch);
  return {best, Nvrtc::kPtx};
}

}  // namespace

KernelCache::KernelCache(int arch, DiskCache* disk, ModuleLoader* loader)
    : arch_(arch), disk_(disk), loader_(loader) {}

std::string KernelCache::disk_key(const std::string& entry, const std::string& text) const {
  const Nvrtc& nvrtc = Nvrtc::get();
  std::string options;
  for (const std::string& o : Nvrtc::default_options()) options += o + " ";
  uint64_t hash = fnv1a(text.data(), text.size());
  hash = fnv1a(options.data(), options.size(), hash);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return "cuda/" + entry + "/sm_" + std::to_string(arch_) + "/nvrtc" +
         std::to_string(nvrtc.major()) + "." + std::to_string(nvrtc.minor()) + "/" + hex;
}

void* KernelCache::get(const std::string& entry, const std::function<ProgramSource()>& program) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = functions_.find(entry);
    if (it != functions_.end()) {
      ++stats_.memory_hits;
      return it->second;
    }
  }
  // One compile at a time: a second thread asking for the same kernel waits and finds it.
  std::lock_guard<std::mutex> compiling(compile_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = functions_.find(entry);
    if (it != functions_.end()) {
      ++stats_.memory_hits;
      return it->second;
    }
  }
  const std::string text = program().text();
  const std::string key = disk_key(entry, text);
  std::optional<std::vector<char>> binary;
  if (disk_ != nullptr) binary = disk_->get(key);
  bool from_disk = binary.has_value();
  if (!from_disk) {
    const Nvrtc& nvrtc = Nvrtc::get();
    const auto [arch, target] = target_for(nvrtc, arch_);
    const auto start = std::chrono::steady_clock::now();
    Nvrtc::Output out = nvrtc.compile(text, entry + ".cu", arch, target);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BP_CUDA_CHECK(out.ok, BP_ERROR_INTERNAL, "NVRTC failed to compile CUDA kernel ", entry,
                  " for sm_", arch_, ":\n", out.log);
    binary = std::move(out.binary);
    if (disk_ != nullptr) disk_->put(key, *binary);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.compiles;
    stats_.compile_seconds += seconds;
  }
  void* module = loader_->load(*binary);
  void* function = loader_->function(module, entry);
  std::lock_guard<std::mutex> lock(mutex_);
  if (from_disk) ++stats_.disk_hits;
  functions_[entry] = function;
  return function;
}

KernelCache::Stats KernelCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace bp::cuda
