#include "python/cc/interop.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dlpack/dlpack.h"
#include "sdk/core/intrusive_ptr.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"

namespace bp::python {
namespace {

// numpy's dtype character codes, in ScalarType order; bfloat16 has none.
const char* numpy_format(ScalarType t) {
  switch (t) {
    case ScalarType::kBool:
      return "bool";
    case ScalarType::kUInt8:
      return "uint8";
    case ScalarType::kInt8:
      return "int8";
    case ScalarType::kInt16:
      return "int16";
    case ScalarType::kInt32:
      return "int32";
    case ScalarType::kInt64:
      return "int64";
    case ScalarType::kFloat16:
      return "float16";
    case ScalarType::kBFloat16:
      return nullptr;
    case ScalarType::kFloat32:
      return "float32";
    case ScalarType::kFloat64:
      return "float64";
    case ScalarType::kComplex64:
      return "complex64";
    case ScalarType::kComplex128:
      return "complex128";
  }
  return nullptr;
}

// PyTorch's names in its messages ("Got unsupported ScalarType BFloat16").
std::optional<ScalarType> from_numpy_dtype(const py::dtype& dtype) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    const char* name = numpy_format(t);
    if (name != nullptr && dtype.is(py::dtype(name))) return t;
  }
  return std::nullopt;
}

// Releases a Python reference from whatever thread frees the storage.
void release_python_object(void* object) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject*>(object));
  PyGILState_Release(state);
}

// The bytes a strided view spans from its first element (0 for an empty tensor).
size_t extent_bytes(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                    size_t itemsize) {
  int64_t last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return 0;
    last += (sizes[d] - 1) * strides[d];
  }
  return static_cast<size_t>(last + 1) * itemsize;
}

Tensor wrap_memory(void* data, void* context, DeleterFn deleter, Device device, ScalarType dtype,
                   std::vector<int64_t> sizes, std::vector<int64_t> strides) {
  const size_t nbytes = extent_bytes(sizes, strides, element_size(dtype));
  Storage storage = Storage::wrap(DataPtr(data, context, deleter, device), nbytes);
  return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), dtype, sizes, strides, 0));
}

// What a DLManagedTensor handed out owns: the tensor and its shape and strides arrays.
struct DLPackExport {
  Tensor tensor;
  std::vector<int64_t> shape, strides;
  DLManagedTensor managed{};
};

void delete_export(DLManagedTensor* managed) {
  delete static_cast<DLPackExport*>(managed->manager_ctx);
}

void capsule_destructor(PyObject* capsule) {
  // Only a capsule nobody consumed still owns its tensor.
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed != nullptr && managed->deleter != nullptr) managed->deleter(managed);
}

void delete_imported(void* context) {
  auto* managed = static_cast<DLManagedTensor*>(context);
  if (managed->deleter == nullptr) return;
  if (!Py_IsInitialized()) {
    managed->deleter(managed);
    return;
  }
  PyGILState_STATE state = PyGILState_Ensure();
  managed->deleter(managed);
  PyGILState_Release(state);
}

}  // namespace

Tensor from_numpy(const py::array& array) {
  const std::optional<ScalarType> dtype = from_numpy_dtype(array.dtype());
  if (!dtype) {
    throw py::type_error("can't convert np.ndarray of type " + std::string(py::str(array.dtype())) +
                         ". The only supported types are: float64, float32, float16, "
                         "complex64, complex128, int64, int32, int16, int8, uint8, and bool.");
  }
  const size_t itemsize = element_size(*dtype);
  std::vector<int64_t> sizes(array.shape(), array.shape() + array.ndim());
  std::vector<int64_t> strides;
  for (py::ssize_t d = 0; d < array.ndim(); ++d) {
    const py::ssize_t s = array.strides()[d];
    if (s < 0) {
      throw py::value_error(
          "At least one stride in the given numpy array is negative, and tensors with negative "
          "strides are not currently supported. (You can probably work around this by making "
          "a copy of your array  with array.copy().) ");
    }
    if (s % static_cast<py::ssize_t>(itemsize) != 0) {
      throw py::value_error(
          "given numpy array strides not a multiple of the element byte size. Copy the numpy "
          "array to reallocate the memory.");
    }
    strides.push_back(s / static_cast<py::ssize_t>(itemsize));
  }
  PyObject* owner = array.ptr();
  Py_INCREF(owner);
  return wrap_memory(const_cast<void*>(array.data()), owner, release_python_object,
                     Device(DeviceType::kCPU), *dtype, std::move(sizes), std::move(strides));
}

