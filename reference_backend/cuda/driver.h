// The CUDA driver API, loaded with dlopen (libcuda.so.1, never linked): a machine without a
// driver loads the plugin fine and learns why CUDA is unavailable.
//
//   std::string why;
//   std::unique_ptr<Driver> driver = Driver::load(&why);   // nullptr: why == "CUDA unavailable:
//                                                          // cannot load libcuda.so.1 (...)"
//   driver->check(driver->cuMemAlloc(&ptr, n), "cuMemAlloc");  // throws Error on failure
//
// The library is $BP_CUDA_DRIVER when set (tests point it at a missing file or the toolkit's stub
// library), else libcuda.so.1. Functions are looked up by the versioned names cuda.h's macros
// expand to (cuMemAlloc_v2...). load() also runs cuInit and counts the devices: a stub library
// (CUDA_ERROR_STUB_LIBRARY), a driver without devices or a failing cuInit make CUDA unavailable.
//
// Thread safety: the function pointers are immutable after load; the driver API is thread-safe.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_DRIVER_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_DRIVER_H_

#include <cuda.h>

#include <memory>
#include <string>

namespace bp::cuda {

// X(name): every driver function the plugin uses.
#define BP_CUDA_DRIVER_FUNCTIONS(X) \
  X(cuInit)                         \
  X(cuDriverGetVersion)             \
  X(cuGetErrorName)                 \
  X(cuGetErrorString)               \
  X(cuDeviceGetCount)               \
  X(cuDeviceGet)                    \
  X(cuDeviceGetName)                \
  X(cuDeviceGetAttribute)           \
  X(cuDevicePrimaryCtxRetain)       \
  X(cuDevicePrimaryCtxRelease)      \
  X(cuCtxSetCurrent)                \
  X(cuMemAlloc)                     \
  X(cuMemFree)                      \
  X(cuMemGetInfo)                   \
  X(cuMemcpyHtoDAsync)              \
  X(cuMemcpyDtoHAsync)              \
  X(cuMemcpyDtoDAsync)              \
  X(cuStreamCreate)                 \
  X(cuStreamDestroy)                \
  X(cuStreamSynchronize)            \
  X(cuStreamQuery)                  \
  X(cuStreamWaitEvent)              \
  X(cuModuleLoadData)               \
  X(cuModuleUnload)                 \
  X(cuModuleGetFunction)            \
  X(cuLaunchKernel)                 \
  X(cuEventCreate)                  \
  X(cuEventRecord)                  \
  X(cuEventSynchronize)             \
  X(cuEventElapsedTime)             \
  X(cuEventDestroy)

class Driver {
 public:
  // The driver, or nullptr with *why_not = "CUDA unavailable: <reason>".
  static std::unique_ptr<Driver> load(std::string* why_not);
  ~Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

#define BP_CUDA_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  BP_CUDA_DRIVER_FUNCTIONS(BP_CUDA_DRIVER_MEMBER)
#undef BP_CUDA_DRIVER_MEMBER

  int device_count() const { return device_count_; }
  // "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory".
  std::string describe(CUresult result) const;
  // Throws Error naming `what` and the driver's message unless `result` is CUDA_SUCCESS
  // (BP_ERROR_OUT_OF_MEMORY for CUDA_ERROR_OUT_OF_MEMORY, BP_ERROR_INTERNAL otherwise).
  void check(CUresult result, const char* what) const;

 private:
  Driver() = default;
  void* handle_ = nullptr;
  int device_count_ = 0;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_DRIVER_H_
