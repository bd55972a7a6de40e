// The loaded plugin: the driver, one CudaDevice per GPU, the backend the host registered, and
// helpers the boxed kernels share (which device a tensor is on, reading iteration plans).
//
// Thread safety: set up once in bp_plugin_init and torn down when the host reports the backend
// released (on_released: after unload, once the last device memory was freed); kernels only
// read it.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_PLUGIN_STATE_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_PLUGIN_STATE_H_

#include <functional>
#include <memory>
#include <vector>

#include "backplane/api.h"
#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/cublas.h"
#include "reference_backend/cuda/cublas_gemm.h"
#include "reference_backend/cuda/device.h"
#include "reference_backend/cuda/driver.h"
#include "reference_backend/cuda/iter_plan.h"
#include "reference_backend/cuda/kernel_cache.h"

namespace bp::cuda {

// The host's kernel cache service as the kernel cache's disk.
class HostDiskCache : public DiskCache {
 public:
  std::optional<std::vector<char>> get(const std::string& key) override;
  void put(const std::string& key, const std::vector<char>& data) override;
};

struct PluginState {
  std::unique_ptr<Driver> driver;
  HostDiskCache disk;
  std::vector<std::unique_ptr<CudaDevice>> devices;
  // cuBLAS and a handle per device (after `devices`: destroyed before their contexts), or none,
  // with why in cublas_status ("cuBLAS (libcublas.so.13)" / "no cuBLAS: <why>").
  std::unique_ptr<Cublas> cublas;
  std::vector<std::unique_ptr<CublasHandle>> cublas_handles;
  std::string cublas_status;
  bp_backend* backend = nullptr;
  int32_t device_type = 0;
  std::vector<bp_registration*> registrations;
};

// The plugin's state (nullptr before init and after unload).
PluginState* state();
void set_state(std::unique_ptr<PluginState> s);

// The CudaDevice of `device` (id -1: device 0). Throws Error for another device type or id.
CudaDevice& device_at(bp_device device);
CudaDevice& device_of(const bp_tensor* t);
// The cuBLAS handle of `device`, or nullptr when cuBLAS is not used (matrix products jitted).
CublasHandle* cublas_handle(const CudaDevice& device);

// The plan the host's Common key built for the kernel call that received `args`: the op's meta
// function's TensorIterator (api->kernel_call_iter; borrowed until the kernel returns). Throws
// Error with the host's message when the call has none.
const bp_iter* handed_plan(const bp_value* args);
// A plan's geometry and operands, as the planners read them.
IterPlan read_plan(const bp_iter* iter);
// Calls fn with each part of `iter` that fits 32-bit indexing.
void for_each_32bit(const bp_iter* iter, const std::function<void(const bp_iter*)>& fn);
// Builds a plan over these operands (outputs may hold NULL to allocate).
Iter build_iter(std::vector<bp_tensor*> outputs, std::vector<bp_tensor*> inputs, uint32_t flags);

// results[0] = a new reference to `t` (what out= and in-place kernels return).
void return_tensor(bp_value* results, size_t nresults, bp_tensor* t);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_PLUGIN_STATE_H_
