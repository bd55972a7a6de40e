#include <algorithm>
#include <sstream>

#include "codegen/cpp.h"
#include "codegen/emit.h"

namespace bp::codegen::emit_detail {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

std::vector<std::string> quoted_each(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& item : items) out.push_back(quoted(item));
  return out;
}

std::vector<std::string> names_of(const std::vector<const Argument*>& args) {
  std::vector<std::string> names;
  for (const Argument* a : args) names.push_back(a->name);
  return names;
}

// "call.output(0), call.output(1)" for a group with n outputs.
std::vector<std::string> call_outputs(size_t n) {
  std::vector<std::string> outs;
  for (size_t i = 0; i < n; ++i) outs.push_back("call.output(" + std::to_string(i) + ")");
  return outs;
}

const Argument* find_argument(const OpDecl& op, const std::string& name) {
  for (const Argument& a : op.schema.arguments) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

// cpu::reduce (reference_backend/cpu/reductions.h) for a declaration's `reduce:` (the model has
// checked that it fits: see check_generic_cpu_reduction).
std::string generic_reduction_step(const OpDecl& group) {
  const ReductionSpec& r = *group.reduction;
  const Argument* dim = find_argument(group, "dim");
  std::string dims = "IntArrayRef()";
  if (dim != nullptr) {
    dims = !dim->type.is_list   ? "IntArrayRef(&dim, 1)"
           : dim->type.optional ? "dim.value_or(IntArrayRef())"
                                : "dim";
  }
  const std::vector<const Argument*> outs = group.out_arguments();
  // self, an output (below) or a ScalarType argument (self's dtype when None).
  std::string in_dtype = "self.dtype()";
  if (const Argument* a = find_argument(group, r.in);
      a != nullptr && r.in != "self" && a->type.kind == TypeKind::kScalarType) {
    in_dtype = a->type.optional ? r.in + ".value_or(self.dtype())" : r.in;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i]->name == r.in) in_dtype = "call.output(" + std::to_string(i) + ").dtype()";
  }
  std::string line = "reduce<math::" + r.ops + ", " + std::to_string(group.dtypes) + "u>(" +
                     quoted(group.schema.name) + ", self, " + dims + ", " +
                     (find_argument(group, "keepdim") ? "keepdim" : "false") + ", " + in_dtype +
                     ", {" + join(call_outputs(outs.size())) + "}";
  for (const ReduceArg& a : r.args) {
    line += ", reduce_arg(" + a.name + ", " + a.if_none.value_or("0") + ")";
  }
  return line + ");";
}

// A `math:` argument as cpu::pointwise takes it: Scalars as they are, other numbers wrapped, None
// as the declared number (Scalars it converts to the compute type), a str as a MathChoice.
std::string math_argument(const OpDecl& group, const std::string& name) {
  const Argument& a = *find_argument(group, name);
  if (auto it = group.math->choices.find(name); it != group.math->choices.end()) {
    return "MathChoice<" + std::to_string(it->second.size()) + ">{math_choice(" + name + ", {" +
           join(quoted_each(it->second)) + "})}";
  }
  if (auto it = group.math->if_none.find(name); it != group.math->if_none.end()) {
    return "(" + name + " ? Scalar(*" + name + ") : Scalar(" + it->second + "))";
  }
  return a.type.kind == TypeKind::kScalar ? name : "Scalar(" + name + ")";
}

// The CPU step of a structured group: its math through cpu::pointwise, or its named kernel.
std::string cpu_step(const OpDecl& group) {
  const std::vector<std::string> args = names_of(group.non_out_arguments());
  if (group.math && group.dispatch.count(DispatchTarget::kCPU) == 0) {
    std::string line;
    if (group.divisor) {
      // The divisor's position among the functor's tensor inputs (the TensorIterator's order).
      const std::vector<std::string> inputs = math_tensor_inputs(group, *group.math);
      const auto input = std::find(inputs.begin(), inputs.end(), *group.divisor) - inputs.begin();
      line = "check_no_zero_divisor(call, " + std::to_string(input) + ");\n    ";
    }
    // Inputs named `name=bool` (masked_fill's mask) are read as bool: a third template argument.
    const uint32_t bool_inputs = math_bool_inputs(group, *group.math);
    line += "pointwise<math::" + group.math->function + ", " + std::to_string(group.dtypes) + "u" +
            (bool_inputs != 0 ? ", " + std::to_string(bool_inputs) + "u" : "") + ">(call, " +
            quoted(group.schema.name);
    for (const std::string& a : group.math->args) {
      if (find_argument(group, a)->type.kind == TypeKind::kTensor) continue;  // an input
      line += ", " + math_argument(group, a);
    }
    return line + ");";
  }
  if (group.scan || group.normalize) {
    // The family kernels of reference_backend/cpu/along_dim.h.
    const bool scan = group.scan.has_value();
    return std::string(scan ? "scan" : "normalize") +
           "<math::" + (scan ? group.scan : group.normalize)->function + ", " +
           std::to_string(group.dtypes) + "u>(" + quoted(group.schema.name) +
           ", self, dim, call.output(0)" +
           (group.out_arguments().size() == 2 ? ", call.output(1)" : "") + ");";
  }
  if (group.reduction && group.dispatch.count(DispatchTarget::kCPU) == 0) {
    return generic_reduction_step(group);
  }
  std::vector<std::string> all = {"call"};
  all.insert(all.end(), args.begin(), args.end());
  for (const std::string& o : call_outputs(group.out_arguments().size())) all.push_back(o);
  // Qualified: argument-dependent lookup would also find the bp:: op of the same name.
  return "cpu::" + group.dispatch.at(DispatchTarget::kCPU) + "(" + join(all) + ");";
}

}  // namespace

