// Ops defined from C (api->op_define): a functional op and its out= overload in a plugin's
// namespace, with the host's structured kernels for them.
//
//   bp_op_def def = {sizeof def};
//   def.schema = "npu::fused_add_relu(Tensor self, Tensor other) -> Tensor";
//   def.out_schema = "npu::fused_add_relu.out(Tensor self, Tensor other, *, Tensor(a!) out) -> "
//                    "Tensor(a!)";
//   def.meta_kind = BP_OP_META_CALLBACK;   // or BP_OP_META_BINARY_POINTWISE
//   def.meta = fused_add_relu_meta;        // writes a Meta tensor: the output's geometry
//   def.cpu_kernel = fused_add_relu_cpu;   // optional: the out= kernel for CPU tensors
//   api->op_define(&def, &registration);
//
// The host registers, for both ops, the kernels a generated structured op has (codegen's
// emit_common.cc): Common (the meta step, the output allocated on the backend's device or `out`
// checked and resized, then the backend's out= kernel below Common; a backend's own functional
// kernel gets the call unchanged), Meta (the meta step only) and, with a cpu_kernel, CPU (the
// meta step, then the C kernel). The meta step is the binary pointwise family's meta function
// (whose TensorIterator the out= kernel gets from api->kernel_call_iter) or the plugin's callback,
// run on Meta copies of the arguments. The calls go through FunctionalCall and OutCall
// (sdk/ops/structured_calls.h), so output rules are exactly those of Backplane's own ops.
//
// Thread safety: op_define may run on any thread; undoing a definition must not overlap calls of
// its ops (as unregistering a backend).
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "sdk/c_api/backends.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/kernels.h"
#include "sdk/c_api/meta_values.h"
#include "sdk/c_api/ops.h"
#include "sdk/c_api/structs.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/schema.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/ops/common_plan.h"
#include "sdk/ops/structured_calls.h"
#include "sdk/structured/meta_base.h"
#include "sdk/structured/pointwise_meta.h"

namespace bp::c_api {
namespace {

// What the host's kernels of one definition read.
struct Definition {
  std::string label;  // for messages: the plugin's name, or "op_define"
  bp_kernel_fn meta = nullptr;
  void* meta_user_data = nullptr;
  bp_kernel_fn cpu_kernel = nullptr;
  void* cpu_user_data = nullptr;
  const bp_op* functional = nullptr;
  const bp_op* out = nullptr;
  // Dispatcher registrations: kernels (undone first), then the two defs.
  std::vector<RegistrationHandle> kernels;
  std::vector<RegistrationHandle> defs;

