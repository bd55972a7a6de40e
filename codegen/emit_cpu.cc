// The files reference_backend/cpu builds: declarations of its hand-written kernels and the
// registrations of every CPU kernel (structured wrappers included).
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/cpp.h"
#include "codegen/emit.h"

namespace bp::codegen {
namespace {

using namespace emit_detail;

// The parameters of a structured op's CPU kernel: the structured object, the op's non-out
// arguments, then the outputs (read-only handles: the kernel writes their elements).
std::string structured_impl_parameters(const OpDecl& op) {
  std::string params = structured_class(op) + "& op";
  for (const Argument* a : op.non_out_arguments())
    params += ", " + argument_type(*a) + " " + a->name;
  for (const Argument* a : op.out_arguments()) params += ", const Tensor& " + a->name;
  return params;
}

std::string cpu_kernels_header(const Model& model) {
  std::ostringstream o;
  o << banner() << "// The CPU kernels the op declarations name (dispatch: CPU), implemented by "
    << "hand in reference_backend/cpu. Structured ops' kernels get the op's structured object "
    << "(for TensorIterator ops, the built iterator) and write into the outputs given.\n"
    << "#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_CPU_KERNELS_H_\n"
    << "#define BACKPLANE_REFERENCE_BACKEND_CPU_CPU_KERNELS_H_\n\n"
    << "#include \"sdk/ops/ops.h\"\n";
  for (const std::string& family : model.families()) {
    o << "#include \"sdk/ops/" << family << "_structured.h\"\n";
  }
  o << "\nnamespace bp::cpu {\n\n";
  for (const OpDecl& op : model.ops()) {
    auto it = op.dispatch.find(DispatchTarget::kCPU);
    if (it == op.dispatch.end()) continue;
    o << "// " << op.name() << "  [" << op.loc.str() << "]\n";
    if (op.structured) {
      o << "void " << it->second << "(" << structured_impl_parameters(op) << ");\n";
    } else {
      o << return_type(op.schema) << " " << it->second << "(" << parameter_list(all_arguments(op))
        << ");\n";
    }
  }
  o << "\n}  // namespace bp::cpu\n\n#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_CPU_KERNELS_H_\n";
  return o.str();
}

// The CPU kernels and registrations of `ops` (ops of `family`).
std::string family_registrations(const Model& model, const std::string& family,
                                 const std::vector<const OpDecl*>& ops) {
  if (ops.empty()) return banner() + "// No CPU kernels of the '" + family + "' ops here.\n";
  std::ostringstream kernels, registrations;
  for (const OpDecl* op : ops) {
    if (op->structured) {
      std::vector<const OpDecl*> group = model.delegates_of(*op);
      group.push_back(op);
      for (const OpDecl* variant : group) {
        kernels << structured_kernel(model, *op, *variant, "CPU") << "\n";
        registrations << "    " << register_statement(*variant, "CPU", kernel_name(*variant, "CPU"))
                      << "\n";
      }
      continue;
    }
    auto it = op->dispatch.find(DispatchTarget::kCPU);
    if (it == op->dispatch.end()) continue;
    kernels << return_type(op->schema) << " " << kernel_name(*op, "CPU") << "(DispatchKeySet, "
            << parameter_list(all_arguments(*op)) << ") {\n  return cpu::" << it->second << "("
            << argument_names(all_arguments(*op)) << ");\n}\n\n";
    registrations << "    " << register_statement(*op, "CPU", kernel_name(*op, "CPU")) << "\n";
  }
  std::ostringstream o;
  o << banner() << "// CPU kernels of the '" << family << "' ops.\n"
    << "#include \"reference_backend/cpu/along_dim.h\"\n"
    << "#include \"reference_backend/cpu/cpu_kernels.h\"\n"
    << "#include \"reference_backend/cpu/pointwise.h\"\n"
    << "#include \"reference_backend/cpu/reductions.h\"\n"
    << "#include \"reference_backend/cpu/zero_division.h\"\n"
    << "#include \"reference_backend/math/math.h\"\n"
    << "#include \"sdk/dispatch/library.h\"\n#include \"sdk/ops/define_ops.h\"\n"
    << "#include \"sdk/ops/" << family << "_structured.h\"\n"
    << "#include \"sdk/ops/structured_calls.h\"\n\nnamespace bp::cpu {\nnamespace {\n\n"
    << kernels.str() << "const bool kRegistered = [] {\n  define_ops();\n"
    << "  static Library lib(\"bp\");\n"
    << registrations.str() << "  return true;\n}();\n\n"
    << "}  // namespace\n}  // namespace bp::cpu\n";
  return o.str();
}

}  // namespace

Files emit_cpu(const Model& model, const CpuShards& shards) {
  Files files;
  files["cpu_kernels.h"] = cpu_kernels_header(model);
  for (const std::string& family : model.families()) {
    auto it = shards.find(family);
    const int n = it == shards.end() ? 1 : it->second;
    // The ops that get a CPU kernel here (a structured op brings its delegating variants).
    std::vector<const OpDecl*> ops;
    for (const OpDecl* op : family_ops(model, family)) {
      if (op->structured || op->dispatch.count(DispatchTarget::kCPU) != 0) ops.push_back(op);
    }
    if (n == 1) {
      files[family + "_cpu.cc"] = family_registrations(model, family, ops);
      continue;
    }
    std::vector<std::vector<const OpDecl*>> parts(n);
    for (size_t i = 0; i < ops.size(); ++i) parts[i % n].push_back(ops[i]);
    for (int k = 0; k < n; ++k) {
      files[family + "_cpu_" + std::to_string(k) + ".cc"] =
          family_registrations(model, family, parts[k]);
    }
  }
  return files;
}

}  // namespace bp::codegen
