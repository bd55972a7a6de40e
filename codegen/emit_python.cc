// The Python bindings' op rows (python/cc/op_bindings.h): which Python name reaches which op, as
// a module function, an out= overload of one, or a Tensor method.
#include <algorithm>
#include <sstream>

#include "codegen/cpp.h"
#include "codegen/emit.h"

namespace bp::codegen {
namespace {

// PyTorch tries a name's overloads in order and takes the first that accepts the arguments;
// Scalar overloads (`scalar_of`) come after the Tensor ones they wrap, as in torchgen's sorted
// signatures, so a Tensor argument never picks the Scalar overload.
std::vector<const OpDecl*> in_overload_order(const Model& model) {
  std::vector<const OpDecl*> ops;
  for (const OpDecl& op : model.ops()) ops.push_back(&op);
  std::stable_sort(ops.begin(), ops.end(), [](const OpDecl* a, const OpDecl* b) {
    return !a->scalar_of.has_value() && b->scalar_of.has_value();
  });
  return ops;
}

std::string row(const std::string& python_name, const OpDecl& op, const char* role) {
  return "    {" + quoted(python_name) + ", " + quoted(op.name()) + ", PyRole::" + role + "},\n";
}

}  // namespace

Files emit_python(const Model& model) {
  std::ostringstream rows;
  rows
      << emit_detail::banner()
      << "// Rows of python/cc/op_bindings.cc (PyOpRow): every declared op, under the Python name\n"
         "// that reaches it. An op with neither variant is reachable through call_op only.\n";
  for (const OpDecl* op : in_overload_order(model)) {
    // The Python name is the schema's base name: add.Tensor and add.out are both "add",
    // add_.Tensor is "add_" (PyTorch's torch.add(..., out=) and Tensor.add_).
    const std::string& name = op->schema.name;
    if (op->function_variant) {
      rows << row(name, *op, op->kind() == OpKind::kOut ? "kOut" : "kFunction");
    }
    if (op->method_variant && op->kind() != OpKind::kOut) rows << row(name, *op, "kMethod");
    if (!op->function_variant && !op->method_variant) rows << row(name, *op, "kCallOpOnly");
  }
  return {{"op_bindings.inc", rows.str()}};
}

}  // namespace bp::codegen
