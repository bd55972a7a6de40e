#include "sdk/core/device.h"

#include <array>
#include <atomic>
#include <charconv>
#include <mutex>
#include <string>

#include "sdk/core/error.h"

namespace bp {
namespace {

constexpr std::string_view kBuiltinNames[] = {"cpu", "cuda", "meta"};
constexpr DeviceType kBuiltinTypes[] = {DeviceType::kCPU, DeviceType::kCUDA, DeviceType::kMeta};

// Plugin types. A slot's name is written once (under `mutex`) before `used` is published, and
// never changes afterwards, so readers need no lock: codes stay bound to their name for the life
// of the process, which keeps names returned by device_type_name valid.
struct PluginRegistry {
  std::mutex mutex;
  std::array<std::string, kMaxPluginDeviceTypes> names;
  std::array<std::atomic<bool>, kMaxPluginDeviceTypes> active{};
  std::atomic<int> used{0};
};

PluginRegistry& registry() {
  static PluginRegistry* instance = new PluginRegistry();  // Never destroyed: outlives plugins.
  return *instance;
}

// The slot of a plugin code that has been handed out, or -1.
int plugin_slot(DeviceType type) {
  int slot = static_cast<int>(type) - kFirstPluginDeviceType;
  if (slot < 0 || slot >= registry().used.load(std::memory_order_acquire)) return -1;
  return slot;
}

bool is_valid_plugin_name(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

}  // namespace

DeviceType register_device_type(std::string_view name) {
  BP_CHECK(is_valid_plugin_name(name), "invalid device type name '", name,
           "': expected lower-case letters, digits and '_', starting with a letter");
  for (std::string_view builtin : kBuiltinNames) {
    BP_CHECK(name != builtin, "device type name '", name,
             "' is reserved for a built-in device type");
  }
  PluginRegistry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  int used = reg.used.load(std::memory_order_relaxed);
  for (int slot = 0; slot < used; ++slot) {
    if (reg.names[slot] == name) {
      reg.active[slot].store(true, std::memory_order_release);
      return static_cast<DeviceType>(kFirstPluginDeviceType + slot);
    }
  }
  BP_CHECK(used < kMaxPluginDeviceTypes, "cannot register device type '", name, "': all ",
           kMaxPluginDeviceTypes, " plugin device types are in use");
  reg.names[used] = std::string(name);
  reg.active[used].store(true, std::memory_order_release);
  reg.used.store(used + 1, std::memory_order_release);
  return static_cast<DeviceType>(kFirstPluginDeviceType + used);
}

void unregister_device_type(DeviceType type) {
  int slot = plugin_slot(type);
  BP_CHECK(slot >= 0 && registry().active[slot].load(std::memory_order_acquire),
           "unregister_device_type: ", static_cast<int>(type),
           " is not a registered plugin device type");
  registry().active[slot].store(false, std::memory_order_release);
}

bool is_valid_device_type(DeviceType type) {
  for (DeviceType builtin : kBuiltinTypes) {
    if (type == builtin) return true;
  }
  int slot = plugin_slot(type);
  return slot >= 0 && registry().active[slot].load(std::memory_order_acquire);
}

std::string_view device_type_name(DeviceType type) {
  for (size_t i = 0; i < std::size(kBuiltinTypes); ++i) {
    if (type == kBuiltinTypes[i]) return kBuiltinNames[i];
  }
  int slot = plugin_slot(type);
  BP_CHECK(slot >= 0, "unknown device type code ", static_cast<int>(type));
  return registry().names[slot];
}

std::optional<DeviceType> device_type_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kBuiltinNames); ++i) {
    if (name == kBuiltinNames[i]) return kBuiltinTypes[i];
  }
  PluginRegistry& reg = registry();
  int used = reg.used.load(std::memory_order_acquire);
  for (int slot = 0; slot < used; ++slot) {
    if (reg.names[slot] == name && reg.active[slot].load(std::memory_order_acquire)) {
      return static_cast<DeviceType>(kFirstPluginDeviceType + slot);
    }
  }
  return std::nullopt;
}

int dlpack_device_type(DeviceType type) {
  switch (type) {
    case DeviceType::kCPU:
      return 1;
    case DeviceType::kCUDA:
      return 2;
    case DeviceType::kMeta:
      return -1;
  }
  return 12;  // kDLExtDev: every plugin type.
}

std::ostream& operator<<(std::ostream& out, DeviceType type) {
  return out << device_type_name(type);
}

void Device::throw_invalid_index() const {
  detail::throw_error(ErrorCode::kInvalidArgument,
                      index < -1
                          ? detail::str_cat("Device index must be -1 or non-negative, got ", index)
                          : detail::str_cat("CPU device index must be -1 or zero, got ", index));
}

Device Device::parse(std::string_view text) {
  BP_CHECK(!text.empty(), "Device string must not be empty");
  size_t colon = text.find(':');
  std::string_view type_name = text.substr(0, colon);
  std::optional<DeviceType> type = device_type_from_name(type_name);
  if (!type) {
    std::string expected = "cpu, cuda, meta";
    PluginRegistry& reg = registry();
    int used = reg.used.load(std::memory_order_acquire);
    for (int slot = 0; slot < used; ++slot) {
      if (reg.active[slot].load(std::memory_order_acquire)) expected += ", " + reg.names[slot];
    }
    BP_CHECK(false, "Expected one of ", expected, " device type at start of device string: ", text);
  }
  if (colon == std::string_view::npos) return Device(*type);
  std::string_view digits = text.substr(colon + 1);
  int index = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  // PyTorch accepts only plain digits: no sign, no leading zero (except "0"), nothing after.
  bool valid = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size() &&
               digits[0] != '-' && digits[0] != '+' && (digits.size() == 1 || digits[0] != '0') &&
               index <= INT16_MAX;
  BP_CHECK(valid, "Invalid device string: '", text, "'");
  return Device(*type, static_cast<DeviceIndex>(index));
}

std::ostream& operator<<(std::ostream& out, const Device& device) {
  out << device.type;
  if (device.has_index()) out << ':' << device.index;
  return out;
}

}  // namespace bp
