// backplane._C: the extension module behind `import backplane` (python/backplane/__init__.py).
// The op functions and Tensor methods come from the generated rows (op_bindings.h); this file
// binds the Tensor type itself, dtypes, devices, memory formats, numpy and DLPack exchange,
// plugin loading and the conformance CLI.
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "conformance/cli/cli.h"
#include "pybind11/complex.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/cc/errors.h"
#include "python/cc/interop.h"
#include "python/cc/op_bindings.h"
#include "python/cc/values.h"
#include "sdk/core/tensor.h"
#include "sdk/ops/op_table.h"

namespace py = pybind11;

namespace bp::python {
namespace {

std::string device_repr(const Device& d) {
  std::ostringstream type;
  type << d.type;
  std::string text = "device(type='" + type.str() + "'";
  if (d.has_index()) text += ", index=" + std::to_string(d.index);
  return text + ")";
}

void bind_types(py::module_& m) {
  py::class_<PyDtype>(m, "dtype")
      .def_property_readonly("itemsize", [](const PyDtype& d) { return element_size(d.type); })
      .def_property_readonly("is_floating_point",
                             [](const PyDtype& d) { return is_floating_point(d.type); })
      .def_property_readonly("is_complex", [](const PyDtype& d) { return is_complex(d.type); })
      .def_property_readonly("name",
                             [](const PyDtype& d) { return std::string(scalar_type_name(d.type)); })
      .def("__eq__",
           [](const PyDtype& a, py::object b) {
             return py::isinstance<PyDtype>(b) && a.type == b.cast<PyDtype>().type;
           })
      .def("__hash__", [](const PyDtype& d) { return static_cast<int>(d.type); })
      .def("__repr__",
           [](const PyDtype& d) { return "backplane." + std::string(scalar_type_name(d.type)); });
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    m.attr(std::string(scalar_type_name(t)).c_str()) = PyDtype{t};
  }

  py::class_<Device>(m, "device")
      .def(py::init([](const std::string& text) { return Device::parse(text); }))
      .def_property_readonly("type",
                             [](const Device& d) {
                               std::ostringstream out;
                               out << d.type;
                               return out.str();
                             })
      .def_property_readonly("index",
                             [](const Device& d) -> py::object {
                               if (!d.has_index()) return py::none();
                               return py::int_(d.index);
                             })
      .def("__eq__",
           [](const Device& a, py::object b) {
             if (py::isinstance<Device>(b)) return a == b.cast<Device>();
             if (PyUnicode_Check(b.ptr())) return a == Device::parse(b.cast<std::string>());
             return false;
           })
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.type) * 1000 + d.index; })
      .def("__str__",
           [](const Device& d) {
             std::ostringstream out;
             out << d;
             return out.str();
           })
      .def("__repr__", &device_repr);

  py::class_<PyMemoryFormat>(m, "memory_format")
      .def("__eq__",
           [](const PyMemoryFormat& a, py::object b) {
             return py::isinstance<PyMemoryFormat>(b) &&
                    a.format == b.cast<PyMemoryFormat>().format;
           })
      .def("__repr__", [](const PyMemoryFormat& f) {
        switch (f.format) {
          case MemoryFormat::kContiguous:
            return "backplane.contiguous_format";
          case MemoryFormat::kChannelsLast:
            return "backplane.channels_last";
          case MemoryFormat::kChannelsLast3d:
            return "backplane.channels_last_3d";
          case MemoryFormat::kPreserve:
            return "backplane.preserve_format";
        }
        return "backplane.memory_format";
      });
  m.attr("contiguous_format") = PyMemoryFormat{MemoryFormat::kContiguous};
  m.attr("channels_last") = PyMemoryFormat{MemoryFormat::kChannelsLast};
  m.attr("channels_last_3d") = PyMemoryFormat{MemoryFormat::kChannelsLast3d};
  m.attr("preserve_format") = PyMemoryFormat{MemoryFormat::kPreserve};
}

