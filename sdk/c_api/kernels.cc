#include "sdk/c_api/kernels.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "absl/container/inlined_vector.h"
#include "sdk/c_api/backends.h"
#include "sdk/c_api/convert.h"
#include "sdk/c_api/debug_checks.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/handle_ledger.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/iter.h"
#include "sdk/c_api/ops.h"
#include "sdk/c_api/values.h"
#include "sdk/c_api/wrapper_keys.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/dispatch/cpu_fallback.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/ops/common_plan.h"

namespace bp::c_api {
namespace {

// A plugin kernel call running on this thread, as api->kernel_call_iter finds it: calls nest (a
// kernel may call ops whose kernels run inside it), innermost first.
struct KernelCall {
  const bp_value* args;  // the argument array the kernel received: identifies the call
  bp_iter plan;          // borrows the Common key's plan; plan.plan is null when there is none
  const bp_op* op;
  DispatchKey key;       // the key the kernel runs under
  DispatchKeySet below;  // the call's keys below `key`: what kernel_redispatch runs
  const KernelCall* outer;
};

constinit thread_local const KernelCall* tls_innermost_call = nullptr;

// Makes `call` the innermost kernel call of this thread while alive.
class KernelCallScope {
 public:
  explicit KernelCallScope(KernelCall& call) : call_(call) {
    call.outer = tls_innermost_call;
    tls_innermost_call = &call;
  }
  ~KernelCallScope() { tls_innermost_call = call_.outer; }
  KernelCallScope(const KernelCallScope&) = delete;
  KernelCallScope& operator=(const KernelCallScope&) = delete;