py::array to_numpy(const py::object& tensor_obj) {
  const Tensor& t = tensor_obj.cast<const Tensor&>();
  if (!t.device().is_cpu()) {
    std::ostringstream device;
    device << t.device();
    throw py::type_error("can't convert " + device.str() +
                         " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                         "host memory first.");
  }
  const char* format = numpy_format(t.dtype());
  if (format == nullptr) {
    throw py::type_error("Got unsupported ScalarType BFloat16");
  }
  std::vector<py::ssize_t> shape(t.sizes().begin(), t.sizes().end());
  std::vector<py::ssize_t> strides;
  for (int64_t s : t.strides()) strides.push_back(s * static_cast<py::ssize_t>(t.itemsize()));
  return py::array(py::dtype(format), shape, strides, t.data_ptr(), tensor_obj);
}

py::tuple dlpack_device(const Tensor& t) {
  const int type = dlpack_device_type(t.device().type);
  if (type < 0) throw py::buffer_error("Cannot pack tensors on meta");
  return py::make_tuple(type, t.device().index < 0 ? 0 : t.device().index);
}

py::capsule to_dlpack(const Tensor& t) {
  const int device_type = dlpack_device_type(t.device().type);
  if (device_type < 0) throw py::buffer_error("Cannot pack tensors on meta");
  auto* e = new DLPackExport{
      t, {t.sizes().begin(), t.sizes().end()}, {t.strides().begin(), t.strides().end()}, {}};
  const ScalarTypeInfo& info = scalar_type_info(t.dtype());
  DLTensor& dl = e->managed.dl_tensor;
  dl.data = t.data_ptr();
  dl.device =
      DLDevice{static_cast<DLDeviceType>(device_type), t.device().index < 0 ? 0 : t.device().index};
  dl.ndim = static_cast<int>(t.dim());
  dl.dtype = DLDataType{static_cast<uint8_t>(info.dlpack_code), info.dlpack_bits, 1};
  dl.shape = e->shape.data();
  dl.strides = e->strides.data();
  dl.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_export;
  return py::capsule(&e->managed, "dltensor", capsule_destructor);
}

Tensor from_dlpack(const py::object& obj) {
  py::object capsule = obj;
  if (py::hasattr(obj, "__dlpack__")) capsule = obj.attr("__dlpack__")();
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor")) {
    throw py::type_error(
        "from_dlpack: expected an object with __dlpack__ or an unused 'dltensor' capsule");
  }
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  const DLTensor& dl = managed->dl_tensor;
  if (dl.device.device_type != kDLCPU) {
    throw py::buffer_error(
        "from_dlpack: only CPU memory (kDLCPU) can be imported, got device "
        "type " +
        std::to_string(dl.device.device_type));
  }
  const std::optional<ScalarType> dtype =
      scalar_type_from_dlpack(static_cast<DLPackTypeCode>(dl.dtype.code), dl.dtype.bits);
  if (!dtype || dl.dtype.lanes != 1) {
    throw py::type_error("from_dlpack: unsupported DLPack dtype (code " +
                         std::to_string(dl.dtype.code) + ", bits " + std::to_string(dl.dtype.bits) +
                         ", lanes " + std::to_string(dl.dtype.lanes) + ")");
  }
  std::vector<int64_t> sizes(dl.shape, dl.shape + dl.ndim);
  std::vector<int64_t> strides(sizes.size());
  if (dl.strides != nullptr) {
    strides.assign(dl.strides, dl.strides + dl.ndim);
  } else {
    int64_t s = 1;
    for (int d = dl.ndim - 1; d >= 0; --d) {
      strides[d] = s;
      s *= sizes[d] > 0 ? sizes[d] : 1;
    }
  }
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  Tensor t = wrap_memory(data, managed, delete_imported, Device(DeviceType::kCPU), *dtype,
                         std::move(sizes), std::move(strides));
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  return t;
}

}  // namespace bp::python
