// Compiled kernels of one device: compiled with NVRTC on first use for the device's
// architecture, kept in memory, and kept on disk through the host's kernel cache (the plugin
// writes no files itself), so that a kernel is compiled once per machine, not once per process.
//
//   KernelCache cache(90, &disk, &loader);
//   void* f = cache.get(kernel.entry_name(), [&] { ProgramSource p; p.add(kernel); return p; });
//   cache.stats().compiles;      // 1 the first time, unchanged afterwards
//
// Keys: in memory, the entry name (it names the op, dtypes, variant and vector width; a cache
// serves one architecture and the process's one program head, i.e. one math version). On disk,
// "cuda/<entry>/sm_<arch>/nvrtc<version>/<hash of the program text>", so that any change to the
// prelude, math, templates or the kernel makes a new key.
//
// Architectures NVRTC cannot compile machine code for (newer GPUs) get PTX of the newest
// architecture it knows, which the driver compiles on load.
//
// Errors: Error(BP_ERROR_INTERNAL) with NVRTC's log when a kernel does not compile;
// BP_ERROR_UNAVAILABLE without NVRTC. A failing disk cache only costs a compile.
//
// Thread safety: get() may be called concurrently; compiles are serialised.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CACHE_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CACHE_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference_backend/cuda/kernel_source.h"

namespace bp::cuda {

// The host's disk cache (api->kernel_cache_get / put in the plugin).
class DiskCache {
 public:
  virtual ~DiskCache() = default;
  virtual std::optional<std::vector<char>> get(const std::string& key) = 0;
  virtual void put(const std::string& key, const std::vector<char>& data) = 0;
};

// Loads machine code into the device (cuModuleLoadData / cuModuleGetFunction in the plugin).
class ModuleLoader {
 public:
  virtual ~ModuleLoader() = default;
  // A loaded module holding the program's kernels; throws Error on failure.
  virtual void* load(const std::vector<char>& binary) = 0;
  virtual void* function(void* module, const std::string& entry) = 0;
};

class KernelCache {
 public:
  struct Stats {
    int64_t memory_hits = 0;
    int64_t disk_hits = 0;
    int64_t compiles = 0;
    double compile_seconds = 0;  // NVRTC time of all compiles
  };

  // `disk` may be nullptr (no disk cache).
  KernelCache(int arch, DiskCache* disk, ModuleLoader* loader);

  // The loaded kernel `entry`; on a miss, `program` gives the source to compile (a program
  // defining `entry`).
  void* get(const std::string& entry, const std::function<ProgramSource()>& program);

  Stats stats() const;
  int arch() const { return arch_; }
  // The disk key of a program text (see the file comment).
  std::string disk_key(const std::string& entry, const std::string& text) const;

 private:
  int arch_;
  DiskCache* disk_;
  ModuleLoader* loader_;
  mutable std::mutex mutex_;
  std::mutex compile_mutex_;
  std::unordered_map<std::string, void*> functions_;
  Stats stats_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CACHE_H_
