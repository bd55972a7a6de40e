// Tensors through the C ABI: creation on any device, host transfers, metadata, references.
#include <cstring>

#include "sdk/c_api/backends.h"
#include "sdk/c_api/convert.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/handle_ledger.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/structs.h"
#include "sdk/core/allocator.h"
#include "sdk/core/empty.h"
#include "sdk/core/geometry_check.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/core/views.h"
#include "sdk/ops/copies.h"

namespace bp::c_api {
namespace {

IntArrayRef sizes_of(const int64_t* sizes, size_t ndim, const char* function) {
  if (ndim > 0) require(sizes, function, "sizes");
  return IntArrayRef(sizes, ndim);
}

// `device` checked to exist, with "the current device" (-1) resolved for plugin devices.
Device checked_device(bp_device in) {
  Device device = to_device(in);
  check_device_exists(device);
  return device;
}

void check_nbytes(const Tensor& t, size_t nbytes, const char* function) {
  BP_CHECK(nbytes == t.nbytes(), "bp_api.", function, ": nbytes is ", nbytes, " but a ", t.dtype(),
           " tensor of sizes ", int_list_string(t.sizes()), " holds ", t.nbytes());
}

// A CPU tensor over caller memory that is not freed with it.
Tensor borrowed_cpu_tensor(void* data, size_t nbytes, ScalarType dtype, IntArrayRef sizes,
                           IntArrayRef strides) {
  Storage storage =
      Storage::wrap(DataPtr(data, nullptr, nullptr, Device(DeviceType::kCPU)), nbytes);
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), dtype, sizes, strides, 0));
}

bp_error* tensor_empty(const int64_t* sizes, size_t ndim, int32_t dtype, bp_device device,
                       bp_tensor** out) {
  return guarded([&] {
    require(out, "tensor_empty", "out");
    const IntArrayRef shape = sizes_of(sizes, ndim, "tensor_empty");
    check_tensor_sizes(shape, "bp_api.tensor_empty");
    const Device d = checked_device(device);
    CurrentDeviceGuard current(d);
    *out = new_reference(native::empty(shape, to_scalar_type(dtype), d));
  });
}

bp_error* tensor_empty_strided(const int64_t* sizes, const int64_t* strides, size_t ndim,
                               int32_t dtype, bp_device device, bp_tensor** out) {
  return guarded([&] {
    require(out, "tensor_empty_strided", "out");
    const IntArrayRef shape = sizes_of(sizes, ndim, "tensor_empty_strided");
    if (ndim > 0) require(strides, "tensor_empty_strided", "strides");
    const IntArrayRef layout(strides, ndim);
    const ScalarType type = to_scalar_type(dtype);
    check_tensor_geometry(shape, layout, 0, element_size(type), std::nullopt,
                          "bp_api.tensor_empty_strided");
    const Device d = checked_device(device);
    CurrentDeviceGuard current(d);
    *out = new_reference(native::empty_strided(shape, layout, type, d));
  });
}

bp_error* tensor_from_host(const void* data, size_t nbytes, const int64_t* sizes, size_t ndim,
                           int32_t dtype, bp_device device, bp_tensor** out) {
  return guarded([&] {
    require(out, "tensor_from_host", "out");
    if (nbytes > 0) require(data, "tensor_from_host", "data");
    const IntArrayRef shape = sizes_of(sizes, ndim, "tensor_from_host");
    check_tensor_sizes(shape, "bp_api.tensor_from_host");
    const Device d = checked_device(device);
    CurrentDeviceGuard current(d);
    Tensor t = native::empty(shape, to_scalar_type(dtype), d);
    check_nbytes(t, nbytes, "tensor_from_host");
    if (nbytes > 0) copy_bytes(t.data_ptr(), t.device(), data, Device(DeviceType::kCPU), nbytes);
    *out = new_reference(std::move(t));
  });
}

bp_error* tensor_wrap(void* data, const int64_t* sizes, const int64_t* strides, size_t ndim,
                      int32_t dtype, bp_device device, void (*deleter)(void*),
                      void* deleter_context, bp_tensor** out) {
  return guarded([&] {
    require(out, "tensor_wrap", "out");
    const IntArrayRef shape = sizes_of(sizes, ndim, "tensor_wrap");
    const ScalarType type = to_scalar_type(dtype);
    const Device d = checked_device(device);
    check_tensor_sizes(shape, "bp_api.tensor_wrap");
    const DimVector layout =
        strides != nullptr ? DimVector(strides, strides + ndim) : contiguous_strides(shape);
    const size_t nbytes =
        static_cast<size_t>(check_tensor_geometry(shape, layout, 0, element_size(type),
                                                  std::nullopt, "bp_api.tensor_wrap")
                                .storage_nbytes);
    BP_CHECK(data != nullptr || nbytes == 0 || d.is_meta(), "bp_api.tensor_wrap: `data` is NULL");
    // From here nothing throws before the tensor owns the memory (the deleter runs once).
    Storage storage = Storage::wrap(DataPtr(data, deleter_context, deleter, d), nbytes);
    *out = new_reference(
        Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), type, shape, layout, 0)));
  });
}

