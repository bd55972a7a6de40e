#include "python/cc/values.h"

#include <complex>
#include <vector>

#include "pybind11/complex.h"
#include "pybind11/stl.h"
#include "sdk/core/tensor.h"

namespace bp::python {
namespace {

bool is_int(py::handle obj) { return PyLong_Check(obj.ptr()) && !PyBool_Check(obj.ptr()); }
bool is_number(py::handle obj) {
  return PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr()) || PyComplex_Check(obj.ptr());
}
bool is_sequence(py::handle obj) { return PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()); }

// One element of a list, or nullopt when it does not fit.
template <typename T>
std::optional<T> element(py::handle obj, TypeKind kind) {
  if constexpr (std::is_same_v<T, int64_t>) {
    if (!is_int(obj)) return std::nullopt;
    return obj.cast<int64_t>();
  } else if constexpr (std::is_same_v<T, double>) {
    if (kind != TypeKind::kFloat || !(is_int(obj) || PyFloat_Check(obj.ptr()))) return std::nullopt;
    return obj.cast<double>();
  } else {
    if (!PyBool_Check(obj.ptr())) return std::nullopt;
    return obj.cast<bool>();
  }
}

template <typename T>
std::optional<Value> list_of(py::handle obj, const Type& type) {
  if (!is_sequence(obj)) {
    // One number for a whole list: int[N] repeats it; int[] takes it as a one-element list.
    std::optional<T> one = element<T>(obj, type.kind);
    if (!one) return std::nullopt;
    return Value(std::vector<T>(type.list_size ? static_cast<size_t>(*type.list_size) : 1, *one));
  }
  std::vector<T> items;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) {
    std::optional<T> v = element<T>(item, type.kind);
    if (!v) return std::nullopt;
    items.push_back(*v);
  }
  return Value(std::move(items));
}

std::optional<Value> tensor_list(py::handle obj, const Type& type) {
  if (!is_sequence(obj)) return std::nullopt;
  if (type.element_optional) {
    std::vector<std::optional<Tensor>> items;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) {
      if (item.is_none()) {
        items.emplace_back(std::nullopt);
      } else if (is_tensor(item)) {
        items.emplace_back(item.cast<const Tensor&>());
      } else {
        return std::nullopt;
      }
    }
    return Value(std::move(items));
  }
  std::vector<Tensor> items;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) {
    if (!is_tensor(item)) return std::nullopt;
    items.push_back(item.cast<const Tensor&>());
  }
  return Value(std::move(items));
}

Scalar to_scalar(py::handle obj) {
  if (PyBool_Check(obj.ptr())) return Scalar(obj.cast<bool>());
  if (PyLong_Check(obj.ptr())) return Scalar(obj.cast<int64_t>());
  if (PyFloat_Check(obj.ptr())) return Scalar(obj.cast<double>());
  return Scalar(obj.cast<std::complex<double>>());
}

}  // namespace

bool is_tensor(py::handle obj) {
  static PyTypeObject* tensor_type = reinterpret_cast<PyTypeObject*>(py::type::of<Tensor>().ptr());
  return PyObject_TypeCheck(obj.ptr(), tensor_type);
}

Device to_device(py::handle obj) {
  if (py::isinstance<Device>(obj)) return obj.cast<Device>();
  if (PyUnicode_Check(obj.ptr())) return Device::parse(obj.cast<std::string>());
  throw py::type_error("expected a backplane.device or a device string, not " +
                       python_type_name(obj));
}

