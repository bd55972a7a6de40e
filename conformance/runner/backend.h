// The backend under test, as the suite sees it: a device to run ops on, plus what the suite
// records about it (host/device traffic, which kernel serves an op).
//
//   CpuBackend cpu;
//   Tensor d = copy_to_device(host, backend.device());  // same geometry and bytes
//
// Backends: `CpuBackend` (the in-process reference backend), `PluginBackend` (plugin_backend.h: a
// device registered at run time with its own dispatch key, for in-process test backends) and
// `LoadedPluginBackend` (loaded_plugin_backend.h: a C-ABI plugin loaded from a shared library).
//
// Thread safety: a backend is used by one thread (the suite runs cases one at a time).
#ifndef BACKPLANE_CONFORMANCE_RUNNER_BACKEND_H_
#define BACKPLANE_CONFORMANCE_RUNNER_BACKEND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/runner/transfer_counters.h"
#include "sdk/core/device.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/dispatch_key.h"

namespace bp::conformance {

// What a backend's kernels did with the tensor handles the C ABI gave them (see
// sdk/c_api/handle_ledger.h): references created (new references and retains), released,
// returned as results, leaked (left when their kernel returned) and over-released (borrowed
// arguments released, or returned without a retain).
struct HandleCounts {
  int64_t created = 0;
  int64_t released = 0;
  int64_t returned = 0;
  int64_t leaked = 0;
  int64_t over_released = 0;

  bool any() const { return created != 0 || leaked != 0 || over_released != 0; }
  HandleCounts operator-(const HandleCounts& o) const {
    return {created - o.created, released - o.released, returned - o.returned, leaked - o.leaked,
            over_released - o.over_released};
  }
  HandleCounts& operator+=(const HandleCounts& o) {
    created += o.created;
    released += o.released;
    returned += o.returned;
    leaked += o.leaked;
    over_released += o.over_released;
    return *this;
  }
};

class Backend {
 public:
  virtual ~Backend() = default;

  // "cpu", or the plugin backend's name.
  virtual std::string name() const = 0;
  // One line for reports.
  virtual std::string description() const = 0;
  virtual Device device() const = 0;
  // The dispatch key the backend's tensors select.
  virtual DispatchKey key() const = 0;
  // Bytes moved between host and device so far (zero for the CPU).
  virtual Transfers transfers() const { return {}; }
  // Handle counts of its C ABI kernels so far (zero for backends without C ABI kernels).
  virtual HandleCounts handles() const { return {}; }
  // The handle problems found since the last call ("[npu] add.out: leaked 1 tensor reference
  // ..."), oldest first.
  virtual std::vector<std::string> take_handle_problems() const { return {}; }
  // Blocks until the work the backend queued so far is done, so a timer stopped after it counts
  // the work (the perf mode). Default: nothing (synchronous backends: the CPU, in-process test
  // backends). C ABI backends synchronize the current stream of their device through the
  // backend's stream hooks, or its copies' synchronize hook without streams. Errors: bp::Error
  // from the backend's hook.
  virtual void synchronize() const {}
  // Whether this is the reference CPU backend (results are not compared against it again).
  bool is_cpu() const { return device().type == DeviceType::kCPU; }
};

// The reference CPU backend (reference_backend/cpu), in process.
class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::string description() const override { return "the reference CPU backend (in process)"; }
  Device device() const override { return Device(DeviceType::kCPU); }
  DispatchKey key() const override { return DispatchKey::kCPU; }
};

// A tensor on `device` with `t`'s sizes, strides, storage offset, wrapped-number flag and
// storage bytes (Meta: geometry only). The copy goes through the devices' copy functions.
Tensor copy_to_device(const Tensor& t, Device device);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_BACKEND_H_
