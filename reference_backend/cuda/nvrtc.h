// NVRTC, loaded with dlopen (libnvrtc.so.13, or the library $BP_CUDA_NVRTC names: tests name the
// emulated NVRTC, emulation/nvrtc) on first use and kept for the life of the process; nothing
// links it, so the plugin loads on machines without CUDA.
//
//   const Nvrtc& nvrtc = Nvrtc::get();                     // throws Error(UNAVAILABLE) if absent
//   Nvrtc::Output out = nvrtc.compile(source, "add.cu", {"--gpu-architecture=sm_90"},
//                                     Nvrtc::kCubin);
//   if (!out.ok) report(out.log);                          // the compiler's messages
//
// Every kernel source compiles with kDefaultOptions (-default-device, C++17, no headers).
//
// Thread safety: get() and compile() may be called from any thread (NVRTC programs are
// independent; NVRTC serialises part of its work internally).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_H_

#include <string>
#include <vector>

namespace bp::cuda {

class Nvrtc {
 public:
  enum Target { kCubin, kPtx };
  struct Output {
    bool ok = false;
    std::string log;           // warnings and errors
    std::vector<char> binary;  // CUBIN (ELF) or PTX text, empty when !ok
  };

  // The process's NVRTC, loaded on the first call. Throws Error(BP_ERROR_UNAVAILABLE,
  // "NVRTC unavailable: <dlerror>") when it cannot be loaded (the failure is remembered).
  static const Nvrtc& get();

  // Compiles `source` for `arch` (an SM version such as 90): kCubin gives sm_<arch> machine
  // code, kPtx compute_<arch> PTX. `extra_options` follow kDefaultOptions.
  Output compile(const std::string& source, const std::string& name, int arch, Target target,
                 const std::vector<std::string>& extra_options = {}) const;

  // NVRTC's version, e.g. {13, 0}.
  int major() const { return major_; }
  int minor() const { return minor_; }
  // The SM versions this NVRTC can compile CUBINs for (75 ... 121).
  const std::vector<int>& supported_archs() const { return archs_; }

  static const std::vector<std::string>& default_options();

 private:
  Nvrtc() = default;
  struct Functions;
  const Functions* fn_ = nullptr;
  int major_ = 0, minor_ = 0;
  std::vector<int> archs_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_H_
