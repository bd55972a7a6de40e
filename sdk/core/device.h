// Where a tensor's memory lives: a device type (CPU, CUDA, Meta or a plugin's type registered at
// run time) and an index.
//
//   Device d = Device::parse("cuda:1");           // {DeviceType::kCUDA, 1}
//   std::cout << d;                               // "cuda:1"
//   DeviceType npu = register_device_type("npu"); // a plugin backend's type, code >= 128
//   Device n(npu, 0);                             // prints "npu:0"
//   dlpack_device_type(npu);                      // 12 (kDLExtDev)
//
// Codes of built-in types are DLPack's where DLPack has one (CPU 1, CUDA 2), so they cross the
// C ABI unchanged. Plugin types get codes 128..(128 + kMaxPluginDeviceTypes - 1).
//
// Thread safety: registration, unregistration and every lookup may run concurrently.
#ifndef BACKPLANE_SDK_CORE_DEVICE_H_
#define BACKPLANE_SDK_CORE_DEVICE_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace bp {

enum class DeviceType : int16_t {
  kCPU = 1,    // DLPack kDLCPU.
  kCUDA = 2,   // DLPack kDLCUDA.
  kMeta = 64,  // Sizes and strides only, no data (no DLPack equivalent).
  // Plugin device types: codes from kFirstPluginDeviceType up, handed out by
  // register_device_type.
};

inline constexpr int16_t kFirstPluginDeviceType = 128;
// 127: codes up to 254 fit the dispatcher's device -> keys table (256 entries). Names stay
// bound to their code for the life of the process, so this bounds distinct plugin backend names.
inline constexpr int kMaxPluginDeviceTypes = 127;
// One past the largest code any DeviceType can have; tables indexed by code use this size.
inline constexpr int kDeviceTypeCodeLimit = kFirstPluginDeviceType + kMaxPluginDeviceTypes;

using DeviceIndex = int16_t;

// Returns the device type registered under `name`, registering it on first use (codes from 128
// up). Idempotent: the same name gets the same code, also after unregister and re-register.
// Errors (kInvalidArgument): an empty name, a name that is not [a-z0-9_]+ or is a built-in name
// ("cpu", "cuda", "meta"), or more than kMaxPluginDeviceTypes names.
DeviceType register_device_type(std::string_view name);

// Marks a plugin type as no longer registered: its name no longer parses and its code is
// reserved for the same name. Errors: not a registered plugin type.
void unregister_device_type(DeviceType type);

// Whether `type` is a built-in type or a currently registered plugin type.
bool is_valid_device_type(DeviceType type);

// "cpu", "cuda", "meta", or the plugin's name. Plugin names stay valid for the life of the
// process (also after unregister). Errors: a code that was never registered.
std::string_view device_type_name(DeviceType type);

// The type named `name` (built-in or currently registered plugin), or nullopt.
std::optional<DeviceType> device_type_from_name(std::string_view name);

// DLPack's DLDeviceType for `type`: CPU 1, CUDA 2, plugin types kDLExtDev (12); -1 for Meta,
// which DLPack cannot describe.
int dlpack_device_type(DeviceType type);

std::ostream& operator<<(std::ostream& out, DeviceType type);

// A device: its type and index. Index -1 means "the current device" (and is how CPU tensors
// report their device); CPU accepts only -1 and 0, as in PyTorch.
struct Device {
  DeviceType type = DeviceType::kCPU;
  DeviceIndex index = -1;

  constexpr Device() = default;
  // Errors: an index below -1, or a CPU index other than -1 and 0 ("CPU device index must be -1
  // or zero, got 1").
  // Inline: devices are made on every tensor allocation; only the error is out of line.
  Device(DeviceType type, DeviceIndex index = -1)  // NOLINT: implicit, as c10::Device.
      : type(type), index(index) {
    if (index < -1 || (type == DeviceType::kCPU && index > 0)) throw_invalid_index();
  }

  // Parses "cpu", "cuda:1", "npu:0". Errors (kInvalidArgument) with PyTorch's messages:
  // "Invalid device string: 'cuda:x'" and "Expected one of cpu, cuda, meta device type at start
  // of device string: foo" (the list names the registered plugin types too).
  static Device parse(std::string_view text);

  bool has_index() const { return index != -1; }
  bool is_cpu() const { return type == DeviceType::kCPU; }
  bool is_meta() const { return type == DeviceType::kMeta; }

  friend bool operator==(const Device& a, const Device& b) = default;

 private:
  [[noreturn]] void throw_invalid_index() const;
};

// "cpu", "cuda:1": the type name, then ":index" when there is one.
std::ostream& operator<<(std::ostream& out, const Device& device);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_DEVICE_H_
