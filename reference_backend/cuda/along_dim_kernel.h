// Kernels of the ops along one dim (jit/along_dim.cuh): which template runs for a declared op
// (along_dim_ops.h) and dtype, its source, and the launch planned over an output and an input
// of the same sizes.
//
//   AlongDimKernel k{find_along_dim_op("cumsum.out"), Dtype::kFloat32};
//   k.entry_name();          // "cumsum_out__float32"
//   AlongDimLaunch launch = plan_along_dim(k, geometry, /*dim=*/1);
//
// The input is always of the output's dtype (callers convert it first, as the CPU backend does).
// Scans run the declared ops struct over the output's dtype (its accumulator is the CPU's);
// normalisations compute in compute_dtype (float32 for float16 / bfloat16).
//
// Errors: BeyondKernelLimits beyond the kernel's limits (more than jit::kMaxDims dims besides
// `dim`, offsets past 32 bits): callers fall back to the CPU.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_KERNEL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference_backend/cuda/along_dim_ops.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

struct AlongDimKernel {
  const AlongDimOp* op;
  Dtype dtype;  // the output's (and the converted input's) dtype

  std::string entry_name() const;
  std::string source() const;  // the entry point
};

// Every kernel the plugin can produce: each op in each dtype it declares.
std::vector<AlongDimKernel> all_along_dim_kernels();

// An output and an input of the same sizes (strides in elements), and for scans of values and
// indices the int64 indices output.
struct LineGeometry {
  std::vector<int64_t> sizes;
  std::vector<int64_t> out_strides, in_strides;
  void* out = nullptr;
  const void* in = nullptr;
  std::vector<int64_t> indices_strides;
  void* indices = nullptr;
};

struct AlongDimLaunch {
  AlongDimKernel kernel;
  jit::LineArgs args{};
  unsigned grid_x = 0;  // 0: nothing to launch
};

// Plans `kernel` along `dim` (wrapped: in [0, ndim), or 0 for a 0-dim tensor).
AlongDimLaunch plan_along_dim(const AlongDimKernel& kernel, const LineGeometry& geometry,
                              int64_t dim);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_KERNEL_H_
