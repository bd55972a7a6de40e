// The op functions and Tensor methods of `import backplane`, made from the rows the codegen
// writes from the op declarations (op_bindings.inc, `codegen --emit=python`): no op is named by
// hand here.
//
//   bind_ops(module, tensor_class);   // backplane.add, backplane.Tensor.add_, ...
//   backplane.add(a, b, alpha=2)      // add.Tensor
//   backplane.add(a, 2.5)             // add.Scalar: the number is a wrapped scalar
//   backplane.add(a, b, out=c)        // add.out
//   backplane.call_op("add.Tensor", a, b)   // one op by its name, whatever its variants
//
// A Python name's overloads are tried in the rows' order and the first whose schema accepts
// the arguments (values.h) runs, through the dispatcher, boxed; `out=` picks the name's out=
// overloads. Arguments that fit no overload raise TypeError with PyTorch's wording; errors of
// the op raise the Python exception of their ErrorCode (errors.h).
//
// Thread safety: call with the GIL held (it is kept while the op runs).
#ifndef BACKPLANE_PYTHON_CC_OP_BINDINGS_H_
#define BACKPLANE_PYTHON_CC_OP_BINDINGS_H_

#include "absl/types/span.h"
#include "pybind11/pybind11.h"
#include "sdk/core/tensor.h"

namespace bp::python {

namespace py = pybind11;

// How Python reaches an op.
enum class PyRole {
  kFunction,    // backplane.NAME(...)
  kOut,         // backplane.NAME(..., out=...)
  kMethod,      // Tensor.NAME(...)
  kCallOpOnly,  // neither variant is declared: backplane.call_op("op.overload", ...)
};

// One generated row: Python name, op name ("add.Tensor"), role.
struct PyOpRow {
  const char* python_name;
  const char* op;
  PyRole role;
};

// Every row, in the order overloads are tried.
absl::Span<const PyOpRow> op_rows();

// Defines the functions (and call_op, op_rows) on `module` and the methods on `tensor_class`.
// Errors: an op of a row that the dispatcher does not know (kInternal).
void bind_ops(py::module_& module, py::class_<Tensor>& tensor_class);

}  // namespace bp::python

#endif  // BACKPLANE_PYTHON_CC_OP_BINDINGS_H_
