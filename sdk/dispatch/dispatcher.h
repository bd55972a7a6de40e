// The dispatcher: the registry of operators, their kernels per dispatch key, and per-key backend
// fallbacks. Most code registers through Library (library.h) and calls through OperatorHandle.
//
//   Dispatcher& d = Dispatcher::singleton();
//   RegistrationHandle def = d.register_def(parse_schema("bp::neg(Tensor self) -> Tensor"),
//   "here"); RegistrationHandle cpu = d.register_impl("bp::neg", DispatchKey::kCPU,
//                                            KernelFunction::make_from_unboxed<&neg_cpu>(),
//                                            "neg_cpu");
//   d.find_op_or_throw("neg").call<Tensor(const Tensor&)>(x);
//   std::cout << d.dump_dispatch_table("neg");   // which kernel serves each key, and why
//
// Rules (see also operator_handle.h for how a call picks its key):
// - An op is defined once ("name.overload", namespace "bp" when none is written); defining it
//   again while defined throws. impl for an op that is not defined throws.
// - Per (op, key), the newest kernel registration serves; destroying its handle restores the
//   previous one. A backend key (CPU, CUDA, Meta, plugins) without a kernel of its own is served
//   by the op's CompositeExplicit kernel, else its CompositeImplicit kernel, else the key's
//   newest backend fallback. Functionality keys (Common, wrapper keys, Tracing) go from their
//   own kernel straight to the fallback, and are skipped when neither exists.
// - Common and Tracing start with a fallthrough fallback: ops without a Common kernel skip to
//   the backend, and Tracing does nothing until tracing.h installs its fallback.
// - A fallthrough registered for a backend key (as kernel or fallback) leaves the key without a
//   kernel: a call carries one backend, so there is nothing below it to fall through to.
// - Dispatch tables are recomputed on every registration change, ahead of calls: an op's table
//   when its kernels or a functionality key's fallback change; backend fallbacks live in one
//   table shared by every op (plugins come and go without touching every op).
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

// "Plugin0 ('npu')" for a registered plugin backend, "Wrapper0 ('profiler')" for a registered
// wrapper key, else the key's name.
std::string key_label(DispatchKey key);

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
  std::string name;                  // "bp::add.Tensor"
  std::vector<DispatchKey> kernels;  // keys with a kernel registered for this op (fallbacks not
                                     // counted), by number
  bool has_kernel(DispatchKey key) const;
};

// Why a key of an op is served the way it is (dispatch_table).
enum class ServingReason {
  kOwn,                  // "kernel": registered for this op under this key
  kCompositeExplicit,    // "CompositeExplicit kernel": the op's alias kernel serves the backend
  kCompositeImplicit,    // "CompositeImplicit kernel"
  kFallback,             // "backend fallback": the key's fallback, for every op without a kernel
  kFallthrough,          // "fallthrough": registered for this op under this key
  kFallthroughFallback,  // "fallthrough backend fallback"
  kSkipped,              // "fallthrough (nothing registered)": a functionality key with no kernel
  kMissing,              // "missing": a call on this backend fails with "Could not run"
};
std::string_view serving_reason_text(ServingReason reason);

// One row of an op's dispatch table.
struct DispatchTableRow {
  DispatchKey key;
  std::string key_label;  // "Plugin0 ('npu')", "Wrapper0 ('profiler')", "CPU"
  ServingReason reason;
  std::string source;  // the serving registration's name (library file:line, "npu kernel (C
                       // ABI)", ...); "" when nothing serves the key
  // When a backend's tensors carry Common and Common has a kernel for this op: the call runs
  // Common's generated variant first, which then calls the backend (out= variant) for this key.
  bool via_common = false;
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

  // Every key that can serve the op, highest priority first: Tracing, registered wrapper keys
  // (and any with a registration), Common, registered plugin backends (and any plugin key with
  // a registration), Meta, CUDA, CPU; each with what serves it and why. Throws
  // Error(kInvalidArgument) "operator 'bp::x' is not defined" when the op does not exist.
  std::vector<DispatchTableRow> dispatch_table(std::string_view op_name) const;
  // The schema, then one line per row: "<key label>: <reason> [<source>]", and for a row served
  // through Common " (calls go through Common's generated variant first)". Throws as
  // dispatch_table.
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
  void fallbacks_changed_locked(DispatchKey key);
  void publish_backend_fallbacks_locked();
  void recompute_locked(detail::OperatorEntry& entry);
  struct Serving {
    const detail::KernelRegistration* registration;  // null when nothing serves the key
    ServingReason reason;
  };
  // What serves runtime key `key` of `entry`: own kernel, then the alias keys' kernels for
  // backend keys, then the key's fallback.
  Serving serving_locked(const detail::OperatorEntry& entry, DispatchKey key) const;
  void maybe_erase_locked(detail::OperatorEntry* entry);
  std::string missing_kernel_message(const detail::OperatorEntry& entry, DispatchKey key) const;

  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<detail::OperatorEntry>, std::less<>> ops_;
  detail::RegistrationLists fallbacks_;  // by runtime key
  std::atomic<const detail::BackendFallbackTable*> backend_fallbacks_{nullptr};
  std::vector<std::unique_ptr<const detail::BackendFallbackTable>> backend_fallback_tables_;
  uint64_t next_id_ = 1;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_DISPATCHER_H_
