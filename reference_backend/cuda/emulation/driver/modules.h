// Modules of the emulated driver: cuModuleLoadData takes what NVRTC produced (PTX text, a CUBIN,
// or the emulated NVRTC's image, emulation/nvrtc) and cuModuleGetFunction binds an entry point the
// image defines to the host-compiled emulation of the same kernel (emulator.h's registry: the
// kernel sources the plugin generates, compiled as host C++ at build time), or for an elementwise
// kernel the prebuilt set lacks, to its stand-in (substitutes.h). An entry the image does not
// define, or that has neither, is CUDA_ERROR_NOT_FOUND naming it.
//
// Thread safety: a Module is immutable once loaded.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_MODULES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_MODULES_H_

#include <cuda.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "reference_backend/cuda/emulation/driver/image_format.h"
#include "reference_backend/cuda/emulation/driver/substitutes.h"
#include "reference_backend/cuda/emulation/emulator.h"

namespace bp::emulated_cuda {

struct Function {
  std::string name;
  emulation::EmulatedKernel kernel;
  // Set when the kernel runs as a stand-in (substitutes.h); `kernel` is then the stand-in's.
  std::optional<Substitute> substitute;
};

class Module {
 public:
  // The module of an image, or nullptr with the error explained (CUDA_ERROR_INVALID_IMAGE).
  static std::unique_ptr<Module> load(const void* image, CUresult* result);
  CUresult function(const char* name, Function** out);
  ~Module();

 private:
  enum class Format { kPtx, kCubin, kEmulated };
  Module() = default;
  bool defines(const std::string& name) const;
  Format format_ = Format::kPtx;
  std::string image_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Function>> functions_;
};

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_MODULES_H_
