// The emitters: each turns the Model into the text of generated files.
//
//   Files files = emit_sdk(model);          // {"ops.h", text}, {"binary.h", text}, ...
//   for (const auto& [name, text] : files) write(out_dir / name, text);
//
// emit_sdk writes what sdk/ops builds (the op API, Tensor methods, op definitions, structured
// classes, Meta / Common / composite registrations, the op table, docs/ops.md); emit_cpu writes
// what reference_backend/cpu builds (its kernel declarations and registrations); emit_cuda writes
// the CUDA plugin's op tables. Which files
// exist depends only on the families, so Bazel can name them ahead (see sdk/ops/BUILD.bazel).
// emit_python writes the Python module's op rows (python/BUILD.bazel).
#ifndef BACKPLANE_CODEGEN_EMIT_H_
#define BACKPLANE_CODEGEN_EMIT_H_

#include <map>
#include <string>

#include "codegen/model.h"

namespace bp::codegen {

using Files = std::map<std::string, std::string>;

// Per family F: F.h, F.cc (API), F_structured.h, F_structured.cc, F_register.cc; and ops.h,
// tensor_methods.inc, tensor_methods.cc, op_defs.cc, native_kernels.h, op_table.cc, ops.md.
Files emit_sdk(const Model& model);
// How many files each family's CPU kernels are split into (families not listed: 1).
using CpuShards = std::map<std::string, int>;
// cpu_kernels.h and, per family F, F_cpu.cc, or F_cpu_0.cc ... F_cpu_<n-1>.cc when F has n > 1
// shards: the family's ops in declaration order, dealt round robin (an op's variants stay
// together).
Files emit_cpu(const Model& model, const CpuShards& shards = {});
// The CUDA plugin's data tables: pointwise_ops.inc (ops with `math:`), reduction_ops.inc (ops with
// `reduce:`) and op_arguments.inc (every op's argument names), rows of the structs in
// reference_backend/cuda.
Files emit_cuda(const Model& model);
// The Python module's op rows: op_bindings.inc, one row {python name, op, role} per way Python
// reaches an op (a module function, an out= overload of one, a Tensor method; ops with neither
// variant through call_op only), in the order Python tries overloads: declaration order with
// Scalar overloads (`scalar_of`) after the rest.
Files emit_python(const Model& model);

// Pieces shared by the emitters (emit_common.cc).
namespace emit_detail {

// The do-not-edit banner of a generated C++ file.
std::string banner();
// The typed-handle getter of an op: "op_handles::add_Tensor()".
std::string handle_call(const OpDecl& op);
// The kernel function of a structured op variant for a key ("CPU", "Meta", "Common"): the
// wrapper that runs meta, then the key's step, as in structured kernels.
std::string structured_kernel(const Model& model, const OpDecl& group, const OpDecl& variant,
                              const std::string& key);
// The name of that kernel function: "add_Tensor_Meta".
std::string kernel_name(const OpDecl& op, const std::string& key);
// The registration statement `lib.impl("add.Tensor", DispatchKey::kMeta, ...)` of that kernel.
std::string register_statement(const OpDecl& op, const std::string& key,
                               const std::string& function);
// The ops of one family, in declaration order.
std::vector<const OpDecl*> family_ops(const Model& model, const std::string& family);

}  // namespace emit_detail
}  // namespace bp::codegen

#endif  // BACKPLANE_CODEGEN_EMIT_H_
