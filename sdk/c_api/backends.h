// Plugin backends registered through the C ABI: their allocators, copy functions, devices, and
// the kernel registrations attached to them.
//
//   bp_backend* b;  api->backend_register(&desc, &b);    // a device type and dispatch key
//   add_registration(b, "kernel_register", [&](DispatchKey key, const std::string& label) {
//     return KernelRegistration{dispatcher.register_impl(op, key, kernel, label), state};
//   });
//   api->backend_unregister(b);                           // drops registrations, key, type
//
// Handles (bp_backend*, bp_registration*) are ids, never reused, so a stale handle gives an
// error instead of touching freed memory. The memory a backend's allocator handed out keeps the
// allocator (and the plugin's library) alive after unregistration, until the last tensor using
// it is released; then bp_backend_desc.on_released runs.
//
// Multi-device backends: the allocator is asked for memory on the "current device" of its type,
// a per-thread index that C ABI calls set from their tensor arguments or explicit device
// (CurrentDeviceGuard); it is 0 where nothing set it.
//
// Thread safety: every function may be called from any thread; registration takes one mutex.
// Unregistering while the backend's kernels or copies are running is not allowed (as in the
// dispatcher).
#ifndef BACKPLANE_SDK_C_API_BACKENDS_H_
#define BACKPLANE_SDK_C_API_BACKENDS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "backplane/backplane.h"
#include "sdk/core/device.h"
#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/value.h"

namespace bp::c_api {

// What plugin_load tells backend_register while a plugin's bp_plugin_init runs on this thread.
struct PluginScope {
  uint64_t plugin_id = 0;
  const bp_plugin_desc* desc = nullptr;  // the plugin's desc, being filled (for its name)
  std::shared_ptr<void> library;         // keeps the plugin's code loaded
};

// While alive, backends registered on this thread belong to `scope`'s plugin.
class LoadingPluginGuard {
 public:
  explicit LoadingPluginGuard(const PluginScope* scope);
  ~LoadingPluginGuard();
  LoadingPluginGuard(const LoadingPluginGuard&) = delete;
  LoadingPluginGuard& operator=(const LoadingPluginGuard&) = delete;

 private:
  const PluginScope* previous_;
};

// Unregisters every backend registered while plugin `plugin_id` was loading, and undoes the
// unowned registrations it made then.
void unregister_plugin_backends(uint64_t plugin_id) noexcept;

// The name of the plugin whose bp_plugin_init runs on this thread, "" when none.
std::string loading_plugin_name();

// One kernel or fallback registration kept by its backend: undone when destroyed.
struct KernelRegistration {
  RegistrationHandle handle;    // the dispatcher registration (undone first)
  std::shared_ptr<void> state;  // what the registered kernel reads (freed after)
};

// Runs `make` under the backends lock with the backend's dispatch key and label ("npu", or "npu
// (plugin vendor_x)" when its plugin has another name), keeps the registration it returns with
// the backend, and returns its handle. Errors: a NULL or unknown backend (naming `function`).
bp_registration* add_registration(
    bp_backend* backend, const char* function,
    absl::FunctionRef<KernelRegistration(DispatchKey key, const std::string& label)> make);
// Keeps a registration that belongs to no backend (a fallthrough, a wrapper key and its kernels)
// and returns its handle; `make` gets that handle first. It is undone by destroy_registration,
// or when the plugin loading on this thread (if any) unloads.
bp_registration* add_unowned_registration(
    absl::FunctionRef<KernelRegistration(bp_registration* handle)> make);
// Whether `registration` is a live registration of add_unowned_registration.
bool is_unowned_registration(const bp_registration* registration);
// Undoes a registration; NULL or an already undone one does nothing.
void destroy_registration(bp_registration* registration) noexcept;

// Sets this thread's current device for `device`'s type while alive (nothing for CPU, Meta, or
// nullopt).
class CurrentDeviceGuard {
 public:
  explicit CurrentDeviceGuard(std::optional<Device> device);
  ~CurrentDeviceGuard();
  CurrentDeviceGuard(const CurrentDeviceGuard&) = delete;
  CurrentDeviceGuard& operator=(const CurrentDeviceGuard&) = delete;

 private:
  bool active_ = false;
  Device previous_;
};

// Whether `device` belongs to a registered backend (not the CPU, not Meta): what
// CurrentDeviceGuard tracks.
inline bool is_backend_device(Device device) { return !device.is_cpu() && !device.is_meta(); }

// The device of the first tensor among `args` that is on a backend's device: what
// CurrentDeviceGuard is set to for a call.
std::optional<Device> device_of_arguments(absl::Span<const Value> args);

// Checks that `device` exists: a registered backend's device with an index below its
// device_count (CPU and Meta always exist). Errors (kInvalidArgument): "device index 3 is out of
// range for backend 'npu' (device_count 2)".
void check_device_exists(Device device);

// The thread's current index for devices of `type` (what CurrentDeviceGuard set; 0 where nothing
// did): what device id -1 means for a backend's device.
DeviceIndex current_device_index(DeviceType type);

// Waits for the work queued on `device` (the backend's copies.synchronize; nothing for CPU, Meta
// and backends without the hook). Errors: an unknown device, the hook's ("[npu] synchronize: ").
void synchronize_device(Device device);

// A backend's stream hooks (bp_backend_desc.streams) and what keeps them callable: streams.cc's
// view of a backend.
struct BackendStreams {
  std::string name;   // the backend's name, "npu"
  std::string label;  // for messages: "npu", or "npu (plugin vendor_x)"
  bool has_streams = false;
  bp_stream_fns fns{};  // all NULL without streams; callable while `owner` lives
  // The backend's allocator and functions: holding it keeps the plugin's library loaded and
  // delays on_released, also after the backend is unregistered.
  std::shared_ptr<const void> owner;
};

// The stream hooks of the backend that owns `device` (a backend's device with a resolved index).
// Errors: those of check_device_exists.
BackendStreams backend_streams(Device device);

// Whether `owner` (a BackendStreams::owner) is the registered backend of `type` still.
bool is_registered_backend(DeviceType type, const void* owner);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_BACKENDS_H_
