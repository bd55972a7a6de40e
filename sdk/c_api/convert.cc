#include "sdk/c_api/convert.h"

#include <array>
#include <limits>

#include "sdk/core/error.h"

namespace bp::c_api {
namespace {

constexpr int32_t pack_dlpack(const ScalarTypeInfo& info) {
  return static_cast<int32_t>(info.dlpack_code) | info.dlpack_bits << 8 | 1 << 16;
}

// The C header's enumerators are DLPack's encodings of kScalarTypeInfos, in the same order.
constexpr std::array<int32_t, kNumScalarTypes> kHeaderDtypes = {
    BP_DTYPE_BOOL,    BP_DTYPE_UINT8,   BP_DTYPE_INT8,      BP_DTYPE_INT16,
    BP_DTYPE_INT32,   BP_DTYPE_INT64,   BP_DTYPE_FLOAT16,   BP_DTYPE_BFLOAT16,
    BP_DTYPE_FLOAT32, BP_DTYPE_FLOAT64, BP_DTYPE_COMPLEX64, BP_DTYPE_COMPLEX128,
};
constexpr bool header_matches_dtype_table() {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (kHeaderDtypes[i] != pack_dlpack(kScalarTypeInfos[i])) return false;
  }
  return true;
}
static_assert(header_matches_dtype_table(),
              "types.h's bp_dtype must be DLPack's encoding of sdk/core/scalar_type.h's dtypes");
static_assert(BP_DEVICE_CPU == static_cast<int>(DeviceType::kCPU) &&
              BP_DEVICE_CUDA == static_cast<int>(DeviceType::kCUDA) &&
              BP_DEVICE_META == static_cast<int>(DeviceType::kMeta) &&
              BP_DEVICE_FIRST_PLUGIN == kFirstPluginDeviceType);
static_assert(BP_MEMORY_FORMAT_CONTIGUOUS == static_cast<int>(MemoryFormat::kContiguous) &&
              BP_MEMORY_FORMAT_CHANNELS_LAST == static_cast<int>(MemoryFormat::kChannelsLast) &&
              BP_MEMORY_FORMAT_CHANNELS_LAST_3D ==
                  static_cast<int>(MemoryFormat::kChannelsLast3d) &&
              BP_MEMORY_FORMAT_PRESERVE == static_cast<int>(MemoryFormat::kPreserve));

}  // namespace

ScalarType to_scalar_type(int32_t dtype) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (kHeaderDtypes[i] == dtype) return static_cast<ScalarType>(i);
  }
  detail::throw_error(ErrorCode::kTypeError,
                      detail::str_cat("unknown dtype code 0x", std::hex, dtype,
                                      " (dtypes are DLPack's encodings, e.g. BP_DTYPE_FLOAT32)"));
}

int32_t to_bp_dtype(ScalarType type) { return kHeaderDtypes[index_of(type)]; }

Device to_device(bp_device device) {
  const auto type = static_cast<DeviceType>(device.device_type);
  BP_CHECK(device.device_type > 0 && device.device_type < kDeviceTypeCodeLimit &&
               is_valid_device_type(type),
           "unknown device type code ", device.device_type,
           " (BP_DEVICE_CPU, BP_DEVICE_CUDA, BP_DEVICE_META, or a registered backend's)");
  BP_CHECK(device.device_id >= -1 && device.device_id <= std::numeric_limits<DeviceIndex>::max(),
           "device index ", device.device_id, " is out of range");
  return Device(type, static_cast<DeviceIndex>(device.device_id));
}

bp_device to_bp_device(Device device) {
  return bp_device{static_cast<int32_t>(device.type), static_cast<int32_t>(device.index)};
}

MemoryFormat to_memory_format(int32_t format) {
  BP_CHECK(format >= BP_MEMORY_FORMAT_CONTIGUOUS && format <= BP_MEMORY_FORMAT_PRESERVE,
           "unknown memory format code ", format);
  return static_cast<MemoryFormat>(format);
}

}  // namespace bp::c_api
