#include "reference_backend/cuda/nvrtc.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {

struct Nvrtc::Functions {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetNumSupportedArchs) num_archs = nullptr;
  decltype(&nvrtcGetSupportedArchs) archs = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
};

namespace {

// $BP_CUDA_NVRTC when set (tests name the emulated NVRTC, emulation/nvrtc), else libnvrtc.so.13.
std::string library_path() {
  const char* env = std::getenv("BP_CUDA_NVRTC");
  return env != nullptr && *env != '\0' ? env : "libnvrtc.so.13";
}

template <typename F>
void bind(void* handle, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  BP_CUDA_CHECK(fn != nullptr, BP_ERROR_UNAVAILABLE, "NVRTC unavailable: ", library_path(),
                " lacks ", name);
}

}  // namespace

const std::vector<std::string>& Nvrtc::default_options() {
  static const std::vector<std::string> options = {"-default-device", "--std=c++20", "-DNDEBUG"};
  return options;
}

const Nvrtc& Nvrtc::get() {
  static std::once_flag once;
  // Destroyed with the library (a plugin may be unloaded): only the NVRTC handle stays open.
  static std::unique_ptr<Functions> functions;
  static std::unique_ptr<Nvrtc> instance;
  static std::string failure;
  std::call_once(once, [] {
    // Kept open for the life of the process (NVRTC caches state across programs).
    void* handle = dlopen(library_path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      failure = std::string("NVRTC unavailable: ") + dlerror();
      return;
    }
    try {
      auto fn = std::make_unique<Functions>();
      bind(handle, fn->version, "nvrtcVersion");
      bind(handle, fn->num_archs, "nvrtcGetNumSupportedArchs");
      bind(handle, fn->archs, "nvrtcGetSupportedArchs");
      bind(handle, fn->create, "nvrtcCreateProgram");
      bind(handle, fn->compile, "nvrtcCompileProgram");
      bind(handle, fn->log_size, "nvrtcGetProgramLogSize");
      bind(handle, fn->log, "nvrtcGetProgramLog");
      bind(handle, fn->ptx_size, "nvrtcGetPTXSize");
      bind(handle, fn->ptx, "nvrtcGetPTX");
      bind(handle, fn->cubin_size, "nvrtcGetCUBINSize");
      bind(handle, fn->cubin, "nvrtcGetCUBIN");
      bind(handle, fn->destroy, "nvrtcDestroyProgram");
      bind(handle, fn->error_string, "nvrtcGetErrorString");
      std::unique_ptr<Nvrtc> nvrtc(new Nvrtc());
      fn->version(&nvrtc->major_, &nvrtc->minor_);
      int count = 0;
      fn->num_archs(&count);
      nvrtc->archs_.resize(static_cast<size_t>(count));
      if (count > 0) fn->archs(nvrtc->archs_.data());
      functions = std::move(fn);
      nvrtc->fn_ = functions.get();
      instance = std::move(nvrtc);
    } catch (const Error& e) {
      failure = e.what();
    }
  });
  BP_CUDA_CHECK(instance != nullptr, BP_ERROR_UNAVAILABLE, failure);
  return *instance;
}

Nvrtc::Output Nvrtc::compile(const std::string& source, const std::string& name, int arch,
                             Target target, const std::vector<std::string>& extra_options) const {
  Output out;
  nvrtcProgram program = nullptr;
  nvrtcResult result = fn_->create(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (result != NVRTC_SUCCESS) {
    out.log = std::string("nvrtcCreateProgram: ") + fn_->error_string(result);
    return out;
  }
  std::vector<std::string> options = default_options();
  options.push_back(std::string("--gpu-architecture=") + (target == kCubin ? "sm_" : "compute_") +
                    std::to_string(arch));
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  std::vector<const char*> option_ptrs;
  for (const std::string& o : options) option_ptrs.push_back(o.c_str());
  result = fn_->compile(program, static_cast<int>(option_ptrs.size()), option_ptrs.data());
  size_t log_size = 0;
  fn_->log_size(program, &log_size);
  if (log_size > 1) {
    out.log.resize(log_size);
    fn_->log(program, out.log.data());
    out.log.resize(log_size - 1);  // the terminating NUL
  }
  if (result == NVRTC_SUCCESS) {
    size_t size = 0;
    if (target == kCubin) {
      fn_->cubin_size(program, &size);
      out.binary.resize(size);
      fn_->cubin(program, out.binary.data());
    } else {
      fn_->ptx_size(program, &size);
      out.binary.resize(size);
      fn_->ptx(program, out.binary.data());
    }
    out.ok = true;
  } else if (out.log.empty()) {
    out.log = fn_->error_string(result);
  }
  fn_->destroy(&program);
  return out;
}

}  // namespace bp::cuda
