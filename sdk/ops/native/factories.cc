// Factories and fills that work on every device (composite kernels).
#include "sdk/core/empty.h"
#include "sdk/core/promotion.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

Tensor empty_memory_format(IntArrayRef size, std::optional<ScalarType> dtype,
                           std::optional<Device> device,
                           std::optional<MemoryFormat> memory_format) {
  return empty(size, dtype.value_or(default_dtype()), device.value_or(Device(DeviceType::kCPU)),
               memory_format.value_or(MemoryFormat::kContiguous));
}

Tensor empty_strided_options(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                             std::optional<Device> device) {
  return empty_strided(size, stride, dtype.value_or(default_dtype()),
                       device.value_or(Device(DeviceType::kCPU)));
}

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor result = bp::empty(size, dtype, device);
  return bp::zero_(result);
}

Tensor& zero_(Tensor& self) { return bp::fill_(self, 0); }

Tensor& fill_meta_(Tensor& self, const Scalar& value) {
  (void)value;
  return self;
}

}  // namespace bp::native
