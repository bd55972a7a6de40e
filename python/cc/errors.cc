#include "python/cc/errors.h"

namespace bp::python {

PyObject* exception_type(ErrorCode code) {
  switch (code) {
    case ErrorCode::kIndexError:
      return PyExc_IndexError;
    case ErrorCode::kTypeError:
      return PyExc_TypeError;
    case ErrorCode::kNotImplemented:
      return PyExc_NotImplementedError;
    case ErrorCode::kOutOfMemory:
      return PyExc_MemoryError;
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kUnavailable:
    case ErrorCode::kInternal:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

void register_error_translator() {
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(exception_type(e.code()), e.message().c_str());
    }
  });
}

void throw_python_error(ErrorCode code, const std::string& message) {
  PyErr_SetString(exception_type(code), message.c_str());
  throw pybind11::error_already_set();
}

}  // namespace bp::python