std::optional<Value> to_value(py::handle obj, const Type& type) {
  if (obj.is_none()) {
    if (type.optional || type.kind == TypeKind::kGenerator) return Value();
    return std::nullopt;
  }
  if (type.is_list) {
    switch (type.kind) {
      case TypeKind::kInt:
        return list_of<int64_t>(obj, type);
      case TypeKind::kFloat:
        return list_of<double>(obj, type);
      case TypeKind::kBool:
        return list_of<bool>(obj, type);
      case TypeKind::kTensor:
        return tensor_list(obj, type);
      default:
        return std::nullopt;
    }
  }
  switch (type.kind) {
    case TypeKind::kTensor:
      if (!is_tensor(obj)) return std::nullopt;
      return Value(obj.cast<const Tensor&>());
    case TypeKind::kInt:
      if (!is_int(obj)) return std::nullopt;
      return Value(obj.cast<int64_t>());
    case TypeKind::kFloat:
      if (!is_int(obj) && !PyFloat_Check(obj.ptr())) return std::nullopt;
      return Value(obj.cast<double>());
    case TypeKind::kBool:
      if (!PyBool_Check(obj.ptr())) return std::nullopt;
      return Value(obj.cast<bool>());
    case TypeKind::kScalar:
      if (!is_number(obj)) return std::nullopt;
      return Value(to_scalar(obj));
    case TypeKind::kStr:
      if (!PyUnicode_Check(obj.ptr())) return std::nullopt;
      return Value(obj.cast<std::string>());
    case TypeKind::kScalarType:
      if (!py::isinstance<PyDtype>(obj)) return std::nullopt;
      return Value(obj.cast<PyDtype>().type);
    case TypeKind::kDevice:
      if (!py::isinstance<Device>(obj) && !PyUnicode_Check(obj.ptr())) return std::nullopt;
      return Value(to_device(obj));
    case TypeKind::kMemoryFormat:
      if (!py::isinstance<PyMemoryFormat>(obj)) return std::nullopt;
      return Value(obj.cast<PyMemoryFormat>().format);
    case TypeKind::kLayout:
    case TypeKind::kGenerator:
      return std::nullopt;  // only None, handled above
  }
  return std::nullopt;
}

py::object to_python(Value&& value) {
  return std::visit(
      [](auto&& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return py::none();
        } else if constexpr (std::is_same_v<T, Tensor>) {
          return py::cast(std::move(x));
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
          py::list out;
          for (Tensor& t : x) out.append(py::cast(std::move(t)));
          return std::move(out);
        } else if constexpr (std::is_same_v<T, std::vector<std::optional<Tensor>>>) {
          py::list out;
          for (auto& t : x) out.append(t ? py::cast(std::move(*t)) : py::none());
          return std::move(out);
        } else if constexpr (std::is_same_v<T, ScalarType>) {
          return py::cast(PyDtype{x});
        } else if constexpr (std::is_same_v<T, MemoryFormat>) {
          return py::cast(PyMemoryFormat{x});
        } else if constexpr (std::is_same_v<T, complex<double>>) {
          return py::cast(std::complex<double>(x.real(), x.imag()));
        } else if constexpr (std::is_same_v<T, Scalar>) {
          if (x.is_boolean()) return py::cast(x.template to<bool>());
          if (x.is_integral(false)) return py::cast(x.template to<int64_t>());
          if (x.is_floating_point()) return py::cast(x.template to<double>());
          const complex<double> c = x.template to<complex<double>>();
          return py::cast(std::complex<double>(c.real(), c.imag()));
        } else {
          return py::cast(std::move(x));
        }
      },
      std::move(const_cast<ValuePayload&>(value.payload())));
}

std::string python_type_name(py::handle obj) {
  if (is_tensor(obj)) return "Tensor";
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

std::string schema_type_name(const Type& type) {
  std::string base;
  switch (type.kind) {
    case TypeKind::kTensor:
      base = "Tensor";
      break;
    case TypeKind::kInt:
      base = "int";
      break;
    case TypeKind::kFloat:
      base = "float";
      break;
    case TypeKind::kBool:
      base = "bool";
      break;
    case TypeKind::kStr:
      base = "str";
      break;
    case TypeKind::kScalar:
      base = "Number";
      break;
    case TypeKind::kScalarType:
      base = "dtype";
      break;
    case TypeKind::kDevice:
      base = "Device";
      break;
    case TypeKind::kLayout:
      base = "layout";
      break;
    case TypeKind::kMemoryFormat:
      base = "memory_format";
      break;
    case TypeKind::kGenerator:
      base = "Generator";
      break;
  }
  if (type.is_list) {
    base = type.kind == TypeKind::kTensor ? "tuple of Tensors" : "tuple of " + base + "s";
  }
  return base;
}

}  // namespace bp::python
