// Contents computed on first read: the hook through which a lazy scope (sdk/fusion/lazy.h) runs
// what it recorded when code reads the memory of a tensor whose contents are still pending.
//
//   pending_data::set_reader(&materialize_storage);    // once, by the fusion library
//   pending_data::add_pending();                        // a storage's contents are now pending
//   ...                                                 // TensorImpl::data() calls the reader
//   pending_data::remove_pending();                     // computed (or no longer needed)
//
// TensorImpl::data() calls the reader with the tensor's storage while any storage anywhere is
// pending; the reader decides whether that storage is one of its own. With nothing pending the
// cost of data() is one relaxed atomic load. Core code knows nothing about lazy scopes: the hook
// keeps the layers one-way (core below fusion).
//
// Thread safety: all functions may be called from any thread. The reader may run on any thread
// that calls data(), and must not call data() on a pending storage itself.
#ifndef BACKPLANE_SDK_CORE_PENDING_DATA_H_
#define BACKPLANE_SDK_CORE_PENDING_DATA_H_

#include <atomic>
#include <cstdint>

namespace bp {

class StorageImpl;

namespace pending_data {

using Reader = void (*)(const StorageImpl* storage);

// Installs the reader (the last call wins; null uninstalls).
void set_reader(Reader reader);

// How many storages are pending, process-wide (the reader runs only while this is nonzero).
inline std::atomic<int64_t>& pending_count() {
  static std::atomic<int64_t> count{0};
  return count;
}
inline void add_pending() { pending_count().fetch_add(1, std::memory_order_relaxed); }
inline void remove_pending() { pending_count().fetch_sub(1, std::memory_order_relaxed); }

// Runs the installed reader, if any.
void on_read(const StorageImpl* storage);

// Called by TensorImpl::data(): runs the reader when something is pending.
inline void before_read(const StorageImpl* storage) {
  if (pending_count().load(std::memory_order_relaxed) != 0) [[unlikely]]
    on_read(storage);
}

}  // namespace pending_data
}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PENDING_DATA_H_
