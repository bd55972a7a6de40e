// The state behind a Tensor handle: storage, dtype, sizes, strides, storage offset, cached
// element count and contiguity flags, and the version counter shared with its views.
//
//   IntrusivePtr<TensorImpl> impl = IntrusivePtr<TensorImpl>::make(
//       storage, ScalarType::kFloat32, IntArrayRef{2, 3}, IntArrayRef{3, 1}, /*storage_offset=*/0);
//   impl->is_contiguous();                    // true
//   impl->set_sizes_and_strides({3, 2}, {1, 3});
//   impl->is_contiguous();                    // false; is_non_overlapping_and_dense() true
//
// Most code uses bp::Tensor (tensor.h) and the factories (empty.h) instead.
//
// Thread safety: reading from many threads is safe; the setters are not synchronised (a tensor
// being reshaped must not be read concurrently). The version counter is atomic.
#ifndef BACKPLANE_SDK_CORE_TENSOR_IMPL_H_
#define BACKPLANE_SDK_CORE_TENSOR_IMPL_H_

#include <atomic>
#include <cstdint>

#include "sdk/core/device.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/intrusive_ptr.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/storage.h"

namespace bp {

// Counts in-place modifications of a tensor and its views (PyTorch's VariableVersion): code that
// saved a tensor can tell whether it was overwritten since.
class VersionCounter final : public RefCounted {
 public:
  uint32_t version() const { return version_.load(std::memory_order_acquire); }
  void bump() { version_.fetch_add(1, std::memory_order_acq_rel); }

 private:
  std::atomic<uint32_t> version_{0};
};

class TensorImpl final : public RefCounted {
 public:
  // A tensor over `storage` (must be defined). `version` is the counter to share (a view passes
  // its base's); null starts a fresh one at version 0. Errors: sizes and strides of
  // different lengths, a negative storage offset. Bounds are not checked here (as_strided does).
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
             int64_t storage_offset, IntrusivePtr<VersionCounter> version = nullptr);

  // Tag of the constructor below.
  struct ContiguousStrides {};
  // A tensor over `storage` (must be defined) from offset 0, whose `strides` are
  // contiguous_strides(sizes) and `numel` the product of `sizes`, as empty() computes them (not
  // checked again): the layout flags follow without the general searches.
  TensorImpl(ContiguousStrides, Storage storage, ScalarType dtype, IntArrayRef sizes,
             IntArrayRef strides, int64_t numel);

  const Storage& storage() const { return storage_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }
  size_t itemsize() const { return element_size(dtype_); }

  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t storage_offset() const { return storage_offset_; }
  int64_t numel() const { return numel_; }

  // Cached, recomputed by every setter with PyTorch's rules.
  bool is_contiguous(MemoryFormat format = MemoryFormat::kContiguous) const;
  bool is_non_overlapping_and_dense() const { return is_non_overlapping_and_dense_; }

  // The first element (storage data + storage_offset * itemsize); null when the storage has no
  // data (Meta, or no elements were ever allocated).
  void* data() const;

  // Errors: sizes and strides of different lengths.
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides);
  // Errors: a negative offset.
  void set_storage_offset(int64_t storage_offset);

  // A zero-dim tensor standing for a number the caller wrote (`t + 2`): type promotion treats it
  // as a Scalar, not as a tensor (PyTorch's is_wrapped_number). Set by wrapped_scalar_tensor.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool wrapped) { is_wrapped_number_ = wrapped; }

  uint32_t version() const {
    const VersionCounter* counter = version_.load(std::memory_order_acquire);
    return counter == nullptr ? 0 : counter->version();
  }
  void bump_version() { version_counter_ref().bump(); }
  // The counter to share with a view (created here on first use).
  IntrusivePtr<VersionCounter> version_counter() const {
    return IntrusivePtr<VersionCounter>::borrow(&version_counter_ref());
  }

  ~TensorImpl() override;

 private:
  // Most tensors are never modified in place nor viewed, so the counter is created on first
  // use (one allocation fewer per tensor); racing creators agree through a compare-exchange.
  VersionCounter& version_counter_ref() const;
  void refresh_metadata();
  // Channels-last layouts exist only in 4 and 5 dimensions (skipping the searches matters: every
  // new tensor comes here).
  void refresh_channels_last_flags();

  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  // Owns one reference when set; null until version_counter_ref() creates it.
  mutable std::atomic<VersionCounter*> version_{nullptr};
  ScalarType dtype_;
  // The storage's device, kept here too: device() is read on every op call, and the copy saves a
  // dependent load through the storage (a storage never changes device).
  Device device_;
  bool is_contiguous_ = true;
  bool is_channels_last_contiguous_ = false;
  bool is_channels_last_3d_contiguous_ = false;
  bool is_non_overlapping_and_dense_ = true;
  bool is_wrapped_number_ = false;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_TENSOR_IMPL_H_
