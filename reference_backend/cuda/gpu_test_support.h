// The process's first CUDA device for GPU-only tests and benchmarks (no libbackplane): the
// driver loaded once, or the reason it cannot be.
//
//   CudaDevice* device = test_device();
//   if (device == nullptr) GTEST_SKIP() << test_device_unavailable_reason();
//
// Thread safety: the first call initialises (thread-safe); the device is shared.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_GPU_TEST_SUPPORT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_GPU_TEST_SUPPORT_H_

#include <string>

#include "reference_backend/cuda/device.h"

namespace bp::cuda {

// Device 0, or nullptr without a usable driver or GPU.
CudaDevice* test_device();
// "CUDA unavailable: ..." when test_device() is nullptr.
const std::string& test_device_unavailable_reason();

// Device memory holding `n` elements of T, freed on destruction.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer(CudaDevice& device, size_t n)
      : device_(device), n_(n), data_(device.allocator().allocate(n * sizeof(T))) {}
  ~DeviceBuffer() { device_.allocator().deallocate(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  char* data() const { return static_cast<char*>(data_); }
  size_t bytes() const { return n_ * sizeof(T); }

 private:
  CudaDevice& device_;
  size_t n_;
  void* data_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_GPU_TEST_SUPPORT_H_
