// The input of a kernel that runs in another dtype than its input's, as PyTorch's kernels write
// `self.to(dtype)`: a new tensor converted by the jitted copy.
//
//   TensorRef in = converted_copy(self, Dtype::kFloat64);
//
// Errors: as the ABI calls and launches involved (thrown as bp::cuda::Error).
//
// Thread safety: as the kernels (any thread).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_CONVERTED_COPY_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_CONVERTED_COPY_H_

#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

// A new contiguous tensor on t's device with t's sizes, holding t's values as `dtype`.
TensorRef converted_copy(bp_tensor* t, Dtype dtype);
// dst <- src broadcast to dst's shape and converted to its dtype, by the same jitted copy
// (bit-exact within a dtype: NaNs and -0 kept), on dst's device. src must not overlap dst.
void broadcast_copy(bp_tensor* dst, bp_tensor* src);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_CONVERTED_COPY_H_
