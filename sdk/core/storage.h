// The memory behind tensors: a reference-counted block of bytes on one device, shared by a
// tensor and all its views.
//
//   Storage s = Storage::allocate(64, get_allocator(DeviceType::kCPU));   // resizable
//   s.nbytes();                     // 64
//   s.resize(128);                  // new block, first 64 bytes copied over
//   Storage meta = Storage::allocate(64, meta_allocator());
//   meta.data();                    // nullptr: Meta storages track nbytes only
//
// Thread safety: handles may be copied and destroyed from many threads; resizing a storage
// while another thread uses it is a data race (as in PyTorch).
#ifndef BACKPLANE_SDK_CORE_STORAGE_H_
#define BACKPLANE_SDK_CORE_STORAGE_H_

#include <cstddef>

#include "sdk/core/allocator.h"
#include "sdk/core/device.h"
#include "sdk/core/intrusive_ptr.h"

namespace bp {

// The shared state of a storage. Created through Storage.
class StorageImpl final : public RefCounted {
 public:
  // `allocator` is borrowed and may be null (memory from elsewhere, e.g. DLPack); it must
  // outlive the storage when `resizable`.
  StorageImpl(DataPtr data_ptr, size_t nbytes, Allocator* allocator, bool resizable)
      : data_ptr_(std::move(data_ptr)),
        nbytes_(nbytes),
        allocator_(allocator),
        resizable_(resizable) {}

  const DataPtr& data_ptr() const { return data_ptr_; }
  void* data() const { return data_ptr_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_ptr_.device(); }
  Allocator* allocator() const { return allocator_; }
  bool resizable() const { return resizable_; }

  // See Storage::resize.
  void resize(size_t nbytes);

  // A storage of `nbytes` bytes (0 < nbytes <= kMaxTrailingBytes) from Backplane's CPU
  // allocator whose bytes live in the same heap block as the StorageImpl, after it: one
  // allocation and one free per small tensor instead of two each, a large part of a small op's
  // fixed cost. Behaves like any resizable CPU storage (a resize moves the bytes to a separate
  // block; the trailing ones stay unused until the storage dies).
  static constexpr size_t kMaxTrailingBytes = 256;
  static StorageImpl* make_with_trailing_bytes(size_t nbytes);

  // Blocks come from the global operator new; the trailing-bytes form asks for more than
  // sizeof(StorageImpl), so deletion must not pass a size.
  static void* operator new(size_t size) { return ::operator new(size); }
  static void operator delete(void* block) noexcept { ::operator delete(block); }

 private:
  struct TrailingBytes {
    size_t extra;
  };
  static void* operator new(size_t size, TrailingBytes bytes) {
    return ::operator new(size + bytes.extra);
  }
  static void operator delete(void* block, TrailingBytes) noexcept { ::operator delete(block); }
  StorageImpl(TrailingBytes, size_t nbytes, Allocator* allocator);

  DataPtr data_ptr_;
  size_t nbytes_;
  Allocator* allocator_;
  bool resizable_;
};

// A handle to a StorageImpl (null when default-constructed).
class Storage {
 public:
  Storage() = default;
  explicit Storage(IntrusivePtr<StorageImpl> impl) : impl_(std::move(impl)) {}

  // A new resizable storage of `nbytes` bytes from `allocator` (borrowed; must outlive the
  // storage). Errors: those of the allocator (kOutOfMemory).
  static Storage allocate(size_t nbytes, Allocator* allocator);

  // Wraps memory owned elsewhere: `data_ptr`'s deleter runs when the storage dies. Not
  // resizable.
  static Storage wrap(DataPtr data_ptr, size_t nbytes);

  bool defined() const { return static_cast<bool>(impl_); }
  void* data() const { return impl_->data(); }
  size_t nbytes() const { return impl_->nbytes(); }
  Device device() const { return impl_->device(); }
  Allocator* allocator() const { return impl_->allocator(); }
  bool resizable() const { return impl_->resizable(); }

  // Replaces the memory with a new block of `nbytes` bytes from the storage's allocator, copying
  // min(old, new) bytes over (nothing to copy on Meta). Errors: "Trying to resize storage that is
  // not resizable" when the storage is not resizable; those of the allocator and of copy_bytes.
  void resize(size_t nbytes) { impl_->resize(nbytes); }

  // Same storage (not merely equal bytes).
  bool is_alias_of(const Storage& other) const { return impl_ == other.impl_; }
  size_t use_count() const { return impl_.use_count(); }
  StorageImpl* impl() const { return impl_.get(); }

 private:
  IntrusivePtr<StorageImpl> impl_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_STORAGE_H_
