// Python objects <-> bp::Value, as an op's schema types them: the argument conversions of
// `import backplane` (PyTorch's python_arg_parser rules) and the conversion of results.
//
//   std::optional<Value> v = to_value(py_obj, arg.type);   // nullopt: obj does not fit the type
//   py::object r = to_python(std::move(stack[0]));          // Tensor, tuple, list, number, ...
//
// What fits what: Tensor takes a backplane.Tensor (and None when optional); int a Python int
// (not a bool); float an int or a float; bool a bool; Scalar a bool, int, float or complex;
// int[] an int or a sequence of ints (int[N] repeats one int N times); str a str; ScalarType a
// backplane.dtype; Device a backplane.device or a string ("cpu", "meta", "toy:0"); MemoryFormat a
// backplane.memory_format; Tensor[] a sequence of Tensors; Tensor?[] of Tensors and None;
// Generator only None. A Python number never fits Tensor and a Tensor never fits a number, so
// overloads are chosen as in PyTorch (`add(t, 2.5)` is add.Scalar).
//
// Thread safety: call with the GIL held.
#ifndef BACKPLANE_PYTHON_CC_VALUES_H_
#define BACKPLANE_PYTHON_CC_VALUES_H_

#include <optional>
#include <string>

#include "pybind11/pybind11.h"
#include "sdk/core/device.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/scalar_type.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp::python {

namespace py = pybind11;

// The Python objects standing for dtypes, devices and memory formats (module.cc binds them).
struct PyDtype {
  ScalarType type;
};
struct PyMemoryFormat {
  MemoryFormat format;
};

// Whether `obj` is a backplane.Tensor.
bool is_tensor(py::handle obj);

// `obj` as a Value of schema type `type`, or nullopt when it does not fit.
std::optional<Value> to_value(py::handle obj, const Type& type);

// A device from a backplane.device or a device string. Errors: Device::parse's, and TypeError
// when `obj` is neither.
Device to_device(py::handle obj);

// An op's result as Python: Tensor, list of Tensors, bool, int, float, complex, dtype, None.
py::object to_python(Value&& value);

// The Python type name of `obj` as PyTorch's messages spell it: "Tensor", "int", "str", ...
std::string python_type_name(py::handle obj);

// The schema type as PyTorch's messages spell it: "Tensor", "Number" (Scalar), "tuple of ints".
std::string schema_type_name(const Type& type);

}  // namespace bp::python

#endif  // BACKPLANE_PYTHON_CC_VALUES_H_