  void undo() {
    if (functional != nullptr) retire_op(*functional);
    if (out != nullptr) retire_op(*out);
    for (auto it = kernels.rbegin(); it != kernels.rend(); ++it) it->reset();
    for (auto it = defs.rbegin(); it != defs.rend(); ++it) it->reset();
  }
};

// The first defined tensor argument's device: where a functional call's output goes (as an op's
// TensorOptions come from its inputs). CPU when there is none.
Device output_device(absl::Span<const Value> args) {
  for (const Value& v : args) {
    if (v.is_tensor() && v.ref<Tensor>().defined()) return v.ref<Tensor>().device();
  }
  return Device(DeviceType::kCPU);
}

// BP_OP_META_BINARY_POINTWISE: mul's meta function over the first two arguments.
struct BinaryPointwiseMeta : public TensorIteratorBase {
  static constexpr int kNumOutputs = 1;
  void meta(const Definition&, absl::Span<const Value> args) {
    meta::binary_op(*this, args[0].ref<Tensor>(), args[1].ref<Tensor>());
  }
};

// BP_OP_META_CALLBACK: the plugin's callback, called like a kernel of the functional op on Meta
// copies of the arguments, returns a Meta tensor whose geometry the output takes.
struct CallbackMeta : public MetaBase {
  static constexpr int kNumOutputs = 1;
  void meta(const Definition& d, absl::Span<const Value> args) {
    Stack stack = MetaConverter().convert(args, d.functional->handle.schema(), true);
    call_c_kernel(d.meta, d.meta_user_data, d.label, *d.functional, DispatchKey::kMeta, stack, 0,
                  nullptr);
    const bool meta_tensor = stack.size() == 1 && stack[0].is_tensor() &&
                             stack[0].ref<Tensor>().defined() &&
                             stack[0].ref<Tensor>().device().is_meta();
    BP_CHECK(meta_tensor, "[", d.label, "] ", d.functional->label,
             ": the meta callback must return a Meta tensor (api->tensor_empty_strided on "
             "BP_DEVICE_META) giving the output's sizes, strides and dtype");
    const Tensor& result = stack[0].ref<Tensor>();
    set_output_raw_strided(0, result.sizes(), result.strides(),
                           TensorOptions{result.dtype(), output_device(args), std::nullopt});
  }
};

enum class Key { kCommon, kMeta, kCpu };

// Runs the out= kernel below the structured step: the backend's (below Common, with the plan
// published when the meta step built one) or the CPU reference. `args` ends with the output.
void run_out_kernel(const Definition& d, Key key, DispatchKeySet below,
                    const TensorIteratorBase* plan, Stack& args) {
  if (key == Key::kCpu) {
    call_c_kernel(d.cpu_kernel, d.cpu_user_data, d.label, *d.out, DispatchKey::kCPU, args, 0, plan);
    return;
  }
  std::optional<CommonPlanScope> published;
  if (plan != nullptr) published.emplace(d.out->handle, *plan);
  d.out->handle.redispatch_boxed(below, &args);
}

template <typename Call>
const TensorIteratorBase* plan_of(Call& call) {
  if constexpr (std::is_base_of_v<TensorIteratorBase, Call>) {
    return &call;
  } else {
    return nullptr;
  }
}

// The host's kernel of the functional op (kOut false) or of the out= op (kOut true) for `kKey`.
template <typename MetaClass, bool kOut, Key kKey>
void structured_kernel(void* data, const OperatorHandle& handle, DispatchKeySet keys,
                       Stack* stack) {
  const Definition& d = *static_cast<const Definition*>(data);
  const size_t nargs = (kOut ? d.out : d.functional)->args.size();
  const size_t base = stack->size() - nargs;
  const DispatchKeySet below = keys & DispatchKeySet::below(DispatchKey::kCommon);
  if (kKey == Key::kCommon && !kOut && handle.has_own_kernel(below.highest_priority_key())) {
    handle.redispatch_boxed(below, stack);  // the backend does all of the op itself
    return;
  }
  const absl::Span<const Value> args(stack->data() + base, kOut ? nargs - 1 : nargs);
  auto out_kernel_args = [&](const Tensor& output) {
    Stack s(args.begin(), args.end());
    s.emplace_back(output);
    return s;
  };
  Tensor result;
  if constexpr (kOut) {
    result = (*stack)[base + nargs - 1].ref<Tensor>();
    OutCall<MetaClass> call(result);
    call.meta(d, args);
    if (kKey != Key::kMeta) {
      Stack s = out_kernel_args(call.output(0));
      run_out_kernel(d, kKey, below, plan_of(call), s);
      call.finish();
    }
  } else {
    FunctionalCall<MetaClass> call;
    call.meta(d, args);
    if (kKey != Key::kMeta) {
      Stack s = out_kernel_args(call.output(0));
      run_out_kernel(d, kKey, below, plan_of(call), s);
    }
    result = std::move(call.output(0));
  }
  stack->resize(base);
  stack->emplace_back(std::move(result));
}

// Registers the host's kernels of `d`'s two ops for one meta kind.
template <typename MetaClass>
void register_kernels(Definition& d) {
  Dispatcher& dispatcher = Dispatcher::singleton();
  auto add = [&](const bp_op& op, DispatchKey key, BoxedKernelFn fn) {
    d.kernels.push_back(dispatcher.register_impl(
        op.name, key, KernelFunction::make_from_boxed(fn, &d),
        detail::str_cat(op.label, " [", dispatch_key_name(key), "] (op_define by ", d.label, ")")));
  };
  add(*d.functional, DispatchKey::kCommon, &structured_kernel<MetaClass, false, Key::kCommon>);
  add(*d.out, DispatchKey::kCommon, &structured_kernel<MetaClass, true, Key::kCommon>);
  add(*d.functional, DispatchKey::kMeta, &structured_kernel<MetaClass, false, Key::kMeta>);
  add(*d.out, DispatchKey::kMeta, &structured_kernel<MetaClass, true, Key::kMeta>);
  if (d.cpu_kernel != nullptr) {
    add(*d.functional, DispatchKey::kCPU, &structured_kernel<MetaClass, false, Key::kCpu>);
    add(*d.out, DispatchKey::kCPU, &structured_kernel<MetaClass, true, Key::kCpu>);
  }
}

// ---- Checking the definition ----------------------------------------------------------------

FunctionSchema parse_field(const char* text, const char* field) {
  BP_CHECK(text != nullptr, "bp_api.op_define: bp_op_def.", field, " is NULL");
  try {
    return parse_schema(text);
  } catch (const Error& e) {
    detail::throw_error(e.code(),
                        detail::str_cat("bp_api.op_define: bp_op_def.", field, ": ", e.message()));
  }
}

bool is_plain_tensor(const Type& type) {
  return type.kind == TypeKind::kTensor && !type.is_list && !type.optional;
}

void check_schemas(const FunctionSchema& functional, const FunctionSchema& out) {
  const std::string name = to_string(functional);
  const size_t colons = functional.name.find("::");
  BP_CHECK(colons != std::string::npos && colons > 0, "bp_api.op_define: bp_op_def.schema '", name,
           "' has no namespace: name the op in a namespace of your own (npu::my_op)");
  BP_CHECK(functional.name.substr(0, colons) != "bp", "bp_api.op_define: bp_op_def.schema '", name,
           "' is in namespace 'bp', Backplane's own: use a namespace of your own (npu::",
           functional.name.substr(colons + 2), ")");
  BP_CHECK(!functional.is_mutable() && !functional.is_vararg && !functional.is_varret &&
               functional.returns.size() == 1 && is_plain_tensor(functional.returns[0].type) &&
               !functional.returns[0].alias,
           "bp_api.op_define: bp_op_def.schema '", name,
           "' must be a functional op returning one Tensor (no argument written, no alias)");
  bool is_out_overload = out.name == functional.name &&
                         out.overload_name != functional.overload_name &&
                         out.arguments.size() == functional.arguments.size() + 1 &&
                         out.returns.size() == 1 && !out.is_vararg && !out.is_varret;
  for (size_t i = 0; is_out_overload && i < functional.arguments.size(); ++i) {
    is_out_overload = out.arguments[i] == functional.arguments[i];
  }
  if (is_out_overload) {
    const Argument& o = out.arguments.back();
    const Argument& r = out.returns[0];
    is_out_overload = is_plain_tensor(o.type) && o.kwarg_only && o.alias && o.alias->is_write &&
                      !o.default_value && is_plain_tensor(r.type) && r.alias == o.alias;
  }
  BP_CHECK(is_out_overload, "bp_api.op_define: bp_op_def.out_schema '", to_string(out),
           "' is not the out= overload of '", name, "': it must be named ", functional.name,
           ".<overload>, take the same arguments followed by `*, Tensor(a!) out`, and return "
           "`Tensor(a!)`");
}

void check_meta_kind(const bp_op_def& def, const FunctionSchema& functional) {
  switch (def.meta_kind) {
    case BP_OP_META_CALLBACK:
      BP_CHECK(def.meta != nullptr,
               "bp_api.op_define: bp_op_def.meta is NULL but meta_kind is BP_OP_META_CALLBACK");
      return;
    case BP_OP_META_BINARY_POINTWISE:
      BP_CHECK(def.meta == nullptr,
               "bp_api.op_define: bp_op_def.meta is set but meta_kind is "
               "BP_OP_META_BINARY_POINTWISE, which computes the output itself (use "
               "BP_OP_META_CALLBACK for a meta callback)");
      BP_CHECK(functional.arguments.size() >= 2 && is_plain_tensor(functional.arguments[0].type) &&
                   is_plain_tensor(functional.arguments[1].type),
               "bp_api.op_define: BP_OP_META_BINARY_POINTWISE needs the first two arguments of '",
               to_string(functional), "' to be Tensors");
      return;
    default:
      BP_CHECK(false, "bp_api.op_define: bp_op_def.meta_kind is ", def.meta_kind,
               ": expected BP_OP_META_CALLBACK (1) or BP_OP_META_BINARY_POINTWISE (2)");
  }
}

bp_error* op_define(const bp_op_def* in, bp_registration** out) {
  return guarded([&] {
    require(in, "op_define", "def");
    require(out, "op_define", "out");
    const bp_op_def def = read_struct(in, "bp_op_def");
    FunctionSchema functional = parse_field(def.schema, "schema");
    FunctionSchema out_schema = parse_field(def.out_schema, "out_schema");
    const std::string functional_name = functional.operator_name();
    const std::string out_name = out_schema.operator_name();
    check_schemas(functional, out_schema);
    check_meta_kind(def, functional);

    auto d = std::make_shared<Definition>();
    const std::string plugin = loading_plugin_name();
    d->label = plugin.empty() ? "op_define" : plugin;
    d->meta = def.meta;
    d->meta_user_data = def.meta_user_data;
    d->cpu_kernel = def.cpu_kernel;
    d->cpu_user_data = def.cpu_user_data;
    Dispatcher& dispatcher = Dispatcher::singleton();
    try {
      d->defs.push_back(dispatcher.register_def(std::move(functional), d->label));
      d->defs.push_back(dispatcher.register_def(std::move(out_schema), d->label));
    } catch (const Error& e) {
      d->undo();
      detail::throw_error(e.code(), "bp_api.op_define: " + e.message());
    }
    try {
      d->functional = &find_op(functional_name);
      d->out = &find_op(out_name);
      if (def.meta_kind == BP_OP_META_CALLBACK) {
        register_kernels<CallbackMeta>(*d);
      } else {
        register_kernels<BinaryPointwiseMeta>(*d);
      }
    } catch (...) {
      d->undo();
      throw;
    }
    *out = add_unowned_registration([&](bp_registration*) {
      return KernelRegistration{RegistrationHandle([d] { d->undo(); }), d};
    });
  });
}

}  // namespace

void install_op_define_functions(bp_api& api) { api.op_define = &op_define; }

}  // namespace bp::c_api
