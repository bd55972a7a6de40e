// The properties of a tensor to be created: dtype, device and, optionally, a memory format.
//
//   TensorOptions options{ScalarType::kFloat32, Device(DeviceType::kCPU)};
//   options.memory_format = MemoryFormat::kChannelsLast;
//
// Passed by value (a few bytes). Thread safety: a plain value.
#ifndef BACKPLANE_SDK_CORE_TENSOR_OPTIONS_H_
#define BACKPLANE_SDK_CORE_TENSOR_OPTIONS_H_

#include <optional>

#include "sdk/core/device.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar_type.h"

namespace bp {

struct TensorOptions {
  ScalarType dtype = ScalarType::kFloat32;
  Device device;
  // Layout for outputs created without explicit strides; nullopt means contiguous.
  std::optional<MemoryFormat> memory_format;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_TENSOR_OPTIONS_H_
