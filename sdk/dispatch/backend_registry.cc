#include "sdk/dispatch/backend_registry.h"

#include <mutex>

#include "sdk/core/error.h"

namespace bp {
namespace {

static_assert(static_cast<int>(DeviceType::kCPU) == 1 && static_cast<int>(DeviceType::kCUDA) == 2 &&
                  static_cast<int>(DeviceType::kMeta) == 64,
              "builtin_device_keys assumes these device type codes");

struct Registry {
  std::mutex mutex;
  std::vector<std::optional<Backend>> slots;  // slot i holds plugin_key(i); grows on demand
  // Per device type code: how many begin_common_skip calls have not ended yet.
  std::array<int, detail::kDeviceKeyTableSize> common_skips{};
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: plugins may unload during exit
  return *r;
}

std::optional<Backend>* find_slot(Registry& r, std::string_view name) {
  for (auto& slot : r.slots) {
    if (slot && slot->name == name) return &slot;
  }
  return nullptr;
}

void set_device_keys(DeviceType type, DispatchKeySet keys) {
  auto code = static_cast<uint16_t>(type);
  BP_CHECK(code < detail::kDeviceKeyTableSize, "device type code ", code,
           " is too large for the dispatcher (at most ", detail::kDeviceKeyTableSize - 1, ")");
  detail::device_key_table.entries[code].store(keys.raw(), std::memory_order_relaxed);
}

}  // namespace

Backend register_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (auto* existing = find_slot(r, name)) {
    detail::throw_error(ErrorCode::kInvalidArgument,
                        detail::str_cat("backend '", name, "' is already registered (dispatch key ",
                                        (*existing)->key, ")"));
  }
  size_t i = 0;
  while (i < r.slots.size() && r.slots[i]) ++i;  // the lowest free number
  BP_CHECK(i < static_cast<size_t>(kMaxPluginBackends), "cannot register backend '", name,
           "': ", kMaxPluginBackends, " plugin backends are registered; unregister one first");
  DeviceType type = register_device_type(name);
  Backend b{std::string(name), type, plugin_key(static_cast<int>(i))};
  set_device_keys(type, DispatchKeySet(b.key).add(DispatchKey::kCommon));
  r.common_skips[static_cast<uint16_t>(type)] = 0;  // the code may have had a backend before
  if (i == r.slots.size()) r.slots.emplace_back();
  r.slots[i] = b;
  return b;
}

void unregister_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto* slot = find_slot(r, name);
  BP_CHECK(slot != nullptr, "no backend named '", name, "' is registered");
  set_device_keys((*slot)->device_type, DispatchKeySet());
  unregister_device_type((*slot)->device_type);
  slot->reset();
}

void begin_common_skip(DeviceType type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const DispatchKeySet keys = device_type_key_set(type);  // empty for codes past the table
  const auto code = static_cast<uint16_t>(type);
  BP_CHECK(keys.has(DispatchKey::kCommon) || (!keys.empty() && r.common_skips[code] > 0),
           "device type ", type, " has no Common key to skip");
  if (r.common_skips[code]++ == 0) set_device_keys(type, keys.remove(DispatchKey::kCommon));
}

void end_common_skip(DeviceType type) noexcept {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto code = static_cast<uint16_t>(type);
  if (code >= detail::kDeviceKeyTableSize || r.common_skips[code] == 0) return;
  const DispatchKeySet keys = device_type_key_set(type);
  // An unregistered backend's type has no keys left: nothing to give Common back to.
  if (--r.common_skips[code] == 0 && !keys.empty()) {
    set_device_keys(type, keys.add(DispatchKey::kCommon));
  }
}

std::optional<Backend> find_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto* slot = find_slot(r, name);
  return slot ? *slot : std::nullopt;
}

std::optional<Backend> backend_for_key(DispatchKey key) {
  if (!is_plugin_key(key)) return std::nullopt;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const size_t i = static_cast<uint32_t>(key) - kFirstPluginBackendKey;
  return i < r.slots.size() ? r.slots[i] : std::nullopt;
}

std::vector<Backend> list_backends() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<Backend> out;
  for (const auto& slot : r.slots) {
    if (slot) out.push_back(*slot);
  }
  return out;
}

}  // namespace bp
