#include "reference_backend/cuda/cublas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace bp::cuda {

#define BP_CUBLAS_NAME(name, ...) #name,
const char* const kCublasFunctions[] = {BP_CUBLAS_FUNCTIONS(BP_CUBLAS_NAME)};
#undef BP_CUBLAS_NAME
const int kNumCublasFunctions = sizeof(kCublasFunctions) / sizeof(kCublasFunctions[0]);

std::unique_ptr<Cublas> Cublas::load(std::string* why_not) {
  const char* env = std::getenv("BP_CUDA_CUBLAS");
  std::vector<std::string> candidates;
  if (env != nullptr && *env != '\0') {
    candidates = {env};
  } else {
    const char* driver = std::getenv("BP_CUDA_DRIVER");
    if (driver != nullptr && *driver != '\0') {
      *why_not = "$BP_CUDA_DRIVER names another driver and $BP_CUDA_CUBLAS is unset";
      return nullptr;
    }
    candidates = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  }
  void* handle = nullptr;
  std::string tried;
  for (const std::string& path : candidates) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      candidates = {path};
      break;
    }
    const char* error = dlerror();
    tried += (tried.empty() ? "" : "; ") + path + ": " + (error ? error : "unknown");
  }
  if (handle == nullptr) {
    *why_not = "cannot load cuBLAS (" + tried + ")";
    return nullptr;
  }
  std::unique_ptr<Cublas> cublas(new Cublas());
  cublas->path_ = candidates[0];
  // The library stays loaded (as the driver): handles may be destroyed during process exit.
#define BP_CUBLAS_BIND(name, ...)                                                 \
  cublas->name = reinterpret_cast<decltype(cublas->name)>(dlsym(handle, #name));  \
  if (cublas->name == nullptr) {                                                  \
    *why_not = cublas->path_ + " lacks " #name " (a cuBLAS older than CUDA 12?)"; \
    return nullptr;                                                               \
  }
  BP_CUBLAS_FUNCTIONS(BP_CUBLAS_BIND)
#undef BP_CUBLAS_BIND
  return cublas;
}

std::string Cublas::describe(cublasStatus_t status) const {
  const char* text = cublasGetStatusString(status);
  return std::string(text != nullptr ? text : "cuBLAS error") + " (" +
         std::to_string(static_cast<int>(status)) + ")";
}

}  // namespace bp::cuda
