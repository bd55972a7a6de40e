// OperatorHandle: a registered operator, callable typed (unboxed) or boxed.
//
//   OperatorHandle op = Dispatcher::singleton().find_op_or_throw("add.Tensor");
//   Tensor c = op.call<Tensor(const Tensor&, const Tensor&, const Scalar&)>(a, b, 1);
//
//   auto typed = op.typed<Tensor(const Tensor&, const Tensor&, const Scalar&)>();  // keep it
//   Tensor d = typed.call(a, b, 2);
//
//   Stack stack{a, b, Scalar(1)};
//   op.call_boxed(&stack);                       // stack == {result}
//
//   // Inside a wrapper kernel for key K: pass the call on to the keys below K.
//   typed.redispatch(keys & DispatchKeySet::below(K), a, b, alpha);
//
// A call's key set is the union of the keys of its tensor arguments' devices (Tensor, optional
// Tensor, Tensor lists, optional-Tensor lists; undefined tensors add nothing) plus this thread's
// and the process's included keys minus this thread's excluded keys. When no tensor argument adds
// a key, Device arguments do (factory functions such as empty(size, device=...)); when neither
// does (a factory called without a device), the call goes to CPU, as in PyTorch. The highest
// key whose kernel is not a fallthrough runs; if nothing serves it, the call throws
// Error(kNotImplemented) "Could not run 'bp::op' with arguments from the 'K' backend. 'bp::op' is
// only available for these backends: [...]". Exceptions from kernels propagate unchanged.
//
// The C++ signature Ret(Args...) is the op's: Tensor for `Tensor`, const Tensor& or Tensor&
// (out=/in-place) for tensor arguments, int64_t, double, bool, const Scalar&, absl::Span<const
// int64_t> or std::vector<int64_t>, std::optional<T>, ScalarType, Device, std::tuple<...> for
// several returns. An unboxed kernel of exactly this signature is called directly; any other
// kernel is reached through boxing.
//
// Thread safety: calls are lock-free and may run concurrently with registration. A handle stays
// valid while the op is defined or has kernels registered (do not use it after the op's last
// registration is gone, as in PyTorch).
#ifndef BACKPLANE_SDK_DISPATCH_OPERATOR_HANDLE_H_
#define BACKPLANE_SDK_DISPATCH_OPERATOR_HANDLE_H_

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "sdk/core/device.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/kernel.h"
#include "sdk/dispatch/operator_entry.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp {

template <typename Sig>
class TypedOperatorHandle;

namespace detail {

inline DispatchKeySet tensor_keys(const Tensor& t) {
  return t.defined() ? device_type_key_set(t.device().type) : DispatchKeySet();
}

// Accumulates the keys of one argument: tensors into `tensors`, devices into `devices`.
template <typename T>
void add_argument_keys(DispatchKeySet& tensors, DispatchKeySet& devices, const T& arg) {
  if constexpr (std::is_same_v<T, Tensor>) {
    tensors = tensors | tensor_keys(arg);
  } else if constexpr (std::is_same_v<T, std::optional<Tensor>>) {
    if (arg) tensors = tensors | tensor_keys(*arg);
  } else if constexpr (std::is_same_v<T, std::vector<Tensor>> ||
                       std::is_same_v<T, absl::Span<const Tensor>>) {
    for (const Tensor& t : arg) tensors = tensors | tensor_keys(t);
  } else if constexpr (std::is_same_v<T, std::vector<std::optional<Tensor>>> ||
                       std::is_same_v<T, absl::Span<const std::optional<Tensor>>>) {
    for (const auto& t : arg) {
      if (t) tensors = tensors | tensor_keys(*t);
    }
  } else if constexpr (std::is_same_v<T, Device>) {
    devices = devices | device_type_key_set(arg.type);
  } else if constexpr (std::is_same_v<T, std::optional<Device>>) {
    if (arg) devices = devices | device_type_key_set(arg->type);
  }
}

// Tensor keys if any, else Device keys, else CPU (a factory called without a device).
inline DispatchKeySet argument_keys(DispatchKeySet tensors, DispatchKeySet devices) {
  if (!tensors.empty()) return tensors;
  if (!devices.empty()) return devices;
  return DispatchKeySet(DispatchKey::kCPU);
}

template <typename... Args>
DispatchKeySet argument_key_set(const Args&... args) {
  DispatchKeySet tensors;
  DispatchKeySet devices;
  (add_argument_keys(tensors, devices, args), ...);
  return argument_keys(tensors, devices);
}

// The keys of the op's arguments: the last `num_arguments` values of `stack`.
DispatchKeySet stack_key_set(const Stack& stack, size_t num_arguments);

}  // namespace detail

