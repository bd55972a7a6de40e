// KernelFunction: one kernel as the dispatcher stores it: an unboxed (typed) function pointer,
// a boxed function over a Stack, or both; or the fallthrough marker.
//
//   Tensor add_cpu(DispatchKeySet ks, const Tensor& a, const Tensor& b, const Scalar& alpha);
//   KernelFunction k = KernelFunction::make_from_unboxed<&add_cpu>();  // also serves boxed calls
//
//   void my_boxed(void* user_data, const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
//   KernelFunction b = KernelFunction::make_from_boxed(&my_boxed, user_data);  // serves both too
//
// Unboxed kernels take the call's DispatchKeySet first (as in PyTorch) so they can redispatch.
// An unboxed call goes straight through the stored function pointer when the caller's signature
// is the kernel's (no allocation, no boxing); otherwise (a boxed-only kernel, or a signature that
// differs) the arguments are boxed onto a Stack, the boxed function runs, and the result is
// unboxed. make_from_unboxed builds the boxed function at compile time, so every kernel serves
// boxed calls (the C ABI, generic fallbacks).
//
// Thread safety: a KernelFunction is an immutable value once built.
#ifndef BACKPLANE_SDK_DISPATCH_KERNEL_H_
#define BACKPLANE_SDK_DISPATCH_KERNEL_H_

#include <cstddef>
#include <type_traits>
#include <utility>

#include "sdk/core/error.h"
#include "sdk/dispatch/boxing.h"
#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/value.h"

namespace bp {

class OperatorHandle;

// A boxed kernel: reads the op's arguments from the end of `stack` and replaces them with its
// results. `user_data` is the pointer given at registration (borrowed; for C plugins' state).
using BoxedKernelFn = void (*)(void* user_data, const OperatorHandle& op, DispatchKeySet keys,
                               Stack* stack);

namespace detail {
// A unique address per C++ signature Ret(Args...): identifies an unboxed kernel's type.
template <typename Sig>
inline constexpr char kSignatureTag = 0;

void fallthrough_boxed(void*, const OperatorHandle& op, DispatchKeySet, Stack*);
}  // namespace detail

class KernelFunction {
 public:
  // No kernel (valid() is false).
  KernelFunction() = default;

  // A boxed kernel, with its user data (borrowed: must outlive the registration).
  static KernelFunction make_from_boxed(BoxedKernelFn fn, void* user_data = nullptr) {
    KernelFunction k;
    k.boxed_ = fn;
    k.user_data_ = user_data;
    return k;
  }

  // An unboxed kernel `Ret fn(DispatchKeySet, Args...)`, with a generated boxed wrapper.
  template <typename Ret, typename... Args>
  static KernelFunction make_from_unboxed(Ret (*fn)(DispatchKeySet, Args...)) {
    KernelFunction k;
    k.unboxed_ = reinterpret_cast<ErasedFn>(fn);
    k.signature_ = &detail::kSignatureTag<Ret(Args...)>;
    k.boxed_ = &boxed_wrapper<Ret, Args...>;
    k.user_data_ = reinterpret_cast<void*>(fn);
    k.unboxed_arity_ = static_cast<int>(sizeof...(Args));
    return k;
  }
  template <auto fn>
  static KernelFunction make_from_unboxed() {
    return make_from_unboxed(fn);
  }

  // "Skip this key": the dispatcher moves on to the next key of the call.
  static KernelFunction make_fallthrough() { return make_from_boxed(&detail::fallthrough_boxed); }

  bool valid() const { return boxed_ != nullptr; }
  bool is_fallthrough() const { return boxed_ == &detail::fallthrough_boxed; }
  bool has_unboxed() const { return unboxed_ != nullptr; }
  // The number of op arguments the unboxed function takes (DispatchKeySet not counted), or -1.
  int unboxed_arity() const { return unboxed_arity_; }
  // True when call<Ret, Args...> goes straight to the unboxed function.
  template <typename Sig>
  bool has_unboxed_signature() const {
    return signature_ == &detail::kSignatureTag<Sig>;
  }

  // Runs the kernel on the op's arguments at the end of `stack`.
  void call_boxed(const OperatorHandle& op, DispatchKeySet keys, Stack* stack) const {
    boxed_(user_data_, op, keys, stack);
  }

  // Runs the kernel on typed arguments; Args are the op's C++ parameter types.
  template <typename Ret, typename... Args>
  Ret call(const OperatorHandle& op, DispatchKeySet keys, Args... args) const {
    if (BP_LIKELY(signature_ == &detail::kSignatureTag<Ret(Args...)>)) {
      return reinterpret_cast<Ret (*)(DispatchKeySet, Args...)>(unboxed_)(
          keys, std::forward<Args>(args)...);
    }
    return call_through_boxed<Ret, Args...>(op, keys, std::forward<Args>(args)...);
  }

 private:
  using ErasedFn = void (*)();

  template <typename Ret, typename... Args>
  Ret call_through_boxed(const OperatorHandle& op, DispatchKeySet keys, Args... args) const {
    Stack stack;
    stack.reserve(sizeof...(Args));
    (stack.emplace_back(args), ...);
    call_boxed(op, keys, &stack);
    return detail::unbox_result<Ret>(stack, std::forward<Args>(args)...);
  }

  template <typename Ret, typename... Args>
  static void boxed_wrapper(void* user_data, const OperatorHandle&, DispatchKeySet keys,
                            Stack* stack) {
    auto fn = reinterpret_cast<Ret (*)(DispatchKeySet, Args...)>(user_data);
    constexpr size_t n = sizeof...(Args);
    BP_CHECK(stack->size() >= n, "expected ", n, " arguments on the stack, found ", stack->size());
    size_t base = stack->size() - n;
    auto invoke = [&]<size_t... I>(std::index_sequence<I...>)->decltype(auto) {
      return fn(keys, detail::unbox_arg<Args>((*stack)[base + I])...);
    };
    if constexpr (std::is_void_v<Ret>) {
      invoke(std::index_sequence_for<Args...>{});
      stack->resize(base);
    } else {
      // Copy before the arguments go: a returned reference (or tuple of references) may point
      // into the stack.
      detail::OwnedResult<Ret> result = invoke(std::index_sequence_for<Args...>{});
      stack->resize(base);
      detail::push_result(*stack, std::move(result));
    }
  }

  ErasedFn unboxed_ = nullptr;
  const void* signature_ = nullptr;  // &kSignatureTag<Ret(Args...)> of unboxed_
  BoxedKernelFn boxed_ = nullptr;
  void* user_data_ = nullptr;
  int unboxed_arity_ = -1;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_KERNEL_H_