bp_error* tensor_to_host(const bp_tensor* tensor, void* data, size_t nbytes) {
  return guarded([&] {
    require(tensor, "tensor_to_host", "tensor");
    const Tensor t = tensor_from(tensor);
    check_nbytes(t, nbytes, "tensor_to_host");
    if (nbytes == 0) return;
    require(data, "tensor_to_host", "data");
    if (t.is_contiguous()) {
      copy_bytes(data, Device(DeviceType::kCPU), t.data_ptr(), t.device(), nbytes);
      return;
    }
    // Strided: bring the span of storage the tensor covers to the host, then gather it with the
    // CPU copy_ kernel into the caller's row-major buffer.
    const size_t itemsize = t.itemsize();
    int64_t last = 0;
    for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
    const size_t span = static_cast<size_t>(last + 1) * itemsize;
    Tensor source = t;
    DataPtr staging;
    if (!t.device().is_cpu()) {
      staging = cpu_allocator()->allocate(span);
      copy_bytes(staging.get(), Device(DeviceType::kCPU), t.data_ptr(), t.device(), span);
      source = borrowed_cpu_tensor(staging.get(), span, t.dtype(), t.sizes(), t.strides());
    }
    Tensor destination =
        borrowed_cpu_tensor(data, nbytes, t.dtype(), t.sizes(), contiguous_strides(t.sizes()));
    copy_(destination, source);
  });
}

void tensor_retain(bp_tensor* tensor) {
  if (tensor != nullptr) {
    ledger_note_owned(tensor);
    (void)IntrusivePtr<TensorImpl>::borrow(reinterpret_cast<TensorImpl*>(tensor)).release();
  }
}

void tensor_release(bp_tensor* tensor) {
  // An over-release by a kernel (handle_ledger.h) is recorded and not done.
  if (tensor != nullptr && ledger_allows_release(tensor)) adopt(tensor);
}

bp_error* tensor_info(const bp_tensor* tensor, bp_tensor_info* out) {
  return guarded([&] {
    require(tensor, "tensor_info", "tensor");
    require(out, "tensor_info", "out");
    const auto* impl = reinterpret_cast<const TensorImpl*>(tensor);
    bp_tensor_info info{};
    info.ndim = static_cast<size_t>(impl->dim());
    info.sizes = impl->sizes().data();
    info.strides = impl->strides().data();
    info.storage_offset = impl->storage_offset();
    info.numel = impl->numel();
    info.dtype = to_bp_dtype(impl->dtype());
    info.device = to_bp_device(impl->device());
    info.data = impl->data();
    write_struct(info, out, "bp_tensor_info");
  });
}

bp_error* tensor_is_contiguous(const bp_tensor* tensor, int32_t memory_format, bool* out) {
  return guarded([&] {
    require(tensor, "tensor_is_contiguous", "tensor");
    require(out, "tensor_is_contiguous", "out");
    const MemoryFormat format = to_memory_format(memory_format);
    *out = reinterpret_cast<const TensorImpl*>(tensor)->is_contiguous(format);
  });
}

bp_error* tensor_as_strided(const bp_tensor* self, const int64_t* sizes, const int64_t* strides,
                            size_t ndim, int64_t storage_offset, bp_tensor** out) {
  return guarded([&] {
    require(self, "tensor_as_strided", "self");
    require(out, "tensor_as_strided", "out");
    const IntArrayRef shape = sizes_of(sizes, ndim, "tensor_as_strided");
    if (ndim > 0) require(strides, "tensor_as_strided", "strides");
    BP_CHECK(storage_offset >= 0,
             "bp_api.tensor_as_strided: storage_offset must be non-negative, got ", storage_offset);
    try {
      *out = new_reference(
          native::as_strided(tensor_from(self), shape, IntArrayRef(strides, ndim), storage_offset));
    } catch (const Error& e) {
      detail::throw_error(e.code(), detail::str_cat("bp_api.tensor_as_strided: ", e.message()));
    }
  });
}

}  // namespace

void install_tensor_functions(bp_api& api) {
  api.tensor_empty = &tensor_empty;
  api.tensor_empty_strided = &tensor_empty_strided;
  api.tensor_from_host = &tensor_from_host;
  api.tensor_wrap = &tensor_wrap;
  api.tensor_to_host = &tensor_to_host;
  api.tensor_retain = &tensor_retain;
  api.tensor_release = &tensor_release;
  api.tensor_info = &tensor_info;
  api.tensor_is_contiguous = &tensor_is_contiguous;
  api.tensor_as_strided = &tensor_as_strided;
}

}  // namespace bp::c_api
