// bp::Tensor: a reference-counted handle to a TensorImpl (PyTorch's at::Tensor, without the
// operators, which come from the generated op API).
//
//   Tensor t = empty({2, 3}, ScalarType::kFloat32, Device(DeviceType::kCPU));
//   t.sizes();                 // [2, 3]
//   t.size(-1);                // 3
//   float* p = t.data_ptr<float>();
//   Tensor v = transpose(t, 0, 1);   // views.h: shares t's storage and version counter
//   v.is_alias_of(t);          // true
//   std::cout << t;            // "Tensor(float32[2, 3], cpu)"
//
// A default-constructed Tensor is undefined: only defined(), use_count(), is_same() and
// operator<< may be called on it.
//
// Thread safety: handles may be copied and destroyed concurrently from many threads (atomic
// reference count). Changing a tensor's metadata while another thread reads it is a data race.
#ifndef BACKPLANE_SDK_CORE_TENSOR_H_
#define BACKPLANE_SDK_CORE_TENSOR_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/types/span.h"
#include "sdk/core/device.h"
#include "sdk/core/error.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/intrusive_ptr.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"

namespace bp {

namespace detail {
[[noreturn]] void throw_dim_out_of_range(int64_t dim, int64_t ndim, bool wrap_scalar);
}  // namespace detail

// `dim` in [-ndim, ndim) mapped to [0, ndim), PyTorch's maybe_wrap_dim. A 0-dim tensor accepts
// -1 and 0 when `wrap_scalar` (the default). Errors (kIndexError):
// "Dimension out of range (expected to be in range of [-2, 1], but got 2)", and without
// `wrap_scalar` "Dimension specified as 0 but tensor has no dimensions".
inline int64_t wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (BP_LIKELY(ndim > 0 && dim >= -ndim && dim < ndim)) return dim < 0 ? dim + ndim : dim;
  if (ndim <= 0 && wrap_scalar && (dim == 0 || dim == -1)) return 0;
  detail::throw_dim_out_of_range(dim, ndim, wrap_scalar);
}

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(IntrusivePtr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }

  int64_t dim() const { return impl_->dim(); }
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  // Size / stride of dim `d` (negative counts from the end). Errors: see wrap_dim (0-dim
  // tensors have no dims to ask about).
  int64_t size(int64_t d) const {
    return impl_->sizes()[wrap_dim(d, dim(), /*wrap_scalar=*/false)];
  }
  int64_t stride(int64_t d) const {
    return impl_->strides()[wrap_dim(d, dim(), /*wrap_scalar=*/false)];
  }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  int64_t numel() const { return impl_->numel(); }

  ScalarType dtype() const { return impl_->dtype(); }
  Device device() const { return impl_->device(); }
  size_t itemsize() const { return impl_->itemsize(); }
  // numel() * itemsize(): the bytes the elements would take densely.
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }

  bool is_contiguous(MemoryFormat format = MemoryFormat::kContiguous) const {
    return impl_->is_contiguous(format);
  }
  bool is_non_overlapping_and_dense() const { return impl_->is_non_overlapping_and_dense(); }

  // The first element; null for Meta tensors and tensors whose storage holds no memory.
  void* data_ptr() const { return impl_->data(); }
  // The first element as a T*. Errors (kTypeError): T is not the tensor's element type
  // ("expected scalar type float32 but found int64").
  template <typename T>
  T* data_ptr() const {
    check_dtype(scalar_type_of<T>);
    return static_cast<T*>(impl_->data());
  }

  // See TensorImpl::is_wrapped_number.
  bool is_wrapped_number() const { return impl_->is_wrapped_number(); }

  // The version counter shared with all views: bumped by in-place ops.
  uint32_t version() const { return impl_->version(); }
  void bump_version() const { impl_->bump_version(); }

  // Shares memory with `other` (same storage), e.g. a view of it.
  bool is_alias_of(const Tensor& other) const {
    return impl_->storage().is_alias_of(other.impl_->storage());
  }
  // Same TensorImpl (two handles to one tensor).
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  // Handles to this TensorImpl (0 for an undefined tensor).
  size_t use_count() const { return impl_.use_count(); }

  const Storage& storage() const { return impl_->storage(); }
  TensorImpl* impl() const { return impl_.get(); }
  const IntrusivePtr<TensorImpl>& impl_ptr() const { return impl_; }

  // ---- Op methods -------------------------------------------------------------------------
  // One per op declared with `variants: method` (t.add(u), t.add_(u), t.view({2, 3})), generated
  // from sdk/ops/*.yaml; each calls the op through the dispatcher. Defined in //sdk/ops, which
  // code calling them links.
#include "sdk/ops/tensor_methods.inc"

 private:
  void check_dtype(ScalarType expected) const;

  IntrusivePtr<TensorImpl> impl_;
};

// "Tensor(float32[2, 3], cpu)"; "Tensor(undefined)".
std::ostream& operator<<(std::ostream& out, const Tensor& tensor);

// PyTorch's legacy type name of the tensor, as its errors print it: "torch.FloatTensor",
// "torch.cuda.LongTensor"; of a dtype on `device`.
std::string legacy_type_name(const Tensor& tensor);
std::string legacy_type_name(ScalarType dtype, DeviceType device = DeviceType::kCPU);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_TENSOR_H_
