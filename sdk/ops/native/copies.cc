// Copies that work on every device: copy_ for devices without a copy_ of their own (and its Meta
// kernel), clone, contiguous and the `to` family, all built on empty_like and copy_.
#include <optional>

#include "sdk/core/allocator.h"
#include "sdk/core/copy_rules.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/overlap.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// The bytes from t's first element to its last (strides are never negative).
size_t span_nbytes(const Tensor& t) {
  return compute_storage_nbytes(t.sizes(), t.strides(), t.itemsize());
}

// A CPU tensor with t's sizes and strides over a host buffer of the bytes t spans, holding a copy
// of them when `read` (else uninitialised).
Tensor host_mirror(const Tensor& t, bool read) {
  const size_t nbytes = span_nbytes(t);
  Storage storage = Storage::allocate(nbytes, cpu_allocator());
  if (read) copy_bytes(storage.data(), storage.device(), t.data_ptr(), t.device(), nbytes);
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), t.dtype(), t.sizes(),
                                               t.strides(), /*storage_offset=*/0));
}

// Whether self's elements are src's bytes in the same places: one byte copy does the job.
bool same_dense_layout(const Tensor& self, const Tensor& src) {
  return self.dtype() == src.dtype() && self.sizes() == src.sizes() &&
         self.strides() == src.strides() && self.is_non_overlapping_and_dense();
}

// Moves src's elements into self, converting and re-striding on the host: src comes over as a
// host mirror, self is written through one (read first when it has gaps that must survive) and
// its bytes go back. The CPU copy_ does the conversion.
void copy_staged_through_host(Tensor& self, const Tensor& src) {
  const Tensor host_src = src.device().is_cpu() ? src : host_mirror(src, /*read=*/true);
  if (self.device().is_cpu()) {
    bp::copy_(self, host_src);
    return;
  }
  Tensor host_self = host_mirror(self, /*read=*/!self.is_non_overlapping_and_dense());
  bp::copy_(host_self, host_src);
  copy_bytes(self.data_ptr(), self.device(), host_self.data_ptr(), host_self.device(),
             span_nbytes(self));
  self.bump_version();
}

// PyTorch's ensure_has_index comparison for `to`: a device type without an index names whichever
// device of that type the tensor is on (Backplane has no "current device"); CPU compares exactly.
bool is_same_device(Device requested, Device actual) {
  if (requested.type != actual.type) return false;
  return (!requested.has_index() && !requested.is_cpu()) || requested.index == actual.index;
}

// `to` returns self when nothing would change and no copy is asked for (PyTorch's to_will_alias).
bool to_will_alias(const Tensor& self, std::optional<ScalarType> dtype,
                   std::optional<Device> device, bool copy,
                   std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::kPreserve);
  return (!dtype || *dtype == self.dtype()) &&
         (!device || is_same_device(*device, self.device())) && !copy &&
         (format == MemoryFormat::kPreserve ||
          suggest_memory_format(self.sizes(), self.strides()) == format);
}

Tensor to_impl(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
               bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
  if (to_will_alias(self, dtype, device, copy, memory_format)) return self;
  return bp::_to_copy(self, dtype, device, non_blocking, memory_format);
}

}  // namespace

Tensor& copy_meta_(Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;
  BP_CHECK_NOT_IMPLEMENTED(self.device().is_meta(), "Cannot copy out of meta tensor; no data!");
  check_copy_shape(self, src);
  return self;
}

Tensor& copy_any_device_(Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;  // The device copy functions are synchronous.
  if (self.device().is_meta() || src.device().is_meta()) {
    return native::copy_meta_(self, src, non_blocking);
  }
  check_copy_shape(self, src);
  if (copy_is_noop(self, src) || self.numel() == 0) {
    self.bump_version();
    return self;
  }
  assert_no_internal_overlap(self);
  assert_no_partial_overlap(self, src);
  warn_if_copy_discards_imaginary(self, src);
  if (same_dense_layout(self, src)) {
    copy_bytes(self.data_ptr(), self.device(), src.data_ptr(), src.device(), self.nbytes());
    self.bump_version();
  } else {
    copy_staged_through_host(self, src);
  }
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor result = bp::empty_like(self, std::nullopt, std::nullopt, memory_format);
  return bp::copy_(result, self);
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (self.is_contiguous(memory_format)) return self;
  BP_CHECK(memory_format != MemoryFormat::kPreserve,
           "preserve memory format is unsupported by the contiguous operator");
  return bp::clone(self, memory_format);
}

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                bool non_blocking, std::optional<MemoryFormat> memory_format) {
  Tensor result = bp::empty_like(self, dtype, device, memory_format);
  return bp::copy_(result, self, non_blocking);
}

Tensor to_dtype(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
                std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, std::nullopt, non_blocking, copy, memory_format);
}

Tensor to_device(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy,
                 std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, device, non_blocking, copy, memory_format);
}

Tensor to_other(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
                std::optional<MemoryFormat> memory_format) {
  return to_impl(self, other.dtype(), other.device(), non_blocking, copy, memory_format);
}

}  // namespace bp::native
