#include "sdk/c_api/ops.h"

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "sdk/c_api/backends.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/handle_ledger.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/meta_values.h"
#include "sdk/dispatch/dispatcher.h"

bp_op::bp_op(bp::OperatorHandle h, std::vector<bp::c_api::ArgSpec> a)
    : handle(h),
      name(h.name()),
      label(name.substr(name.find("::") + 2)),
      schema(bp::to_string(h.schema())),
      args(std::move(a)),
      num_returns(h.schema().returns.size()) {}

namespace bp::c_api {
namespace {

struct OpRegistry {
  std::mutex mutex;
  std::unordered_map<std::string, const bp_op*> by_name;  // the current bp_op of each op
  std::vector<std::unique_ptr<bp_op>> all;                // never freed: handles stay valid
};

OpRegistry& op_registry() {
  static OpRegistry* r = new OpRegistry();
  return *r;
}

std::string argument_names(const bp_op& op) {
  std::string names;
  for (const ArgSpec& a : op.args) names += (names.empty() ? "" : ", ") + a.name;
  return names;
}

struct StackPool {
  static constexpr int kSize = 8;
  Stack stacks[kSize];
  int depth = 0;
};
thread_local StackPool tls_stack_pool;

// Adds the dispatch keys (and the first plugin device) of one converted argument.
void route(const Value& v, DispatchKeySet& tensors, DispatchKeySet& devices,
           std::optional<Device>& device) {
  auto add_tensor = [&](const Tensor& t) {
    if (!t.defined()) return;
    tensors = tensors | device_type_key_set(t.device().type);
    if (!device && is_backend_device(t.device())) device = t.device();
  };
  switch (v.tag()) {
    case Value::Tag::kTensor:
      add_tensor(v.ref<Tensor>());
      break;
    case Value::Tag::kTensorList:
      for (const Tensor& t : v.ref<std::vector<Tensor>>()) add_tensor(t);
      break;
    case Value::Tag::kOptionalTensorList:
      for (const auto& t : v.ref<std::vector<std::optional<Tensor>>>()) {
        if (t) add_tensor(*t);
      }
      break;
    case Value::Tag::kDevice:
      devices = devices | device_type_key_set(v.ref<Device>().type);
      break;
    default:
      break;
  }
}

}  // namespace

StackLease::StackLease() {
  StackPool& pool = tls_stack_pool;
  owned_ = pool.depth >= StackPool::kSize;
  stack_ = owned_ ? new Stack() : &pool.stacks[pool.depth];
  ++pool.depth;
}

StackLease::~StackLease() {
  --tls_stack_pool.depth;
  if (owned_) {
    delete stack_;
  } else {
    stack_->clear();
  }
}

const bp_op& intern_op(const OperatorHandle& handle) {
  OpRegistry& r = op_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_name.find(handle.name());
  if (it != r.by_name.end() && it->second->handle == handle &&
      !it->second->retired.load(std::memory_order_relaxed)) {
    return *it->second;
  }
  std::vector<ArgSpec> args;
  for (const Argument& a : handle.schema().arguments) args.push_back(make_arg_spec(a));
  const bp_op* op = r.all.emplace_back(std::make_unique<bp_op>(handle, std::move(args))).get();
  r.by_name[handle.name()] = op;
  return *op;
}

const bp_op& find_op(std::string_view name) {
  return intern_op(Dispatcher::singleton().find_op_or_throw(name));
}

void retire_op(const bp_op& op) {
  OpRegistry& r = op_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const_cast<bp_op&>(op).retired.store(true, std::memory_order_relaxed);
}

CallRoute push_arguments(const bp_op& op, const bp_value* args, size_t nargs, Stack& stack) {
  const size_t n = op.args.size();
  BP_CHECK_TYPE(nargs <= n, "expected at most ", n, " arguments (", argument_names(op),
                ") but got ", nargs);
  if (nargs > 0) BP_CHECK(args != nullptr, "`args` is NULL but nargs is ", nargs);
  DispatchKeySet tensors, devices;
  CallRoute route_of_call;
  for (size_t i = 0; i < nargs; ++i) {
    push_argument(stack, args[i], op.args[i], i + 1);
    route(stack.back(), tensors, devices, route_of_call.device);
  }
  for (size_t i = nargs; i < n; ++i) {
    const ArgSpec& spec = op.args[i];
    BP_CHECK_TYPE(spec.default_value.has_value(), "missing argument '", spec.name, "' (position ",
                  i + 1, "), which has no default");
    stack.push_back(*spec.default_value);
  }
  route_of_call.keys = call_key_set(detail::argument_keys(tensors, devices));
  return route_of_call;
}

void run_op(const bp_op& op, const bp_value* args, size_t nargs, bp_value* results,
            size_t max_results, size_t* nresults, bool meta, const DispatchKeySet* keys) {
  StackLease lease;
  Stack& stack = lease.get();
  try {
    BP_CHECK(!op.retired.load(std::memory_order_relaxed), "operator '", op.name,
             "' is no longer defined (the plugin that defined it was unloaded, or its op_define "
             "registration destroyed)");
    const CallRoute route = push_arguments(op, args, nargs, stack);
    if (meta) {
      Stack converted = MetaConverter().convert(stack, op.handle.schema(), true);
      stack.swap(converted);
      op.handle.call_boxed(&stack);
    } else {
      CurrentDeviceGuard device(route.device);
      op.handle.redispatch_boxed(keys != nullptr ? *keys : route.keys, &stack);
    }
    BP_CHECK(stack.size() <= max_results, "the op returns ", stack.size(),
             " results but `results` has room for ", max_results);
    size_t stored = 0;
    try {
      for (; stored < stack.size(); ++stored) {
        store_result(std::move(stack[stored]), &results[stored]);
      }
    } catch (...) {
      for (size_t i = 0; i < stored; ++i) release_value(&results[i]);
      throw;
    }
    *nresults = stack.size();
  } catch (const Error& e) {
    throw e.with_context(op.label);
  }
}

namespace {

bp_error* op_find(const char* name, const bp_op** out) {
  return guarded([&] {
    require(name, "op_find", "name");
    require(out, "op_find", "out");
    *out = &find_op(name);
  });
}

bp_error* op_name(const bp_op* op, const char** out) {
  return guarded([&] {
    require(op, "op_name", "op");
    require(out, "op_name", "out");
    *out = op->name.c_str();
  });
}

bp_error* op_schema(const bp_op* op, const char** out) {
  return guarded([&] {
    require(op, "op_schema", "op");
    require(out, "op_schema", "out");
    *out = op->schema.c_str();
  });
}

bp_error* op_list(void (*visit)(void*, const char*), void* user_data) {
  return guarded([&] {
    require(reinterpret_cast<const void*>(visit), "op_list", "visit");
    const Dispatcher& d = Dispatcher::singleton();
    for (const OpSummary& op : d.list_ops()) {
      if (d.find_op(op.name)) visit(user_data, op.name.c_str());
    }
  });
}

template <bool kMeta>
bp_error* op_call(const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                  size_t max_results, size_t* nresults) {
  return guarded([&] {
    const char* function = kMeta ? "op_call_meta" : "op_call";
    require(op, function, "op");
    require(nresults, function, "nresults");
    if (max_results > 0) require(results, function, "results");
    run_op(*op, args, nargs, results, max_results, nresults, kMeta);
  });
}

void value_release(bp_value* value) {
  if (value == nullptr) return;
  // Tensors a running kernel releases without owning them (handle_ledger.h) are left alone.
  if (value->tag == BP_VALUE_TENSOR && !ledger_allows_release(value->u.tensor)) {
    value->u.tensor = nullptr;
  } else if (value->tag == BP_VALUE_TENSOR_LIST && is_host_tensor_list(*value)) {
    auto** handles = const_cast<bp_tensor**>(value->u.tensors.data);  // the host's array
    for (size_t i = 0; i < value->u.tensors.size; ++i) {
      if (!ledger_allows_release(handles[i])) handles[i] = nullptr;
    }
  }
  release_value(value);
}

bp_error* op_dispatch_table(const bp_op* op, bp_value* out) {
  return guarded([&] {
    require(op, "op_dispatch_table", "op");
    require(out, "op_dispatch_table", "out");
    store_result(Value(Dispatcher::singleton().dump_dispatch_table(op->handle)), out);
  });
}

bp_error* value_set_tensor_list(bp_value* out, bp_tensor* const* tensors, size_t size) {
  return guarded([&] {
    require(out, "value_set_tensor_list", "out");
    BP_CHECK(tensors != nullptr || size == 0,
             "bp_api.value_set_tensor_list: `tensors` is NULL but size is ", size);
    store_tensor_list(tensors, size, out);
  });
}

}  // namespace

void install_op_functions(bp_api& api) {
  api.op_find = &op_find;
  api.op_name = &op_name;
  api.op_schema = &op_schema;
  api.op_list = &op_list;
  api.op_call = &op_call<false>;
  api.op_call_meta = &op_call<true>;
  api.value_release = &value_release;
  api.value_set_tensor_list = &value_set_tensor_list;
  api.op_dispatch_table = &op_dispatch_table;
}

}  // namespace bp::c_api
