#include "reference_backend/cuda/device.h"

#include <vector>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {

namespace {
CUdeviceptr address(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }
}  // namespace

// cuMemAlloc / cuMemFree in this device's context.
class CudaDevice::Memory : public DeviceMemory {
 public:
  explicit Memory(const CudaDevice& device) : device_(device) {}
  void* allocate(size_t bytes) override {
    device_.activate();
    CUdeviceptr p = 0;
    const CUresult result = device_.driver().cuMemAlloc(&p, bytes);
    if (result == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    device_.driver().check(result, "cuMemAlloc");
    return reinterpret_cast<void*>(p);
  }
  void release(void* ptr) override {
    device_.activate();
    device_.driver().check(device_.driver().cuMemFree(address(ptr)), "cuMemFree");
  }

 private:
  const CudaDevice& device_;
};

// Modules stay loaded for the device's lifetime (their kernels are cached).
class CudaDevice::Loader : public ModuleLoader {
 public:
  explicit Loader(const CudaDevice& device) : device_(device) {}
  ~Loader() override {
    device_.activate();
    for (CUmodule m : modules_) device_.driver().cuModuleUnload(m);
  }
  void* load(const std::vector<char>& binary) override {
    device_.activate();
    CUmodule module = nullptr;
    device_.driver().check(device_.driver().cuModuleLoadData(&module, binary.data()),
                           "cuModuleLoadData");
    std::lock_guard<std::mutex> lock(mutex_);
    modules_.push_back(module);
    return module;
  }
  void* function(void* module, const std::string& entry) override {
    CUfunction f = nullptr;
    device_.driver().check(
        device_.driver().cuModuleGetFunction(&f, static_cast<CUmodule>(module), entry.c_str()),
        "cuModuleGetFunction");
    return f;
  }

 private:
  const CudaDevice& device_;
  std::mutex mutex_;
  std::deque<CUmodule> modules_;
};

CudaDevice::CudaDevice(const Driver& driver, int index, DiskCache* disk)
    : driver_(driver), index_(index) {
  driver.check(driver.cuDeviceGet(&device_, index), "cuDeviceGet");
  int major = 0, minor = 0;
  driver.check(
      driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_),
      "cuDeviceGetAttribute");
  driver.check(
      driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_),
      "cuDeviceGetAttribute");
  arch_ = major * 10 + minor;
  char name[256] = {};
  driver.check(driver.cuDeviceGetName(name, sizeof name - 1, device_), "cuDeviceGetName");
  name_ = name;
  driver.check(driver.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
  activate();
  driver.check(driver.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  memory_ = std::make_unique<Memory>(*this);
  loader_ = std::make_unique<Loader>(*this);
  allocator_ = std::make_unique<CachingAllocator>(memory_.get());
  kernels_ = std::make_unique<KernelCache>(arch_, disk, loader_.get());
}

CudaDevice::~CudaDevice() {
  activate();
  driver_.cuStreamSynchronize(stream_);
  kernels_.reset();
  allocator_.reset();
  loader_.reset();
  driver_.cuStreamDestroy(stream_);
  driver_.cuDevicePrimaryCtxRelease(device_);
}

void CudaDevice::activate() const {
  driver_.check(driver_.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

CUstream CudaDevice::current_stream() const {
  CUstream s = stream_source_ ? stream_source_() : nullptr;
  return s != nullptr ? s : stream_;
}

CUstream CudaDevice::create_stream() const {
  activate();
  CUstream s = nullptr;
  driver_.check(driver_.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  std::lock_guard<std::mutex> lock(streams_mutex_);
  streams_.insert(s);
  return s;
}

void CudaDevice::destroy_stream(CUstream s) const {
  activate();
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    streams_.erase(s);
  }
  driver_.check(driver_.cuStreamDestroy(s), "cuStreamDestroy");
}

bool CudaDevice::has_streams() const {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  return !streams_.empty();
}

void CudaDevice::synchronize_all() const {
  // Holding the lock: no stream is destroyed while it is being waited for.
  std::lock_guard<std::mutex> lock(streams_mutex_);
  synchronize_stream(stream_);
  for (CUstream s : streams_) synchronize_stream(s);
}

void CudaDevice::stream_wait(CUstream waiter, CUstream waitee) const {
  activate();
  CUevent event = nullptr;
  driver_.check(driver_.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  // The event may be destroyed at once: the wait keeps what it needs (as CUDA documents).
  CUresult result = driver_.cuEventRecord(event, waitee != nullptr ? waitee : stream_);
  if (result == CUDA_SUCCESS) {
    result = driver_.cuStreamWaitEvent(waiter != nullptr ? waiter : stream_, event, 0);
  }
  driver_.cuEventDestroy(event);
  driver_.check(result, "cuStreamWaitEvent");
}

bool CudaDevice::stream_idle(CUstream s) const {
  activate();
  const CUresult result = driver_.cuStreamQuery(s != nullptr ? s : stream_);
  if (result == CUDA_ERROR_NOT_READY) return false;
  driver_.check(result, "cuStreamQuery");
  return true;
}

void CudaDevice::synchronize_stream(CUstream s) const {
  activate();
  driver_.check(driver_.cuStreamSynchronize(s != nullptr ? s : stream_), "cuStreamSynchronize");
}

void CudaDevice::launch(void* function, Dim3 grid, Dim3 block, const void* params) const {
  activate();
  void* args[] = {const_cast<void*>(params)};
  driver_.check(
      driver_.cuLaunchKernel(static_cast<CUfunction>(function), grid.x, grid.y, grid.z, block.x,
                             block.y, block.z, 0, current_stream(), args, nullptr),
      "cuLaunchKernel");
}

void CudaDevice::synchronize() const { synchronize_stream(current_stream()); }

void CudaDevice::copy_to_host(void* dst, const void* src, size_t n) const {
  activate();
  driver_.check(driver_.cuMemcpyDtoHAsync(dst, address(src), n, current_stream()),
                "cuMemcpyDtoHAsync");
  synchronize();
}

void CudaDevice::copy_from_host(void* dst, const void* src, size_t n) const {
  activate();
  driver_.check(driver_.cuMemcpyHtoDAsync(address(dst), src, n, current_stream()),
                "cuMemcpyHtoDAsync");
  // The host buffer may be reused as soon as we return.
  synchronize();
}

void CudaDevice::copy_within(void* dst, const void* src, size_t n) const {
  activate();
  driver_.check(driver_.cuMemcpyDtoDAsync(address(dst), address(src), n, current_stream()),
                "cuMemcpyDtoDAsync");
}

}  // namespace bp::cuda