 private:
  const KernelCall& call_;
};

// What one registration calls.
struct PluginKernel {
  bp_kernel_fn fn;
  void* user_data;
  const bp_op* op;  // the registered op; null for a fallback (the call says which)
  std::string label;
  DispatchKey wrapper = DispatchKey::kUndefined;  // a wrapper key's kernel: its key
};

// Calls the plugin's C kernel on the arguments at stack[base...] and replaces them with its
// results. A list result must have been filled with api->value_set_tensor_list (a host array);
// one pointing into the plugin's memory fails the call, its references dropped and its array
// left to the plugin. Every result is released here (references and host arrays), on every
// path: the converted Values hold references of their own.
void call_plugin_kernel(const PluginKernel& k, const bp_op& op, Stack& stack, size_t base,
                        const TensorIteratorBase* plan, DispatchKey key, DispatchKeySet below) {
  const absl::Span<const Value> args(stack.data() + base, stack.size() - base);
  auto prefix = [&] { return detail::str_cat("[", k.label, "] ", op.label, ": "); };
  BorrowedValues c_args(args);
  absl::InlinedVector<bp_value, 2> results(op.num_returns);
  for (bp_value& r : results) std::memset(&r, 0, sizeof r);  // all NONE
  KernelCall call{c_args.data(), bp_iter{nullptr, const_cast<TensorIteratorBase*>(plan)},
                  &op,           key,
                  below,         nullptr};
  bp_error* error;
  {
    const KernelCallScope running(call);
    LedgerCall ledger(op, k.label, c_args.data(), c_args.size());  // conformance runs only
    error = k.fn(k.user_data, &op, c_args.data(), c_args.size(), results.data(), results.size());
    ledger.finish(results.data(), results.size());
  }
  auto release_all = [&] {
    for (bp_value& r : results) release_kernel_result(&r);
  };
  if (error != nullptr) {
    release_all();
    throw_backend_error(error, k.label, op.label);
  }
  Stack out;
  out.reserve(results.size());
  const auto& returns = op.handle.schema().returns;
  for (size_t i = 0; i < results.size(); ++i) {
    try {
      if (BP_UNLIKELY(results[i].tag == BP_VALUE_TENSOR_LIST)) {
        BP_CHECK(is_host_tensor_list(results[i]),
                 "must be filled with api->value_set_tensor_list (its list is not host memory)");
      }
      out.push_back(to_value(results[i], returns[i].type));
    } catch (const Error& e) {
      release_all();
      detail::throw_error(e.code(), detail::str_cat(prefix(), "result ", i, " ", e.message()));
    }
  }
  release_all();  // `out` holds its own references
  stack.resize(base);
  for (Value& v : out) stack.push_back(std::move(v));
}

// The boxed kernel every C ABI registration installs.
void run_plugin_kernel(void* data, const OperatorHandle& handle, DispatchKeySet keys,
                       Stack* stack) {
  const PluginKernel& k = *static_cast<const PluginKernel*>(data);
  // First: a plan published for this op's kernel must not reach a kernel further down.
  const TensorIteratorBase* plan = take_common_plan(handle);
  const bp_op& op = k.op != nullptr ? *k.op : intern_op(handle);
  const size_t nargs = op.args.size();
  BP_INTERNAL_ASSERT(stack->size() >= nargs, "expected ", nargs, " arguments on the stack");
  const size_t base = stack->size() - nargs;
  std::optional<MetaExpectation> expected;
  if (debug_checks_enabled()) {
    expected = expect_results(op, absl::Span<const Value>(stack->data() + base, nargs));
  }
  {
    CurrentDeviceGuard device(
        device_of_arguments(absl::Span<const Value>(stack->data() + base, nargs)));
    if (k.fn == &host_cpu_fallback) {
      cpu_fallback(nullptr, handle, keys, stack);  // the host's own: no C round trip
    } else {
      call_plugin_kernel(k, op, *stack, base, plan, keys.backend(), DispatchKeySet());
    }
  }
  if (expected) {
    check_results(*expected, op, k.label,
                  absl::Span<const Value>(stack->data() + base, stack->size() - base));
  }
}

// The boxed kernel of a wrapper key's C registrations: no Common plan, no result checks (the
// kernel below it is checked); kernel_redispatch runs the keys below the wrapper.
void run_wrapper_kernel(void* data, const OperatorHandle& handle, DispatchKeySet keys,
                        Stack* stack) {
  const PluginKernel& k = *static_cast<const PluginKernel*>(data);
  const bp_op& op = k.op != nullptr ? *k.op : intern_op(handle);
  const size_t nargs = op.args.size();
  BP_INTERNAL_ASSERT(stack->size() >= nargs, "expected ", nargs, " arguments on the stack");
  const size_t base = stack->size() - nargs;
  CurrentDeviceGuard device(
      device_of_arguments(absl::Span<const Value>(stack->data() + base, nargs)));
  call_plugin_kernel(k, op, *stack, base, nullptr, k.wrapper,
                     keys & DispatchKeySet::below(k.wrapper));
}

template <typename Register>
bp_error* register_kernel(bp_backend* backend, const char* function, bp_kernel_fn fn,
                          void* user_data, const bp_op* op, bp_registration** out,
                          Register&& do_register) {
  return guarded([&] {
    require(reinterpret_cast<const void*>(fn), function, "kernel");
    require(out, function, "out");
    *out = add_registration(backend, function, [&](DispatchKey key, const std::string& label) {
      auto state = std::make_shared<PluginKernel>(PluginKernel{fn, user_data, op, label});
      KernelFunction kernel = KernelFunction::make_from_boxed(&run_plugin_kernel, state.get());
      return KernelRegistration{do_register(key, kernel, label), std::move(state)};
    });
  });
}

bp_error* kernel_register(bp_backend* backend, const char* op_name, bp_kernel_fn fn,
                          void* user_data, bp_registration** out) {
  const bp_op* op = nullptr;
  if (bp_error* error = guarded([&] {
        require(op_name, "kernel_register", "op_name");
        op = &find_op(op_name);
      })) {
    return error;
  }
  return register_kernel(backend, "kernel_register", fn, user_data, op, out,
                         [&](DispatchKey key, KernelFunction kernel, const std::string& label) {
                           return Dispatcher::singleton().register_impl(op->name, key, kernel,
                                                                        label + " kernel (C ABI)");
                         });
}

bp_error* fallback_register(bp_backend* backend, bp_kernel_fn fn, void* user_data,
                            bp_registration** out) {
  return register_kernel(backend, "fallback_register", fn, user_data, nullptr, out,
                         [&](DispatchKey key, KernelFunction kernel, const std::string& label) {
                           return Dispatcher::singleton().register_fallback(
                               key, kernel, label + " fallback (C ABI)");
                         });
}

// The device type whose tensors carry `key`: the built-in CUDA type for the "cuda" backend.
DeviceType device_type_of_key(DispatchKey key) {
  if (key == DispatchKey::kCUDA) return DeviceType::kCUDA;
  const std::optional<Backend> backend = backend_for_key(key);
  BP_INTERNAL_ASSERT(backend.has_value(), "no backend holds dispatch key ", key);
  return backend->device_type;
}

bp_error* common_fallthrough_register(bp_backend* backend, bp_registration** out) {
  return guarded([&] {
    require(out, "common_fallthrough_register", "out");
    *out = add_registration(
        backend, "common_fallthrough_register", [&](DispatchKey key, const std::string&) {
          const DeviceType type = device_type_of_key(key);
          begin_common_skip(type);
          return KernelRegistration{RegistrationHandle([type] { end_common_skip(type); }), nullptr};
        });
  });
}

void registration_destroy(bp_registration* registration) { destroy_registration(registration); }

bp_error* kernel_call_iter(const bp_value* args, const bp_iter** out) {
  return guarded([&] {
    require(args, "kernel_call_iter", "args");
    require(out, "kernel_call_iter", "out");
    const KernelCall* call = tls_innermost_call;
    while (call != nullptr && call->args != args) call = call->outer;
    BP_CHECK(call != nullptr,
             "bp_api.kernel_call_iter: `args` is not the argument array of a kernel call running "
             "on this thread");
    BP_CHECK_NOT_IMPLEMENTED(call->plan.plan != nullptr,
                             "bp_api.kernel_call_iter: the host built no iteration plan for this "
                             "call of ",
                             call->op->label,
                             " (it hands one to the out= kernel of an op whose meta function "
                             "builds a TensorIterator, called through the Common key); build one "
                             "with api->iter_build");
    *out = &call->plan;
  });
}

// The key named `name`: a dispatch key name, or a registered wrapper key's name.
DispatchKey key_named(const char* name, const char* function) {
  std::optional<DispatchKey> key = dispatch_key_from_name(name);
  if (!key) key = find_wrapper_key(name);
  BP_CHECK(key.has_value(), "bp_api.", function, ": unknown dispatch key '", name,
           "' (a key name such as 'Common' or 'Plugin0', or a wrapper key's name)");
  BP_CHECK(is_runtime_key(*key), "bp_api.", function, ": cannot register under the ", *key,
           " key (calls never carry it)");
  return *key;
}

bp_error* fallthrough_register(const char* op_name, const char* key_name, bp_registration** out) {
  return guarded([&] {
    require(op_name, "fallthrough_register", "op_name");
    require(key_name, "fallthrough_register", "key");
    require(out, "fallthrough_register", "out");
    const bp_op& op = find_op(op_name);
    const DispatchKey key = key_named(key_name, "fallthrough_register");
    *out = add_unowned_registration([&](bp_registration*) {
      return KernelRegistration{
          Dispatcher::singleton().register_impl(op.name, key, KernelFunction::make_fallthrough(),
                                                "fallthrough (C ABI)"),
          nullptr};
    });
  });
}

bp_error* wrapper_kernel_register(bp_wrapper_key* wrapper, const char* op_name, bp_kernel_fn fn,
                                  void* user_data, bp_registration** out) {
  return guarded([&] {
    const char* function = "wrapper_kernel_register";
    const WrapperKeyInfo info = wrapper_key_info(wrapper, function);
    require(reinterpret_cast<const void*>(fn), function, "kernel");
    require(out, function, "out");
    const bp_op* op = op_name != nullptr ? &find_op(op_name) : nullptr;
    bp_registration* registration = add_unowned_registration([&](bp_registration*) {
      auto state =
          std::make_shared<PluginKernel>(PluginKernel{fn, user_data, op, info.label, info.key});
      KernelFunction kernel = KernelFunction::make_from_boxed(&run_wrapper_kernel, state.get());
      Dispatcher& d = Dispatcher::singleton();
      return KernelRegistration{
          op != nullptr
              ? d.register_impl(op->name, info.key, kernel, info.label + " kernel (C ABI)")
              : d.register_fallback(info.key, kernel, info.label + " fallback (C ABI)"),
          std::move(state)};
    });
    if (!track_wrapper_registration(wrapper, registration)) {
      destroy_registration(registration);
      BP_CHECK(false, "bp_api.", function, ": the wrapper key was unregistered meanwhile");
    }
    *out = registration;
  });
}

bp_error* kernel_redispatch(const bp_value* call_args, const bp_value* args, size_t nargs,
                            bp_value* results, size_t max_results, size_t* nresults) {
  return guarded([&] {
    require(call_args, "kernel_redispatch", "call_args");
    require(nresults, "kernel_redispatch", "nresults");
    if (max_results > 0) require(results, "kernel_redispatch", "results");
    const KernelCall* call = tls_innermost_call;
    while (call != nullptr && call->args != call_args) call = call->outer;
    BP_CHECK(call != nullptr,
             "bp_api.kernel_redispatch: `call_args` is not the argument array of a kernel call "
             "running on this thread");
    BP_CHECK(is_functionality_key(call->key), "bp_api.kernel_redispatch: the kernel of ",
             call->op->label, " runs under ", call->key,
             ", a backend key: nothing runs below a backend (call api->op_call instead)");
    run_op(*call->op, args, nargs, results, max_results, nresults, /*meta=*/false, &call->below);
  });
}

}  // namespace

void call_c_kernel(bp_kernel_fn fn, void* user_data, const std::string& label, const bp_op& op,
                   DispatchKey key, Stack& stack, size_t base, const TensorIteratorBase* plan) {
  call_plugin_kernel(PluginKernel{fn, user_data, &op, label}, op, stack, base, plan, key,
                     DispatchKeySet());
}

bp_error* host_cpu_fallback(void*, const bp_op* op, const bp_value* args, size_t nargs,
                            bp_value* results, size_t nresults) {
  return guarded([&] {
    require(op, "cpu_fallback", "op");
    if (nresults > 0) require(results, "cpu_fallback", "results");
    StackLease lease;
    Stack& stack = lease.get();
    const CallRoute route = push_arguments(*op, args, nargs, stack);
    {
      CurrentDeviceGuard device(route.device);
      cpu_fallback(nullptr, op->handle, DispatchKeySet(), &stack);
    }
    BP_CHECK(stack.size() <= nresults, "[", op->label, "] cpu_fallback: the op returns ",
             stack.size(), " results but `results` has room for ", nresults);
    size_t stored = 0;
    try {
      for (; stored < stack.size(); ++stored)
        store_result(std::move(stack[stored]), &results[stored]);
    } catch (...) {
      for (size_t i = 0; i < stored; ++i) release_value(&results[i]);
      throw;
    }
  });
}

void install_kernel_functions(bp_api& api) {
  api.kernel_register = &kernel_register;
  api.fallback_register = &fallback_register;
  api.registration_destroy = &registration_destroy;
  api.common_fallthrough_register = &common_fallthrough_register;
  api.cpu_fallback = &host_cpu_fallback;
  api.kernel_call_iter = &kernel_call_iter;
  api.fallthrough_register = &fallthrough_register;
  api.wrapper_kernel_register = &wrapper_kernel_register;
  api.kernel_redispatch = &kernel_redispatch;
}

}  // namespace bp::c_api
