#include "sdk/core/storage.h"

#include <algorithm>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "sdk/core/error.h"

namespace bp {

void StorageImpl::resize(size_t nbytes) {
  BP_CHECK(resizable_ && allocator_ != nullptr, "Trying to resize storage that is not resizable");
  DataPtr fresh = allocator_->allocate(nbytes);
  // Tensors keep their storage's device (TensorImpl::device): an allocator answering on another
  // device than the storage's (its current device changed) must not move the storage.
  BP_CHECK(fresh.device() == data_ptr_.device(), "Trying to resize storage on ", data_ptr_.device(),
           " with memory the allocator gave on ", fresh.device(),
           "; make the storage's device current first");
  size_t common = std::min(nbytes, nbytes_);
  if (common > 0 && data_ptr_.get() != nullptr) {
    copy_bytes(fresh.get(), fresh.device(), data_ptr_.get(), data_ptr_.device(), common);
  }
  data_ptr_ = std::move(fresh);
  nbytes_ = nbytes;
}

namespace {

// The CPU allocator's alignment; the trailing bytes get the same.
constexpr size_t kTrailingAlignment = 64;

}  // namespace

StorageImpl::StorageImpl([[maybe_unused]] TrailingBytes bytes, size_t nbytes, Allocator* allocator)
    : nbytes_(nbytes), allocator_(allocator), resizable_(true) {
  const uintptr_t end = reinterpret_cast<uintptr_t>(this + 1);
  char* data = reinterpret_cast<char*>((end + kTrailingAlignment - 1) &
                                       ~(uintptr_t{kTrailingAlignment} - 1));
  data_ptr_ = DataPtr(data, nullptr, nullptr, Device(DeviceType::kCPU));  // freed with `this`
#if defined(__SANITIZE_ADDRESS__)
  // Reads and writes past the data are still caught, as with a block of its own.
  char* block_end = reinterpret_cast<char*>(this + 1) + bytes.extra;
  ASAN_POISON_MEMORY_REGION(data + nbytes, static_cast<size_t>(block_end - (data + nbytes)));
#endif
}

StorageImpl* StorageImpl::make_with_trailing_bytes(size_t nbytes) {
  BP_INTERNAL_ASSERT(nbytes > 0 && nbytes <= kMaxTrailingBytes);
  // Slack for aligning the data: the block itself is only aligned to the global new's alignment.
  const TrailingBytes bytes{kTrailingAlignment + nbytes};
  return new (bytes) StorageImpl(bytes, nbytes, cpu_allocator());
}

Storage Storage::allocate(size_t nbytes, Allocator* allocator) {
  BP_INTERNAL_ASSERT(allocator != nullptr);
  if (allocator == cpu_allocator() && nbytes > 0 && nbytes <= StorageImpl::kMaxTrailingBytes) {
    return Storage(
        IntrusivePtr<StorageImpl>::reclaim(StorageImpl::make_with_trailing_bytes(nbytes)));
  }
  return Storage(
      IntrusivePtr<StorageImpl>::make(allocator->allocate(nbytes), nbytes, allocator, true));
}

Storage Storage::wrap(DataPtr data_ptr, size_t nbytes) {
  return Storage(IntrusivePtr<StorageImpl>::make(std::move(data_ptr), nbytes, nullptr, false));
}

}  // namespace bp
