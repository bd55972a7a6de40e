// Backends: which dispatch keys a device type's tensors carry, and plugin backends registered at
// run time by name.
//
//   Backend b = register_backend("mydev");  // b.device_type: a new DeviceType; b.key: PluginN
//   device_type_key_set(b.device_type);     // DispatchKeySet(Common, PluginN)
//   unregister_backend("mydev");            // frees the key for the next plugin
//
// Plugin keys are numbers, not a pool of names: a backend gets the lowest free plugin key
// number, and unregistering frees it for the next backend (the next one registered reuses it).
//
// Built-in device types map to: CPU -> {CPU}, CUDA -> {Common, CUDA} (the reference CUDA backend
// is a plugin in all but name), Meta -> {Meta}. A plugin device type maps to {Common, PluginN}.
// Device types with no backend map to the empty set (dispatching a call on them fails with a
// "Could not run" error).
//
// A backend may skip Common altogether (begin_common_skip): its tensors then carry only its own
// key.
//
// Thread safety: all functions are safe to call concurrently. device_type_key_set is one relaxed
// atomic load (it is on every call's path).
#ifndef BACKPLANE_SDK_DISPATCH_BACKEND_REGISTRY_H_
#define BACKPLANE_SDK_DISPATCH_BACKEND_REGISTRY_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sdk/core/device.h"
#include "sdk/core/error.h"
#include "sdk/dispatch/dispatch_key.h"

namespace bp {

struct Backend {
  std::string name;
  DeviceType device_type;
  DispatchKey key;
};

// Registers a plugin backend: a device type (core's register_device_type) and the lowest free
// plugin key number. Throws Error(kInvalidArgument) when `name` is already a registered backend,
// when kMaxPluginBackends backends are registered at once, and core's errors for the device type
// (a bad name; more than kMaxPluginDeviceTypes device type names in the process).
Backend register_backend(std::string_view name);

// Frees the backend's key and unregisters its device type. Throws when no such backend exists.
// Kernels still registered under its key keep working until their handles are destroyed.
void unregister_backend(std::string_view name);

// Takes the Common key out of (or, when the last skip ends, back into) the keys of `type`'s
// tensors: calls on them go straight to the backend's kernels, which then do the meta function's
// work (shape checks, output allocation, out= resizing) themselves. Skips nest: Common returns
// when as many end_common_skip calls as begin_common_skip calls have run. begin_common_skip
// throws Error(kInvalidArgument) for a device type whose keys do not include Common (CPU, Meta,
// no backend); an end without a begin does nothing.
void begin_common_skip(DeviceType type);
void end_common_skip(DeviceType type) noexcept;

std::optional<Backend> find_backend(std::string_view name);
// The plugin backend holding `key`, or nullopt.
std::optional<Backend> backend_for_key(DispatchKey key);
// Every registered plugin backend, by key.
std::vector<Backend> list_backends();

namespace detail {
inline constexpr int kDeviceKeyTableSize = 256;
static_assert(kDeviceTypeCodeLimit <= kDeviceKeyTableSize,
              "every plugin device type code needs an entry in the device -> keys table");

constexpr uint64_t builtin_device_keys(size_t device_type) {
  switch (device_type) {
    case 1:
      return DispatchKeySet(DispatchKey::kCPU).raw();
    case 2:
      return DispatchKeySet(DispatchKey::kCUDA).add(DispatchKey::kCommon).raw();
    case 64:
      return DispatchKeySet(DispatchKey::kMeta).raw();
    default:
      return 0;
  }
}

// Device type code -> raw key set, constant-initialised with the built-in types.
struct DeviceKeyTable {
  template <size_t... I>
  constexpr explicit DeviceKeyTable(std::index_sequence<I...>)
      : entries{builtin_device_keys(I)...} {}
  std::atomic<uint64_t> entries[kDeviceKeyTableSize];
};
inline constinit DeviceKeyTable device_key_table{std::make_index_sequence<kDeviceKeyTableSize>{}};
}  // namespace detail

// The keys a tensor on a device of this type contributes to a call.
inline DispatchKeySet device_type_key_set(DeviceType type) {
  auto code = static_cast<uint16_t>(type);
  if (BP_UNLIKELY(code >= detail::kDeviceKeyTableSize)) return DispatchKeySet();
  return DispatchKeySet::from_raw(
      detail::device_key_table.entries[code].load(std::memory_order_relaxed));
}

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_BACKEND_REGISTRY_H_