std::string banner() {
  return "// @generated by //codegen from the op declarations in sdk/ops/*.yaml. DO NOT EDIT.\n";
}

std::string handle_call(const OpDecl& op) { return "op_handles::" + unique_name(op) + "()"; }

std::string kernel_name(const OpDecl& op, const std::string& key) {
  return unique_name(op) + "_" + key;
}

std::vector<const OpDecl*> family_ops(const Model& model, const std::string& family) {
  std::vector<const OpDecl*> ops;
  for (const OpDecl& op : model.ops()) {
    if (op.family == family) ops.push_back(&op);
  }
  return ops;
}

std::string register_statement(const OpDecl& op, const std::string& key,
                               const std::string& function) {
  return "lib.impl(" + quoted(op.name()) + ", DispatchKey::k" + key +
         ", KernelFunction::make_from_unboxed<&" + function + ">(), " +
         quoted(op.name() + " [" + key + "]") + ");";
}

std::string structured_kernel(const Model& model, const OpDecl& group, const OpDecl& variant,
                              const std::string& key) {
  (void)model;
  const std::string cls = structured_class(group);
  const size_t num_outputs = group.out_arguments().size();
  const OpKind kind = variant.kind();
  const std::vector<std::string> args = names_of(group.non_out_arguments());
  const std::vector<std::string> outs = names_of(variant.out_arguments());
  const bool common = key == "Common";

  std::ostringstream o;
  o << return_type(variant.schema) << " " << kernel_name(variant, key) << "(DispatchKeySet"
    << (common ? " keys" : "") << ", " << parameter_list(all_arguments(variant)) << ") {\n";
  if (common) {
    // Common serves backends that register only the out= kernel; a backend with its own kernel
    // for this very op gets the call unchanged.
    o << "  const DispatchKeySet below = keys & DispatchKeySet::below(DispatchKey::kCommon);\n";
    if (kind != OpKind::kOut) {
      o << "  if (" << handle_call(variant) << ".has_own_kernel(below.highest_priority_key())) {\n"
        << "    return " << handle_call(variant) << ".redispatch(below, "
        << argument_names(all_arguments(variant)) << ");\n  }\n";
    }
  }
  switch (kind) {
    case OpKind::kFunctional:
      o << "  FunctionalCall<" << cls << "> call;\n";
      break;
    case OpKind::kInplace:
      o << "  InplaceCall<" << cls << "> call(" << variant.schema.arguments[0].name << ");\n";
      break;
    case OpKind::kOut:
      o << "  OutCall<" << cls << "> call(" << join(outs) << ");\n";
      break;
  }
  o << "  call.meta(" << join(args) << ");\n";
  if (key == "CPU") {
    o << "  " << cpu_step(group) << "\n";
  } else if (common) {
    std::vector<std::string> all = args;
    for (const std::string& out : call_outputs(num_outputs)) all.push_back(out);
    const std::string redispatch = handle_call(group) + ".redispatch(below, " + join(all) + ");";
    if (group.structured_inherits) {
      // The meta function built the op's TensorIterator: hand it to the backend's kernel
      // (sdk/ops/common_plan.h) instead of letting it build another.
      o << "  {\n    const CommonPlanScope plan(" << handle_call(group) << ", call);\n    "
        << redispatch << "\n  }\n";
    } else {
      o << "  " << redispatch << "\n";
    }
  }
  if (key != "Meta" && kind != OpKind::kFunctional) o << "  call.finish();\n";
  switch (kind) {
    case OpKind::kFunctional:
      if (num_outputs == 1) {
        o << "  return std::move(call.output(0));\n";
      } else {
        std::vector<std::string> moved;
        for (const std::string& out : call_outputs(num_outputs))
          moved.push_back("std::move(" + out + ")");
        o << "  return {" << join(moved) << "};\n";
      }
      break;
    case OpKind::kInplace:
      o << "  return " << variant.schema.arguments[0].name << ";\n";
      break;
    case OpKind::kOut:
      if (outs.size() == 1) {
        o << "  return " << outs[0] << ";\n";
      } else {
        o << "  return {" << join(outs) << "};\n";
      }
      break;
  }
  o << "}\n";
  return o.str();
}

}  // namespace bp::codegen::emit_detail
