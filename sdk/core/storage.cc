#include "sdk/core/storage.h"

#include <algorithm>

#include "sdk/core/error.h"

namespace bp {

void StorageImpl::resize(size_t nbytes) {
  BP_CHECK(resizable_ && allocator_ != nullptr, "Trying to resize storage that is not resizable");
  DataPtr fresh = allocator_->allocate(nbytes);
  size_t common = std::min(nbytes, nbytes_);
  if (common > 0 && data_ptr_.get() != nullptr) {
    copy_bytes(fresh.get(), fresh.device(), data_ptr_.get(), data_ptr_.device(), common);
  }
  data_ptr_ = std::move(fresh);
  nbytes_ = nbytes;
}

Storage Storage::allocate(size_t nbytes, Allocator* allocator) {
  BP_INTERNAL_ASSERT(allocator != nullptr);
  return Storage(
      IntrusivePtr<StorageImpl>::make(allocator->allocate(nbytes), nbytes, allocator, true));
}

Storage Storage::wrap(DataPtr data_ptr, size_t nbytes) {
  return Storage(IntrusivePtr<StorageImpl>::make(std::move(data_ptr), nbytes, nullptr, false));
}

}  // namespace bp