py::class_<Tensor> bind_tensor(py::module_& m) {
  py::class_<Tensor> cls(m, "Tensor");
  cls.def_property_readonly(
         "shape",
         [](const Tensor& t) {
           return py::tuple(py::cast(std::vector<int64_t>(t.sizes().begin(), t.sizes().end())));
         })
      .def(
          "size",
          [](const Tensor& t, std::optional<int64_t> dim) -> py::object {
            if (dim) return py::int_(t.size(*dim));
            return py::tuple(py::cast(std::vector<int64_t>(t.sizes().begin(), t.sizes().end())));
          },
          py::arg("dim") = py::none())
      .def(
          "stride",
          [](const Tensor& t, std::optional<int64_t> dim) -> py::object {
            if (dim) return py::int_(t.stride(*dim));
            return py::tuple(
                py::cast(std::vector<int64_t>(t.strides().begin(), t.strides().end())));
          },
          py::arg("dim") = py::none())
      .def_property_readonly("dtype", [](const Tensor& t) { return PyDtype{t.dtype()}; })
      .def_property_readonly("device", [](const Tensor& t) { return t.device(); })
      .def_property_readonly("ndim", [](const Tensor& t) { return t.dim(); })
      .def_property_readonly("is_meta", [](const Tensor& t) { return t.device().is_meta(); })
      .def("dim", [](const Tensor& t) { return t.dim(); })
      .def("numel", [](const Tensor& t) { return t.numel(); })
      .def("element_size", [](const Tensor& t) { return t.itemsize(); })
      .def("storage_offset", [](const Tensor& t) { return t.storage_offset(); })
      .def("is_contiguous", [](const Tensor& t) { return t.is_contiguous(); })
      .def("data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); })
      .def("_is_alias_of", [](const Tensor& a, const Tensor& b) { return a.is_alias_of(b); })
      .def("_version", [](const Tensor& t) { return t.version(); })
      .def("numpy", [](py::object self) { return to_numpy(self); })
      .def(
          "__dlpack__",
          [](const Tensor& t, py::object stream) {
            // CPU and synchronous plugin copies: nothing to order against `stream`.
            (void)stream;
            return to_dlpack(t);
          },
          py::arg("stream") = py::none())
      .def("__dlpack_device__", &dlpack_device);
  return cls;
}

// Loads a C-ABI plugin into this process; returns the names of the backends it registered.
// Loading the same file again returns the same names (the C ABI refuses a second load: its
// backend names are taken).
py::list load_plugin(const std::string& path) {
  static std::map<std::string, py::list>* loaded = new std::map<std::string, py::list>();
  std::error_code ignored;
  const std::string key = std::filesystem::weakly_canonical(path, ignored).string();
  if (auto it = loaded->find(key); it != loaded->end()) return it->second;
  const bp_api* api = bp_get_api();
  auto backend_names = [api]() {
    std::vector<std::string> names;
    bp_error* err = api->backend_list(
        [](void* user, const bp_backend_info* b) {
          static_cast<std::vector<std::string>*>(user)->push_back(b->name);
        },
        &names);
    if (err) api->error_destroy(err);
    return names;
  };
  const std::vector<std::string> before = backend_names();
  bp_plugin* plugin = nullptr;
  if (bp_error* err = api->plugin_load(path.c_str(), &plugin)) {
    const auto code = static_cast<ErrorCode>(api->error_code(err));
    const std::string message = api->error_message(err);
    api->error_destroy(err);
    throw_python_error(code, message);
  }
  py::list added;
  for (const std::string& name : backend_names()) {
    if (std::find(before.begin(), before.end(), name) == before.end()) added.append(name);
  }
  (*loaded)[key] = added;
  return added;
}

int run_conformance(const std::vector<std::string>& args) {
  // The CLI writes to std::cout / std::cerr; flush Python's buffers first so output interleaves.
  py::module_::import("sys").attr("stdout").attr("flush")();
  py::module_::import("sys").attr("stderr").attr("flush")();
  const int status = conformance::run_cli(
      args, {conformance::cpu_backend_factory(), conformance::cuda_backend_factory()}, std::cout,
      std::cerr);
  std::cout.flush();
  std::cerr.flush();
  return status;
}

py::list op_table_rows() {
  py::list rows;
  for (const OpInfo& op : op_table()) {
    py::dict row;
    row["name"] = std::string(op.name);
    row["schema"] = std::string(op.schema);
    row["family"] = std::string(op.family);
    row["kind"] = std::string(op_kind_name(op.kind));
    row["structured_group"] = std::string(op.structured_group);
    row["function"] = op.function;
    row["method"] = op.method;
    row["dtypes"] = op.dtypes;
    row["tags"] = std::string(op.tags);
    row["source"] = std::string(op.source);
    rows.append(std::move(row));
  }
  return rows;
}

}  // namespace
}  // namespace bp::python

PYBIND11_MODULE(_C, m) {
  using namespace bp::python;
  m.doc() = "Backplane's op library: tensors, the declared ops, plugins, conformance.";
  register_error_translator();
  bind_types(m);
  py::class_<bp::Tensor> tensor_class = bind_tensor(m);
  bind_ops(m, tensor_class);
  m.def("from_numpy", &from_numpy, py::arg("array"),
        "A tensor sharing the array's memory (dtype, shape and strides kept).");
  m.def("from_dlpack", &from_dlpack, py::arg("obj"),
        "A tensor sharing the memory of an object with __dlpack__, or of a 'dltensor' capsule.");
  m.def("load_plugin", &load_plugin, py::arg("path"),
        "Loads a C-ABI plugin; returns the names of the backends it registered.");
  m.def("run_conformance", &run_conformance, py::arg("args"),
        "backplane-conformance's command line in this process; returns its exit status.");
  m.def("op_table", &op_table_rows, "Every declared op (sdk/ops/op_table.h) as a dict.");
}
