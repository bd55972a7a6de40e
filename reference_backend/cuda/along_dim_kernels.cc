// Kernels of the ops along one dim (scans, normalisations), registered for each out= op the
// codegen lists (along_dim_ops.h): the host's Common key has run the op's meta function (dim
// check, the output's shape and dtype), and the kernel
//   1. converts the input to the output's dtype if it differs (PyTorch's self.to(dtype)),
//   2. plans the jitted kernel over the output and the input along the dim and launches it.
// Dtypes the op does not declare and plans beyond the kernels' limits run on the CPU instead
// (where the CPU kernel reports the error).
#include <deque>

#include "reference_backend/cuda/along_dim_kernel.h"
#include "reference_backend/cuda/converted_copy.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

void run_along_dim_op(const AlongDimOp& op, const bp_value* args) {
  bp_tensor* out = args[op.out].u.tensor;
  const TensorMeta o = meta_of(out);
  const Dtype dtype = *dtype_from_abi(o.dtype);
  const AlongDimKernel kernel{&op, dtype};
  // Before the empty check: cumsum_ of an empty bool tensor is an error on the CPU as well.
  if (!op.supports(dtype)) {
    throw BeyondKernelLimits(std::string("no CUDA kernel for ") + op.name + " of " +
                             std::string(info(dtype).name));
  }
  if (o.numel == 0) return;
  bp_tensor* self = args[op.self].u.tensor;
  TensorRef converted;
  if (meta_of(self).dtype != o.dtype) {
    converted = converted_copy(self, dtype);
    self = converted.get();
  }
  const TensorMeta in = meta_of(self);
  const int64_t ndim = static_cast<int64_t>(o.sizes.size());
  int64_t dim = args[op.dim].u.i;  // in range: the meta function checked it
  if (dim < 0) dim += ndim;
  if (ndim == 0) dim = 0;
  LineGeometry geometry{o.sizes, o.strides, in.strides, o.data, in.data, {}, nullptr};
  if (op.indices >= 0) {
    const TensorMeta indices = meta_of(args[op.indices].u.tensor);
    geometry.indices_strides = indices.strides;
    geometry.indices = indices.data;
  }
  run_along_dim(device_at(o.device), plan_along_dim(kernel, geometry, dim));
}

bp_error* along_dim_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                           bp_value* results, size_t nresults) {
  const AlongDimOp& row = *static_cast<const AlongDimOp*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_along_dim_op(row, args);
    return_tensor(results, nresults, args[row.out].u.tensor);
    if (row.indices >= 0 && nresults > 1) return_tensor(results + 1, 1, args[row.indices].u.tensor);
  });
}

}  // namespace

std::vector<KernelRegistration> along_dim_registrations() {
  std::vector<KernelRegistration> out;
  for (const AlongDimOp& op : along_dim_ops()) {
    out.push_back({op.name, &along_dim_kernel, const_cast<AlongDimOp*>(&op)});
  }
  return out;
}

}  // namespace bp::cuda
