// The dispatcher: the registry of operators, their kernels per dispatch key, and per-key backend
// fallbacks. Most code registers through Library (library.h) and calls through OperatorHandle.
//
//   Dispatcher& d = Dispatcher::singleton();
//   RegistrationHandle def = d.register_def(parse_schema("bp::neg(Tensor self) -> Tensor"),
//   "here"); RegistrationHandle cpu = d.register_impl("bp::neg", DispatchKey::kCPU,
//                                            KernelFunction::make_from_unboxed<&neg_cpu>(),
//                                            "neg_cpu");
//   d.find_op_or_throw("neg").call<Tensor(const Tensor&)>(x);
//   std::cout << d.dump_dispatch_table("neg");
//
// Rules (see also operator_handle.h for how a call picks its key):
// - An op is defined once ("name.overload", namespace "bp" when none is written); defining it
//   again while defined throws. impl for an op that is not defined throws.
// - Per (op, key), the newest kernel registration serves; destroying its handle restores the
//   previous one. A backend key (CPU, CUDA, Meta, plugins) without a kernel of its own is served
//   by the op's CompositeExplicit kernel, else its CompositeImplicit kernel, else the key's
//   newest backend fallback. Other keys go from their own kernel straight to the fallback.
// - Common and Tracing start with a fallthrough fallback: ops without a Common kernel skip to
//   the backend, and Tracing does nothing until tracing.h installs its fallback.
// - Dispatch tables are recomputed on every registration change, ahead of calls.
// - Destroying a RegistrationHandle unregisters (a plugin unloads by dropping its handles). An op
//   is forgotten when its def and all its kernels are unregistered.
//
// Thread safety: every member function may be called concurrently with each other and with calls.
// Registration takes a mutex; calls take none.
#ifndef BACKPLANE_SDK_DISPATCH_DISPATCHER_H_
#define BACKPLANE_SDK_DISPATCH_DISPATCHER_H_

#include <array>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/kernel.h"
#include "sdk/dispatch/operator_entry.h"
#include "sdk/dispatch/operator_handle.h"
#include "sdk/dispatch/schema.h"

namespace bp {

// Undoes one registration when destroyed (or on reset()). Move-only.
class RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> unregister)
      : unregister_(std::move(unregister)) {}
  RegistrationHandle(RegistrationHandle&& other) noexcept
      : unregister_(std::exchange(other.unregister_, nullptr)) {}
  RegistrationHandle& operator=(RegistrationHandle&& other) noexcept {
    if (this != &other) {
      reset();
      unregister_ = std::exchange(other.unregister_, nullptr);
    }
    return *this;
  }
  ~RegistrationHandle() { reset(); }

  // Unregisters now.
  void reset() {
    if (unregister_) std::exchange(unregister_, nullptr)();
  }

 private:
  std::function<void()> unregister_;
};

// One op as list_ops() reports it.
struct OpSummary {
  std::string name;        // "bp::add.Tensor"
  DispatchKeySet kernels;  // keys with a kernel registered for this op (fallbacks not counted)
};

class Dispatcher {
 public:
  // A dispatcher of its own (tests); production code uses singleton().
  Dispatcher();
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // The process-wide dispatcher (never destroyed).
  static Dispatcher& singleton();

  // The op named "ns::name.overload"; an unqualified name means namespace "bp".
  std::optional<OperatorHandle> find_op(std::string_view name) const;
  // As find_op; throws Error(kInvalidArgument) "operator 'bp::x' is not defined" when absent.
  OperatorHandle find_op_or_throw(std::string_view name) const;

  // Defines an op. Throws if it is already defined.
  RegistrationHandle register_def(FunctionSchema schema, std::string debug_name);
  // Registers `kernel` for (op, key); `key` may be an alias key (dispatch_key.h). Throws if the
  // op is not defined, if the key is kUndefined,
  // if `kernel` is not valid, or if its unboxed function takes a different number of arguments
  // than the schema.
  RegistrationHandle register_impl(std::string_view op_name, DispatchKey key, KernelFunction kernel,
                                   std::string debug_name);
  // Registers a backend fallback for `key`: it serves every op without a kernel for `key`.
  RegistrationHandle register_fallback(DispatchKey key, KernelFunction kernel,
                                       std::string debug_name);

  // One line per key (highest priority first) saying what serves it and why: "kernel",
  // "CompositeExplicit kernel", "CompositeImplicit kernel", "fallthrough", "backend fallback",
  // "fallthrough backend fallback" or "missing", with the registration's debug name. Throws if
  // the op does not exist.
  std::string dump_dispatch_table(std::string_view op_name) const;
  std::string dump_dispatch_table(const OperatorHandle& op) const;
  // Every op with the keys that have kernels, sorted by name.
  std::vector<OpSummary> list_ops() const;

  // "bp::add.Tensor" for "add.Tensor"; qualified names unchanged.
  static std::string qualified_name(std::string_view name);

 private:
  friend class OperatorHandle;

  void unregister_def(detail::OperatorEntry* entry);
  void unregister_impl(detail::OperatorEntry* entry, DispatchKey key, uint64_t id);
  void unregister_fallback(DispatchKey key, uint64_t id);
  void recompute_locked(detail::OperatorEntry& entry);
  // The registration serving runtime key `key` of `entry` (own kernel, then the alias keys'
  // kernels for backend keys, then the key's fallback), or null; `why` (may be null) gets the
  // reason as dump_dispatch_table prints it.
  const detail::KernelRegistration* serving_locked(const detail::OperatorEntry& entry,
                                                   DispatchKey key, std::string_view* why) const;
  void maybe_erase_locked(detail::OperatorEntry* entry);
  std::string missing_kernel_message(const detail::OperatorEntry& entry, DispatchKey key) const;

  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<detail::OperatorEntry>, std::less<>> ops_;
  std::array<std::list<detail::KernelRegistration>, kNumDispatchKeys> fallbacks_;
  uint64_t next_id_ = 1;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_DISPATCHER_H_
