// Tensors to and from numpy arrays and DLPack capsules, sharing memory.
//
//   Tensor t = from_numpy(np.arange(6).reshape(2, 3));   // same memory, same strides
//   py::array a = to_numpy(t_obj);                        // a view of t's memory; keeps t alive
//   py::capsule c = to_dlpack(t);                         // "dltensor", for np.from_dlpack
//   Tensor u = from_dlpack(obj);                           // obj.__dlpack__() or a capsule
//
// numpy: every dtype but bfloat16 (numpy has none), any strides that are whole elements; a
// negative stride raises ValueError (as in PyTorch). The tensor or array shares the other's
// memory and holds a reference to it. DLPack (version 0.6 capsules, the header from Debian's
// libdlpack-dev): CPU memory both ways, plugin devices as kDLExtDev out; Meta tensors have no
// memory and raise. A consumed capsule is renamed "used_dltensor", as the protocol says.
//
// Thread safety: call with the GIL held; the deleters take the GIL themselves.
#ifndef BACKPLANE_PYTHON_CC_INTEROP_H_
#define BACKPLANE_PYTHON_CC_INTEROP_H_

#include "pybind11/numpy.h"
#include "pybind11/pybind11.h"
#include "sdk/core/tensor.h"

namespace bp::python {

namespace py = pybind11;

Tensor from_numpy(const py::array& array);
// `tensor` must hold a backplane.Tensor; the array's base is that object.
py::array to_numpy(const py::object& tensor);

py::capsule to_dlpack(const Tensor& tensor);
// The (device type, device id) pair of DLPack.
py::tuple dlpack_device(const Tensor& tensor);
// From an object with __dlpack__ or from a "dltensor" capsule.
Tensor from_dlpack(const py::object& obj);

}  // namespace bp::python

#endif  // BACKPLANE_PYTHON_CC_INTEROP_H_
