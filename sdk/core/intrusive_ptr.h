// Reference counting embedded in the object (PyTorch's c10::intrusive_ptr, minimal).
//
//   class Node : public RefCounted { ... };
//   IntrusivePtr<Node> a = IntrusivePtr<Node>::make(args...);   // use_count() == 1
//   IntrusivePtr<Node> b = a;                                    // use_count() == 2
//   b.reset();                                                   // use_count() == 1
//
// Why intrusive rather than std::shared_ptr: one allocation per object, a handle of one pointer,
// and the raw pointer can cross the C ABI and be turned back into an owning handle
// (`release` / `reclaim`).
//
// Thread safety: the count is atomic, so handles to the same object may be copied and destroyed
// from many threads at once. A single IntrusivePtr variable is not safe to modify from two
// threads (as with std::shared_ptr).
#ifndef BACKPLANE_SDK_CORE_INTRUSIVE_PTR_H_
#define BACKPLANE_SDK_CORE_INTRUSIVE_PTR_H_

#include <atomic>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace bp {

// Base class of reference-counted objects. Objects are created by IntrusivePtr<T>::make and
// destroyed when the last handle goes away; they are never copied or moved.
class RefCounted {
 public:
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  // How many IntrusivePtr handles own this object right now (a snapshot under concurrency).
  size_t use_count() const noexcept { return refcount_.load(std::memory_order_acquire); }

 protected:
  RefCounted() = default;
  virtual ~RefCounted() = default;

 private:
  template <typename T>
  friend class IntrusivePtr;

  void retain() const noexcept { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // True when this dropped the last reference. acq_rel so that every write made through other
  // handles happens-before the destructor.
  bool release_ref() const noexcept {
    return refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

  mutable std::atomic<size_t> refcount_{0};
};

// An owning handle to a T derived from RefCounted; null by default.
template <typename T>
class IntrusivePtr {
  static_assert(std::is_base_of_v<RefCounted, T>,
                "IntrusivePtr<T> needs T derived from RefCounted");

 public:
  IntrusivePtr() noexcept = default;
  IntrusivePtr(std::nullptr_t) noexcept {}  // NOLINT: implicit like a raw pointer's null.

  // Creates a T with `args` and returns its only handle.
  template <typename... Args>
  static IntrusivePtr make(Args&&... args) {
    return reclaim(new T(std::forward<Args>(args)...));
  }

  // Takes ownership of a pointer that holds no counted reference yet (fresh from `new`), or of
  // one reference previously given away by `release()`.
  static IntrusivePtr reclaim(T* ptr) noexcept {
    IntrusivePtr result;
    result.ptr_ = ptr;
    if (ptr != nullptr && ptr->use_count() == 0) ptr->retain();
    return result;
  }

  // A new handle sharing a borrowed pointer (adds a reference).
  static IntrusivePtr borrow(T* ptr) noexcept {
    IntrusivePtr result;
    result.ptr_ = ptr;
    if (ptr != nullptr) ptr->retain();
    return result;
  }

  IntrusivePtr(const IntrusivePtr& other) noexcept : ptr_(other.ptr_) {
    if (ptr_ != nullptr) ptr_->retain();
  }
  IntrusivePtr(IntrusivePtr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  // Converting copy from a handle to a derived type.
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  IntrusivePtr(const IntrusivePtr<U>& other) noexcept : ptr_(other.get()) {  // NOLINT
    if (ptr_ != nullptr) ptr_->retain();
  }

  IntrusivePtr& operator=(const IntrusivePtr& other) noexcept {
    IntrusivePtr(other).swap(*this);
    return *this;
  }
  IntrusivePtr& operator=(IntrusivePtr&& other) noexcept {
    IntrusivePtr(std::move(other)).swap(*this);
    return *this;
  }

  ~IntrusivePtr() { reset(); }

  // Drops this handle's reference (destroying the object if it was the last) and becomes null.
  void reset() noexcept {
    T* ptr = std::exchange(ptr_, nullptr);
    if (ptr != nullptr && ptr->release_ref()) delete ptr;
  }

  // Gives up ownership without dropping the reference; pair with `reclaim`.
  [[nodiscard]] T* release() noexcept { return std::exchange(ptr_, nullptr); }

  void swap(IntrusivePtr& other) noexcept { std::swap(ptr_, other.ptr_); }

  T* get() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  T* operator->() const noexcept { return ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  // Number of handles to the object; 0 for a null handle.
  size_t use_count() const noexcept { return ptr_ == nullptr ? 0 : ptr_->use_count(); }

  friend bool operator==(const IntrusivePtr& a, const IntrusivePtr& b) noexcept {
    return a.ptr_ == b.ptr_;
  }
  friend bool operator==(const IntrusivePtr& a, std::nullptr_t) noexcept {
    return a.ptr_ == nullptr;
  }

 private:
  T* ptr_ = nullptr;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_INTRUSIVE_PTR_H_