class OperatorHandle {
 public:
  explicit OperatorHandle(detail::OperatorEntry* entry) : entry_(entry) {}

  // "bp::add.Tensor".
  const std::string& name() const { return entry_->name; }
  const FunctionSchema& schema() const { return entry_->schema; }

  // A handle whose call() takes the op's arguments as `Sig` = Ret(Args...).
  template <typename Sig>
  TypedOperatorHandle<Sig> typed() const {
    return TypedOperatorHandle<Sig>(entry_);
  }

  // A typed call; the arguments convert to Sig's parameter types.
  template <typename Sig, typename... A>
  decltype(auto) call(A&&... args) const {
    return typed<Sig>().call(std::forward<A>(args)...);
  }
  template <typename Sig, typename... A>
  decltype(auto) redispatch(DispatchKeySet keys, A&&... args) const {
    return typed<Sig>().redispatch(keys, std::forward<A>(args)...);
  }

  // A boxed call: the op's arguments are the last values of `stack`; they are replaced by its
  // results.
  void call_boxed(Stack* stack) const {
    redispatch_boxed(call_key_set(detail::stack_key_set(*stack, entry_->num_arguments)), stack);
  }
  // A boxed call that runs the highest key of `keys` (no thread-local or global adjustment).
  void redispatch_boxed(DispatchKeySet keys, Stack* stack) const {
    lookup(keys).call_boxed(*this, keys, stack);
  }

  // Whether a kernel was registered for this op under runtime key `key` itself (not through an
  // alias key or a fallback). Lock-free.
  bool has_own_kernel(DispatchKey key) const {
    const detail::DispatchTable* table = entry_->table.load(std::memory_order_acquire);
    if (is_functionality_key(key)) return table->own_functionality.has(key);
    const auto b = static_cast<uint32_t>(key);
    return is_backend_key(key) && b < table->backends.size() && table->backends[b].valid();
  }

  // Throws Error(kNotImplemented) "Could not run 'bp::op' with arguments from the 'K' backend..."
  [[noreturn]] void report_missing_kernel(DispatchKey key) const;

  friend bool operator==(const OperatorHandle& a, const OperatorHandle& b) {
    return a.entry_ == b.entry_;
  }

 protected:
  const KernelFunction& lookup(DispatchKeySet keys) const {
    const detail::DispatchTable* table = entry_->table.load(std::memory_order_acquire);
    // `fallthrough` holds functionality keys only, so a plain mask keeps the call's backend.
    const DispatchKey key =
        DispatchKeySet::from_raw(keys.raw() & ~table->fallthrough.raw()).highest_priority_key();
    const KernelFunction* kernel;
    if (is_functionality_key(key)) {
      kernel = &table->functionality[functionality_bit(key)];
    } else {
      kernel = &backend_kernel(*table, static_cast<uint32_t>(key));
    }
    if (BP_UNLIKELY(!kernel->valid())) report_missing_kernel(key);
    return *kernel;
  }

  // The op's own kernel for backend key number `b`, else its alias kernel, else the backend's
  // fallback (invalid when none).
  const KernelFunction& backend_kernel(const detail::DispatchTable& table, uint32_t b) const {
    if (b < table.backends.size() && table.backends[b].valid()) return table.backends[b];
    if (table.composite.valid()) return table.composite;
    return entry_->backend_fallbacks->load(std::memory_order_acquire)->at(b);
  }

  detail::OperatorEntry* entry_;
};

template <typename Ret, typename... Args>
class TypedOperatorHandle<Ret(Args...)> : public OperatorHandle {
 public:
  explicit TypedOperatorHandle(detail::OperatorEntry* entry) : OperatorHandle(entry) {}

  Ret call(Args... args) const {
    DispatchKeySet keys =
        call_key_set(detail::argument_key_set<std::remove_cvref_t<Args>...>(args...));
    return lookup(keys).template call<Ret, Args...>(*this, keys, std::forward<Args>(args)...);
  }

  // Runs the highest key of `keys` (no thread-local or global adjustment): for wrapper kernels
  // passing a call on, e.g. with `keys & DispatchKeySet::below(their_key)`.
  Ret redispatch(DispatchKeySet keys, Args... args) const {
    return lookup(keys).template call<Ret, Args...>(*this, keys, std::forward<Args>(args)...);
  }
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_OPERATOR_HANDLE_H_
