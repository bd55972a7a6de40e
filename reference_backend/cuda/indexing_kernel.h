// The indexing kernels (jit/indexing.cuh) of index_select, gather, scatter (src, value, reduce)
// and scatter_add: which kernels exist, their sources, and the launches planned over views.
//
//   IndexKernel k = gather_kernel(Dtype::kFloat32, Dtype::kInt64);   // "gather__4__int64"
//   IndexLaunch check = plan_index_check(index_check_kernel(Dtype::kInt64), index, bound, flag);
//   IndexLaunch launch = plan_gather(k, geometry);
//
// Copies (gather, plain scatter) move element bytes: one kernel per element size serves every
// dtype. scatter_add and scatter.reduce compute in compute_dtype (float for float16 / bfloat16),
// as the CPU's opmath_t.
//
// Errors: BeyondKernelLimits beyond the kernels' limits (more than 2^31 elements or lines, byte
// offsets past 32 bits, negative strides, more than jit::kMaxDims dims): callers fall back to the
// CPU.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_INDEXING_KERNEL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_INDEXING_KERNEL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

enum class IndexFamily { kCheck, kGather, kScatter, kScatterAdd, kScatterMultiply };

struct IndexKernel {
  IndexFamily family;
  int element_size = 0;               // kGather, kScatter: bytes moved per element
  Dtype dtype = Dtype::kFloat32;      // kScatterAdd, kScatterMultiply: the elements' dtype
  Dtype index_dtype = Dtype::kInt64;  // kCheck, kGather: int32 or int64

  std::string entry_name() const;
  std::string source() const;  // the entry point
};

IndexKernel index_check_kernel(Dtype index_dtype);
IndexKernel gather_kernel(Dtype dtype, Dtype index_dtype);
IndexKernel scatter_kernel(Dtype dtype);
IndexKernel scatter_reduce_kernel(Dtype dtype, bool multiply);

// Every kernel the plugin can produce.
std::vector<IndexKernel> all_indexing_kernels();

// A view's data and strides in elements.
struct IndexOperand {
  const void* data = nullptr;
  std::vector<int64_t> strides;
};

// Three operands over the same `sizes` (at least 1-D): gather's out, self and index (index_select's
// index with stride 0 but along dim), or scatter's out, src (data null: `value`) and index.
// `dim` is wrapped; `bound` is the indexed operand's size along dim (self's for gather, out's
// for scatter); the indexed operand's own stride along dim is its step per index value.
struct IndexGeometry {
  std::vector<int64_t> sizes;
  int64_t dim = 0;
  int64_t bound = 0;
  IndexOperand out, src, index;
  jit::Value value{};
};

struct IndexLaunch {
  IndexKernel kernel;
  jit::IndexArgs args{};
  unsigned grid_x = 0;  // 0: nothing to launch
};

// The range check of `index` (any strides) against [0, bound): writes two int64 at `result`
// (device memory), the first offending row-major position (-1: none) and its value.
IndexLaunch plan_index_check(const IndexKernel& kernel, const IndexOperand& index,
                             const std::vector<int64_t>& sizes, int64_t bound, void* result);
IndexLaunch plan_gather(const IndexKernel& kernel, const IndexGeometry& geometry);
IndexLaunch plan_scatter(const IndexKernel& kernel, const IndexGeometry& geometry);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_INDEXING_KERNEL_H_
