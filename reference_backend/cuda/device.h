// One CUDA device as the plugin uses it: its primary context, its default stream (where kernels
// and copies go unless the stream source names another: the host's current stream, see
// set_stream_source), its caching allocator and its kernel cache. More streams come from
// create_stream (the backend's stream hooks).
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
#include <functional>
#include <memory>
#include <mutex>
#include <set>
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

  // Where work goes: `source` returns a stream of this device, or nullptr for the default stream
  // (the plugin asks the host for the calling thread's current stream). Set once, before use.
  void set_stream_source(std::function<CUstream()> source) { stream_source_ = std::move(source); }
  // The stream work of the calling thread goes to.
  CUstream current_stream() const;

  // Streams of this device besides its default stream (the backend's stream hooks).
  CUstream create_stream() const;
  void destroy_stream(CUstream stream) const;
  // Work queued on `waiter` from now on waits for the work queued on `waitee` so far (an event),
  // without blocking the host. nullptr is the default stream.
  void stream_wait(CUstream waiter, CUstream waitee) const;
  // Whether everything queued on `stream` is done, without blocking.
  bool stream_idle(CUstream stream) const;
  void synchronize_stream(CUstream stream) const;
  // Whether streams from create_stream are alive, and waiting for all of them and the default
  // one: the caching allocator reuses a freed block for work on any stream, so while several
  // streams exist, memory is freed only once no stream can still be using it.
  bool has_streams() const;
  void synchronize_all() const;

  // Queues a kernel on the current stream.
  void launch(void* function, Dim3 grid, Dim3 block, const void* params) const;
  // Waits for everything queued on the current stream.
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
  std::function<CUstream()> stream_source_;
  mutable std::mutex streams_mutex_;
  mutable std::set<CUstream> streams_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_DEVICE_H_
