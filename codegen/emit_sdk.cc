// The files sdk/ops builds: the op API, Tensor methods, op definitions, structured classes and
// the Meta / Common / composite registrations.
#include <algorithm>
#include <set>
#include <sstream>

#include "codegen/cpp.h"
#include "codegen/emit.h"

namespace bp::codegen {
namespace {

using namespace emit_detail;

std::string guard(const std::string& file) {
  std::string g = "BACKPLANE_SDK_OPS_";
  for (char c : file) g += std::isalnum(static_cast<unsigned char>(c)) ? std::toupper(c) : '_';
  return g + "_";
}

// "// add.Tensor(...) -> Tensor  [sdk/ops/binary.yaml:3]"
std::string origin_comment(const OpDecl& op) {
  return "// " + to_string(op.schema) + "  [" + op.loc.str() + "]\n";
}

// The parameters with their defaults where C++ allows one (every later parameter has one too).
std::string parameters_with_defaults(const std::vector<const Argument*>& args) {
  std::vector<std::string> defaults;
  for (const Argument* a : args) defaults.push_back(default_value(*a));
  size_t first_default = args.size();
  while (first_default > 0 && !defaults[first_default - 1].empty()) --first_default;
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    out += (i ? ", " : "") + argument_type(*args[i]) + " " + args[i]->name;
    if (i >= first_default) out += " = " + defaults[i];
  }
  return out;
}

// API parameters: outputs first for out= ops (bp::add_out(out, self, other)), as in ATen.
std::vector<const Argument*> api_arguments(const OpDecl& op) {
  std::vector<const Argument*> args = op.out_arguments();
  for (const Argument* a : op.non_out_arguments()) args.push_back(a);
  return args;
}

bool has_function(const OpDecl& op) { return op.function_variant || op.kind() == OpKind::kOut; }

std::string typed_handle(const OpDecl& op) {
  return "TypedOperatorHandle<" + dispatcher_signature(op) + ">";
}

constexpr const char* kApiIncludes =
    "#include <cstdint>\n#include <optional>\n#include <string_view>\n#include <tuple>\n#include "
    "<vector>\n\n"
    "#include \"absl/types/span.h\"\n#include \"sdk/core/device.h\"\n"
    "#include \"sdk/core/int_array_ref.h\"\n#include \"sdk/core/memory_format.h\"\n"
    "#include \"sdk/core/scalar.h\"\n#include \"sdk/core/scalar_type.h\"\n"
    "#include \"sdk/core/tensor.h\"\n#include \"sdk/dispatch/operator_handle.h\"\n";

std::string api_header(const Model& model, const std::string& family) {
  std::ostringstream o;
  const std::string g = guard(family + "_h");
  o << banner() << "// The C++ API of the '" << family
    << "' ops: each function dispatches its op.\n"
    << "#ifndef " << g << "\n#define " << g << "\n\n"
    << kApiIncludes << "\nnamespace bp {\n\n";
  for (const OpDecl* op : family_ops(model, family)) {
    if (!has_function(*op)) continue;
    o << origin_comment(*op) << return_type(op->schema) << " " << api_name(*op) << "("
      << parameters_with_defaults(api_arguments(*op)) << ");\n";
  }
  o << "\n// Typed dispatcher handles, looked up once.\nnamespace op_handles {\n";
  for (const OpDecl* op : family_ops(model, family)) {
    o << "const " << typed_handle(*op) << "& " << unique_name(*op) << "();\n";
  }
  o << "}  // namespace op_handles\n\n}  // namespace bp\n\n#endif  // " << g << "\n";
  return o.str();
}

std::string api_source(const Model& model, const std::string& family) {
  std::ostringstream o;
  o << banner() << "#include \"sdk/ops/" << family << ".h\"\n\n"
    << "#include \"sdk/dispatch/dispatcher.h\"\n#include \"sdk/ops/define_ops.h\"\n\n"
    << "namespace bp {\n\n";
  for (const OpDecl* op : family_ops(model, family)) {
    o << "const " << typed_handle(*op) << "& op_handles::" << unique_name(*op) << "() {\n"
      << "  static const " << typed_handle(*op) << " handle = (define_ops(), "
      << "Dispatcher::singleton().find_op_or_throw(" << quoted("bp::" + op->name()) << ").typed<"
      << dispatcher_signature(*op) << ">());\n  return handle;\n}\n\n";
    if (!has_function(*op)) continue;
    o << return_type(op->schema) << " " << api_name(*op) << "("
      << parameter_list(api_arguments(*op)) << ") {\n  return " << handle_call(*op) << ".call("
      << argument_names(all_arguments(*op)) << ");\n}\n\n";
  }
  o << "}  // namespace bp\n";
  return o.str();
}

std::string ops_umbrella(const Model& model) {
  std::ostringstream o;
  o << banner() << "// Every op of Backplane's C++ API.\n#ifndef BACKPLANE_SDK_OPS_OPS_H_\n"
    << "#define BACKPLANE_SDK_OPS_OPS_H_\n\n";
  for (const std::string& family : model.families()) {
    o << "#include \"sdk/ops/" << family << ".h\"  // IWYU pragma: export\n";
  }
  o << "\n#endif  // BACKPLANE_SDK_OPS_OPS_H_\n";
  return o.str();
}

// A method's parameters: the op's arguments without `self`, in schema order, wherever `self`
// stands (Tensor::polygamma(int64_t n) of polygamma(int n, Tensor self), as PyTorch).
std::vector<const Argument*> method_arguments(const OpDecl& op) {
  std::vector<const Argument*> args = all_arguments(op);
  args.erase(
      std::find_if(args.begin(), args.end(), [](const Argument* a) { return a->name == "self"; }));
  return args;
}

std::string tensor_methods_inc(const Model& model) {
  std::ostringstream o;
  o << banner() << "// Included inside class bp::Tensor (sdk/core/tensor.h): one method per op "
    << "declared with `variants: method`.\n";
  for (const OpDecl& op : model.ops()) {
    if (!op.method_variant) continue;
    o << return_type(op.schema) << " " << api_name(op) << "("
      << parameters_with_defaults(method_arguments(op)) << ") const;\n";
  }
  return o.str();
}

std::string tensor_methods_cc(const Model& model) {
  std::ostringstream o;
  o << banner()
    << "#include \"sdk/core/tensor.h\"\n#include \"sdk/ops/ops.h\"\n\nnamespace bp {\n\n";
  for (const OpDecl& op : model.ops()) {
    if (!op.method_variant) continue;
    const std::string self = op.kind() == OpKind::kInplace ? "const_cast<Tensor&>(*this)" : "*this";
    // The dispatcher takes the arguments in schema order, *this in self's place.
    std::string call_args;
    for (const Argument* a : all_arguments(op)) {
      call_args += (call_args.empty() ? "" : ", ") + (a->name == "self" ? self : a->name);
    }
    o << return_type(op.schema) << " Tensor::" << api_name(op) << "("
      << parameter_list(method_arguments(op)) << ") const {\n  return " << handle_call(op)
      << ".call(" << call_args << ");\n}\n\n";
  }
  o << "}  // namespace bp\n";
  return o.str();
}

std::string op_defs(const Model& model) {
  std::ostringstream o;
  o << banner() << "#include \"sdk/dispatch/library.h\"\n#include \"sdk/ops/define_ops.h\"\n\n"
    << "namespace bp {\n\nvoid define_ops() {\n  static const bool defined = [] {\n"
    << "    static Library lib(\"bp\");\n";
  for (const OpDecl& op : model.ops()) {
    o << "    lib.def(" << quoted(to_string(op.schema)) << ");\n";
  }
  o << "    return true;\n  }();\n  (void)defined;\n}\n\n"
    << "namespace {\nconst bool kDefinedAtLoad = (define_ops(), true);\n}  // namespace\n\n"
    << "}  // namespace bp\n";
  return o.str();
}

std::string structured_header(const Model& model, const std::string& family) {
  std::ostringstream o;
  const std::string g = guard(family + "_structured_h");
  o << banner() << "// The structured classes of the '" << family
    << "' ops: each runs its op's meta function (shape, dtype and checks) and receives its "
       "outputs through MetaBase::set_output_raw_strided.\n"
    << "#ifndef " << g << "\n#define " << g << "\n\n"
    << kApiIncludes << "#include \"sdk/iter/tensor_iterator.h\"\n"
    << "#include \"sdk/structured/meta_base.h\"\n\nnamespace bp {\n\n";
  for (const OpDecl* op : family_ops(model, family)) {
    if (!op->structured) continue;
    o << origin_comment(*op) << "struct " << structured_class(*op) << " : public "
      << op->structured_inherits.value_or("MetaBase") << " {\n"
      << "  static constexpr int kNumOutputs = " << op->out_arguments().size() << ";\n"
      << "  // The dtypes the declaration lists (bit i: ScalarType code i).\n"
      << "  static constexpr uint32_t kDtypes = " << op->dtypes << "u;\n"
      << "  void meta(" << parameter_list(op->non_out_arguments()) << ");\n};\n\n";
  }
  o << "}  // namespace bp\n\n#endif  // " << g << "\n";
  return o.str();
}

std::string structured_source(const Model& model, const std::string& family) {
  std::ostringstream o;
  o << banner() << "#include \"sdk/ops/" << family << "_structured.h\"\n\n"
    << "#include \"sdk/structured/meta_functions.h\"\n\nnamespace bp {\n\n";
  for (const OpDecl* op : family_ops(model, family)) {
    if (!op->structured) continue;
    std::string args = "*this";
    for (const std::string& a : op->meta->args) args += ", " + a;
    o << "void " << structured_class(*op) << "::meta(" << parameter_list(op->non_out_arguments())
      << ") {\n";
    // Arguments the meta function does not take are unused here.
    for (const Argument* a : op->non_out_arguments()) {
      const auto& used = op->meta->args;
      if (std::find(used.begin(), used.end(), a->name) == used.end()) {
        o << "  (void)" << a->name << ";\n";
      }
    }
    o << "  meta::" << op->meta->function << "(" << args << ");\n}\n\n";
  }
  o << "}  // namespace bp\n";
  return o.str();
}

// A thin kernel calling a Meta or composite implementation in bp::native.
std::string composite_kernel(const OpDecl& op, DispatchTarget target) {
  std::ostringstream o;
  const std::string key = dispatch_target_name(target);
  o << return_type(op.schema) << " " << kernel_name(op, key) << "(DispatchKeySet, "
    << parameter_list(all_arguments(op)) << ") {\n  return native::" << op.dispatch.at(target)
    << "(" << argument_names(all_arguments(op)) << ");\n}\n\n";
  return o.str();
}

// An alias's kernel: the target op, called through its handle with the same arguments.
std::string alias_kernel(const Model& model, const OpDecl& op) {
  std::ostringstream o;
  o << return_type(op.schema) << " " << kernel_name(op, "CompositeImplicit") << "(DispatchKeySet, "
    << parameter_list(all_arguments(op)) << ") {\n  return " << handle_call(alias_target(model, op))
    << ".call(" << argument_names(all_arguments(op)) << ");\n}\n\n";
  return o.str();
}

// A Scalar overload's kernel: the target op, called through its handle with the Scalars it takes
// as Tensors wrapped into zero-dim tensors.
std::string scalar_kernel(const Model& model, const OpDecl& op) {
  const OpDecl& target = scalar_target(model, op);
  std::string args;
  for (const Argument& a : target.schema.arguments) {
    if (!args.empty()) args += ", ";
    args += wraps_scalar(op, target, a.name) ? "wrapped_scalar_tensor(" + a.name + ")" : a.name;
  }
  std::ostringstream o;
  o << return_type(op.schema) << " " << kernel_name(op, "CompositeImplicit") << "(DispatchKeySet, "
    << parameter_list(all_arguments(op)) << ") {\n  return " << handle_call(target) << ".call("
    << args << ");\n}\n\n";
  return o.str();
}

std::string register_source(const Model& model, const std::string& family) {
  std::ostringstream kernels, registrations;
  for (const OpDecl* op : family_ops(model, family)) {
    if (op->alias_of || op->scalar_of) {
      kernels << (op->alias_of ? alias_kernel(model, *op) : scalar_kernel(model, *op));
      registrations << "    "
                    << register_statement(*op, "CompositeImplicit",
                                          kernel_name(*op, "CompositeImplicit"))
                    << "\n";
    }
    for (DispatchTarget target : {DispatchTarget::kMeta, DispatchTarget::kCompositeExplicit,
                                  DispatchTarget::kCompositeImplicit}) {
      if (!op->dispatch.count(target)) continue;
      kernels << composite_kernel(*op, target);
      registrations << "    "
                    << register_statement(*op, dispatch_target_name(target),
                                          kernel_name(*op, dispatch_target_name(target)))
                    << "\n";
    }
    if (!op->structured) continue;
    std::vector<const OpDecl*> group = model.delegates_of(*op);
    group.push_back(op);
    for (const OpDecl* variant : group) {
      for (const char* key : {"Meta", "Common"}) {
        kernels << structured_kernel(model, *op, *variant, key) << "\n";
        registrations << "    " << register_statement(*variant, key, kernel_name(*variant, key))
                      << "\n";
      }
    }
  }
  std::ostringstream o;
  o << banner() << "// Meta, Common and composite kernels of the '" << family << "' ops.\n"
    << "#include \"sdk/core/scalar_tensor.h\"\n"
    << "#include \"sdk/dispatch/library.h\"\n#include \"sdk/ops/common_plan.h\"\n"
    << "#include \"sdk/ops/define_ops.h\"\n"
    << "#include \"sdk/ops/native_kernels.h\"\n#include \"sdk/ops/ops.h\"\n"
    << "#include \"sdk/ops/" << family << "_structured.h\"\n"
    << "#include \"sdk/ops/structured_calls.h\"\n\nnamespace bp {\nnamespace {\n\n"
    << kernels.str() << "const bool kRegistered = [] {\n  define_ops();\n"
    << "  static Library lib(\"bp\");\n"
    << registrations.str() << "  return true;\n}();\n\n"
    << "}  // namespace\n}  // namespace bp\n";
  return o.str();
}

std::string native_kernels_header(const Model& model) {
  std::ostringstream o;
  o << banner() << "// The Meta and composite kernels the op declarations name (dispatch: Meta, "
    << "CompositeExplicit, CompositeImplicit), implemented by hand in bp::native.\n"
    << "#ifndef BACKPLANE_SDK_OPS_NATIVE_KERNELS_H_\n#define "
       "BACKPLANE_SDK_OPS_NATIVE_KERNELS_H_\n\n"
    << kApiIncludes << "\nnamespace bp::native {\n\n";
  std::set<std::string> seen;
  for (const OpDecl& op : model.ops()) {
    for (const auto& [target, kernel] : op.dispatch) {
      if (target == DispatchTarget::kCPU) continue;  // cpu_kernels.h (reference_backend/cpu)
      std::string decl =
          return_type(op.schema) + " " + kernel + "(" + parameter_list(all_arguments(op)) + ");\n";
      if (seen.insert(decl).second) o << origin_comment(op) << decl;
    }
  }
  o << "\n}  // namespace bp::native\n\n#endif  // BACKPLANE_SDK_OPS_NATIVE_KERNELS_H_\n";
  return o.str();
}

}  // namespace

std::string op_table_source(const Model& model);
std::string ops_markdown(const Model& model);

Files emit_sdk(const Model& model) {
  Files files;
  for (const std::string& family : model.families()) {
    files[family + ".h"] = api_header(model, family);
    files[family + ".cc"] = api_source(model, family);
    files[family + "_structured.h"] = structured_header(model, family);
    files[family + "_structured.cc"] = structured_source(model, family);
    files[family + "_register.cc"] = register_source(model, family);
  }
  files["ops.h"] = ops_umbrella(model);
  files["tensor_methods.inc"] = tensor_methods_inc(model);
  files["tensor_methods.cc"] = tensor_methods_cc(model);
  files["op_defs.cc"] = op_defs(model);
  files["native_kernels.h"] = native_kernels_header(model);
  files["op_table.cc"] = op_table_source(model);
  files["ops.md"] = ops_markdown(model);
  return files;
}

}  // namespace bp::codegen
