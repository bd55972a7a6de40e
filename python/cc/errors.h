// Backplane errors as Python exceptions, as PyTorch raises them: kIndexError -> IndexError,
// kTypeError -> TypeError, kNotImplemented -> NotImplementedError, kOutOfMemory -> MemoryError,
// everything else (bad values and shapes, unavailable devices, internal errors) -> RuntimeError.
// The message is the error's own.
//
//   register_error_translator();                       // once, at module init
//   throw_python_error(ErrorCode::kTypeError, "...");   // raise from a C ABI error code
//
// Thread safety: call with the GIL held.
#ifndef BACKPLANE_PYTHON_CC_ERRORS_H_
#define BACKPLANE_PYTHON_CC_ERRORS_H_

#include <string>

#include "pybind11/pybind11.h"
#include "sdk/core/error.h"

namespace bp::python {

// The Python exception class of `code` (a borrowed reference to a builtin).
PyObject* exception_type(ErrorCode code);

// Makes pybind11 raise exception_type(e.code()) for every bp::Error a binding throws.
void register_error_translator();

// Raises exception_type(code) with `message` (throws pybind11::error_already_set).
[[noreturn]] void throw_python_error(ErrorCode code, const std::string& message);

}  // namespace bp::python

#endif  // BACKPLANE_PYTHON_CC_ERRORS_H_
