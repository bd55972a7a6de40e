#include "reference_backend/cuda/driver.h"

#include <dlfcn.h>

#include <cstdlib>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

#define BP_CUDA_STRING(x) #x
#define BP_CUDA_EXPANDED_STRING(x) BP_CUDA_STRING(x)

}  // namespace

std::unique_ptr<Driver> Driver::load(std::string* why_not) {
  const char* env = std::getenv("BP_CUDA_DRIVER");
  const std::string path = env != nullptr && *env != '\0' ? env : "libcuda.so.1";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    *why_not = "CUDA unavailable: cannot load " + path + " (" + (error ? error : "unknown") + ")";
    return nullptr;
  }
  std::unique_ptr<Driver> driver(new Driver());
  driver->handle_ = handle;
  // cuda.h's macros map each name to its current version (cuMemAlloc -> cuMemAlloc_v2).
#define BP_CUDA_BIND(name)                                                                    \
  driver->name =                                                                              \
      reinterpret_cast<decltype(driver->name)>(dlsym(handle, BP_CUDA_EXPANDED_STRING(name))); \
  if (driver->name == nullptr) {                                                              \
    *why_not = "CUDA unavailable: " + path +                                                  \
               " lacks " BP_CUDA_EXPANDED_STRING(name) " (a driver older than CUDA 12?)";     \
    return nullptr;                                                                           \
  }
  BP_CUDA_DRIVER_FUNCTIONS(BP_CUDA_BIND)
#undef BP_CUDA_BIND
  CUresult result = driver->cuInit(0);
  if (result != CUDA_SUCCESS) {
    *why_not = "CUDA unavailable: cuInit failed: " + driver->describe(result);
    return nullptr;
  }
  result = driver->cuDeviceGetCount(&driver->device_count_);
  if (result != CUDA_SUCCESS) {
    *why_not = "CUDA unavailable: cuDeviceGetCount failed: " + driver->describe(result);
    return nullptr;
  }
  if (driver->device_count_ == 0) {
    *why_not = "CUDA unavailable: the driver reports no CUDA device";
    return nullptr;
  }
  return driver;
}

Driver::~Driver() {
  // The driver library stays loaded: contexts and modules may outlive this object during
  // process exit, and unloading libcuda is not supported by NVIDIA anyway.
}

std::string Driver::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "CUDA error";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || text == nullptr) text = "no description";
  return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + "): " + text;
}

void Driver::check(CUresult result, const char* what) const {
  if (result == CUDA_SUCCESS) return;
  throw Error(result == CUDA_ERROR_OUT_OF_MEMORY ? BP_ERROR_OUT_OF_MEMORY : BP_ERROR_INTERNAL,
              std::string(what) + " failed: " + describe(result));
}

}  // namespace bp::cuda
