// Factories, fills and resizing that work on every device: new tensors come from the device's
// allocator (sdk/core/empty.h), element writes go through fill_ and copy_.
#include <optional>

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/promotion.h"
#include "sdk/core/resize.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// The strides of a new tensor like `self` in `format`; kPreserve keeps self's strides when they
// are dense and otherwise closes the gaps in self's dim order (PyTorch's empty_like rule).
DimVector strides_like(const Tensor& self, MemoryFormat format) {
  if (format != MemoryFormat::kPreserve) return contiguous_strides(self.sizes(), format);
  if (self.is_non_overlapping_and_dense())
    return DimVector(self.strides().begin(), self.strides().end());
  return infer_dense_strides(self.sizes(), self.strides());
}

// full's dtype when none is given: that of the fill value's kind (PyTorch's infer_full_options).
ScalarType full_dtype(const Scalar& fill_value) {
  if (fill_value.is_boolean()) return ScalarType::kBool;
  if (fill_value.is_integral(/*include_bool=*/false)) return ScalarType::kInt64;
  if (fill_value.is_complex()) return default_complex_dtype();
  return default_dtype();
}

// The number in a zero-dim tensor of any device (PyTorch's item()).
Scalar item(const Tensor& value) {
  const Tensor host =
      value.device().is_cpu() ? value : bp::_to_copy(value, std::nullopt, Device(DeviceType::kCPU));
  return visit_dtype(host.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Scalar(*static_cast<const T*>(host.data_ptr()));
  });
}

}  // namespace

Tensor empty_memory_format(IntArrayRef size, std::optional<ScalarType> dtype,
                           std::optional<Device> device,
                           std::optional<MemoryFormat> memory_format) {
  return native::empty(size, dtype.value_or(default_dtype()),
                       device.value_or(Device(DeviceType::kCPU)),
                       memory_format.value_or(MemoryFormat::kContiguous));
}

Tensor& empty_out(IntArrayRef size, std::optional<MemoryFormat> memory_format, Tensor& out) {
  BP_CHECK(!memory_format.has_value(),
           "'memory_format' argument is incompatible with 'out' tensor argument");
  check_size_nonnegative(size);
  return out.resize_(size);
}

Tensor empty_strided_options(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                             std::optional<Device> device) {
  return native::empty_strided(size, stride, dtype.value_or(default_dtype()),
                               device.value_or(Device(DeviceType::kCPU)));
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  return native::empty_strided(self.sizes(),
                               strides_like(self, memory_format.value_or(MemoryFormat::kPreserve)),
                               dtype.value_or(self.dtype()), device.value_or(self.device()));
}

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor result = bp::empty(size, dtype, device);
  return bp::zero_(result);
}

Tensor& zeros_out(IntArrayRef size, Tensor& out) { return bp::zero_(out.resize_(size)); }

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format) {
  Tensor result = bp::empty_like(self, dtype, device, memory_format);
  return bp::zero_(result);
}

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor result = bp::empty(size, dtype, device);
  return bp::fill_(result, 1);
}

Tensor& ones_out(IntArrayRef size, Tensor& out) { return bp::fill_(out.resize_(size), 1); }

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format) {
  Tensor result = bp::empty_like(self, dtype, device, memory_format);
  return bp::fill_(result, 1);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device) {
  Tensor result = bp::empty(size, dtype.value_or(full_dtype(fill_value)), device);
  return bp::fill_(result, fill_value);
}

Tensor& full_out(IntArrayRef size, const Scalar& fill_value, Tensor& out) {
  return bp::fill_(out.resize_(size), fill_value);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device, std::optional<MemoryFormat> memory_format) {
  Tensor result = bp::empty_like(self, dtype, device, memory_format);
  return bp::fill_(result, fill_value);
}

Tensor& fill_meta_(Tensor& self, const Scalar& value) {
  (void)value;  // PyTorch does not check the value against the dtype on Meta either.
  return self;
}

Tensor& fill_tensor_(Tensor& self, const Tensor& value) {
  BP_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
           value.dim(), " dimensions.");
  // A complex value into a real tensor is read as a number too: fill_.Scalar's conversion raises
  // "value cannot be converted to type float without overflow" for a non-zero imaginary part, as
  // PyTorch 1.13's fill_(self, value.item()) does (copy_ would drop the imaginary part).
  if (self.device() != value.device() || (is_complex(value.dtype()) && !is_complex(self.dtype())))
    return bp::fill_(self, item(value));
  // A value inside self would be overwritten before it is read everywhere.
  if (self.is_alias_of(value)) return bp::copy_(self, bp::clone(value));
  return bp::copy_(self, value);
}

Tensor& zero_(Tensor& self) { return bp::fill_(self, 0); }

Tensor& resize_(Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format) {
  // Same sizes: the strides stay (a transposed tensor stays transposed), as in PyTorch.
  if (self.sizes() != size) resize_tensor(*self.impl(), size);
  if (memory_format.has_value()) {
    // PyTorch's message, with c10's spelling of the format glued on.
    BP_CHECK(*memory_format != MemoryFormat::kPreserve, "Unsupported memory formatPreserve");
    resize_tensor(*self.impl(), size, std::nullopt, *memory_format);
  }
  return self;
}

Tensor& resize_as_(Tensor& self, const Tensor& the_template,
                   std::optional<MemoryFormat> memory_format) {
  self.resize_(the_template.sizes());
  if (!memory_format.has_value()) return self;
  const MemoryFormat format =
      *memory_format == MemoryFormat::kPreserve
          ? suggest_memory_format(the_template.sizes(), the_template.strides())
          : *memory_format;
  return self.resize_(the_template.sizes(), format);
}

}  // namespace bp::native
