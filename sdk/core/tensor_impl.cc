#include "sdk/core/tensor_impl.h"

#include "sdk/core/error.h"
#include "sdk/core/pending_data.h"

namespace bp {
namespace {

void check_offset(int64_t storage_offset) {
  BP_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
}

void check_lengths(IntArrayRef sizes, IntArrayRef strides) {
  BP_CHECK(sizes.size() == strides.size(), "dimensionality of sizes (", sizes.size(),
           ") must match dimensionality of strides (", strides.size(), ")");
}

}  // namespace

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset, IntrusivePtr<VersionCounter> version)
    : storage_(std::move(storage)),
      sizes_(sizes.begin(), sizes.end()),
      strides_(strides.begin(), strides.end()),
      storage_offset_(storage_offset),
      dtype_(dtype),
      device_(storage_.device()) {
  BP_INTERNAL_ASSERT(storage_.defined());
  check_lengths(sizes, strides);
  check_offset(storage_offset);
  refresh_metadata();
  version_.store(version.release(), std::memory_order_release);  // after the checks: no leak
}

TensorImpl::TensorImpl(ContiguousStrides, Storage storage, ScalarType dtype, IntArrayRef sizes,
                       IntArrayRef strides, int64_t numel)
    : storage_(std::move(storage)),
      sizes_(sizes.begin(), sizes.end()),
      strides_(strides.begin(), strides.end()),
      numel_(numel),
      dtype_(dtype),
      device_(storage_.device()) {
  BP_INTERNAL_ASSERT(storage_.defined() && sizes.size() == strides.size());
  is_contiguous_ = true;
  is_non_overlapping_and_dense_ = true;
  refresh_channels_last_flags();  // degenerate sizes make row-major strides channels-last too
}

TensorImpl::~TensorImpl() {
  // Adopts the impl's reference and drops it.
  IntrusivePtr<VersionCounter>::reclaim(version_.load(std::memory_order_acquire));
}

VersionCounter& TensorImpl::version_counter_ref() const {
  VersionCounter* counter = version_.load(std::memory_order_acquire);
  if (counter != nullptr) return *counter;
  IntrusivePtr<VersionCounter> fresh = IntrusivePtr<VersionCounter>::make();
  if (version_.compare_exchange_strong(counter, fresh.get(), std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
    return *fresh.release();
  }
  return *counter;  // another thread's; `fresh` dies unused
}

bool TensorImpl::is_contiguous(MemoryFormat format) const {
  switch (format) {
    case MemoryFormat::kChannelsLast:
      return is_channels_last_contiguous_;
    case MemoryFormat::kChannelsLast3d:
      return is_channels_last_3d_contiguous_;
    case MemoryFormat::kContiguous:
    case MemoryFormat::kPreserve:  // PyTorch answers row-major contiguity here too.
      return is_contiguous_;
  }
  return is_contiguous_;
}

void* TensorImpl::data() const {
  pending_data::before_read(storage_.impl());
  char* base = static_cast<char*>(storage_.data());
  return base == nullptr ? nullptr : base + storage_offset_ * static_cast<int64_t>(itemsize());
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides) {
  check_lengths(sizes, strides);
  sizes_.assign(sizes.begin(), sizes.end());
  strides_.assign(strides.begin(), strides.end());
  refresh_metadata();
}

void TensorImpl::set_storage_offset(int64_t storage_offset) {
  check_offset(storage_offset);
  storage_offset_ = storage_offset;
}

void TensorImpl::refresh_metadata() {
  numel_ = multiply_integers(sizes_);
  is_contiguous_ = is_contiguous_strides(sizes_, strides_, MemoryFormat::kContiguous);
  refresh_channels_last_flags();
  is_non_overlapping_and_dense_ = is_contiguous_ || is_channels_last_contiguous_ ||
                                  is_channels_last_3d_contiguous_ ||
                                  is_non_overlapping_and_dense_strides(sizes_, strides_);
}

void TensorImpl::refresh_channels_last_flags() {
  is_channels_last_contiguous_ =
      dim() == 4 && is_contiguous_strides(sizes_, strides_, MemoryFormat::kChannelsLast);
  is_channels_last_3d_contiguous_ =
      dim() == 5 && is_contiguous_strides(sizes_, strides_, MemoryFormat::kChannelsLast3d);
}

}  // namespace bp
