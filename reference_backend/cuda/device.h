// One CUDA device as the plugin uses it: its primary context, one stream (the "default stream"
// every kernel and copy of this device is queued on, so work runs in call order), its caching
// allocator and its kernel cache.
//
//   CudaDevice device(driver, 0, &disk_cache);
//   void* p = device.allocator().allocate(n);
//   device.launch(function, {blocks}, {128}, &args);     // asynchronous
//   device.copy_to_host(host, p, n);                     // waits for queued work
//
// Thread safety: every member may be called from any thread (each call makes the context
// current on the calling thread first).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_DEVICE_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_DEVICE_H_

#include <cuda.h>

#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "reference_backend/cuda/caching_allocator.h"
#include "reference_backend/cuda/driver.h"
#include "reference_backend/cuda/kernel_cache.h"

namespace bp::cuda {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

class CudaDevice {
 public:
  // Retains the device's primary context and creates its stream. `disk` may be nullptr.
  CudaDevice(const Driver& driver, int index, DiskCache* disk);
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  int index() const { return index_; }
  int arch() const { return arch_; }  // compute capability as 10 * major + minor
  const std::string& name() const { return name_; }
  CUstream stream() const { return stream_; }
  const Driver& driver() const { return driver_; }

  // Makes this device's context current on the calling thread.
  void activate() const;
  CachingAllocator& allocator() { return *allocator_; }
  KernelCache& kernels() { return *kernels_; }

  // Queues a kernel on the stream.
  void launch(void* function, Dim3 grid, Dim3 block, const void* params) const;
  // Waits for everything queued on the stream.
  void synchronize() const;
  // Byte copies. to_host and from_host return when the host memory has been read or written;
  // within queues a device-to-device copy.
  void copy_to_host(void* dst, const void* src, size_t n) const;
  void copy_from_host(void* dst, const void* src, size_t n) const;
  void copy_within(void* dst, const void* src, size_t n) const;

 private:
  class Memory;
  class Loader;

  const Driver& driver_;
  int index_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  int arch_ = 0;
  std::string name_;
  std::unique_ptr<Memory> memory_;
  std::unique_ptr<Loader> loader_;
  std::unique_ptr<CachingAllocator> allocator_;
  std::unique_ptr<KernelCache> kernels_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_DEVICE_H_
