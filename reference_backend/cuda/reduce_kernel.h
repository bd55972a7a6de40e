// Reduction kernels: which reduction (jit/reduce.cuh) runs for an op and dtype, its source, and
// the launch planned over a reduction plan (outputs with stride 0 along the reduced dimensions).
//
//   ReduceKernel k{ReduceOp::kSum, Dtype::kFloat32, Dtype::kFloat32};
//   k.accumulator();         // Dtype::kFloat64: float32 sums accumulate in double, as on the CPU
//   ReduceLaunch launch = plan_reduce(k, plan, {});
//   // launch.chunks > 1: two launches (kPartial, then kFinalize) with a workspace of
//   // launch.partial_bytes.
//
// The input is always of dtype `dtype` (callers convert it first, as PyTorch's make_reduction
// does with self.to(dtype)).
//
// Errors: BeyondKernelLimits beyond the kernel's limits (too many dimensions, 64-bit indexing:
// callers fall back to the CPU).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCE_KERNEL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCE_KERNEL_H_

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/iter_plan.h"
#include "reference_backend/cuda/jit/kernel_args.h"
#include "reference_backend/cuda/kernel_source.h"

namespace bp::cuda {

enum class ReduceOp {
  kSum,
  kMean,  // values[0]: the count, in compute_dtype(out)
  kProd,
  kAmax,
  kAmin,
  kMaxDim,  // outputs: values, indices (int64)
  kMinDim,
  kArgmax,  // output: indices (int64)
  kArgmin,
  kVar,  // values[0]: the correction, in the accumulator's real dtype
  kStd,
  kNormZero,  // norms: values[0] = p, in the accumulator's real dtype
  kNormOne,
  kNormTwo,
  kNormInf,
  kNormNegInf,
  kNormP,
  kAll,
  kAny,
  kLogSumExp,
};
const char* reduce_op_name(ReduceOp op);
inline constexpr int kNumReduceOps = static_cast<int>(ReduceOp::kLogSumExp) + 1;

struct ReduceKernel {
  ReduceOp op;
  Dtype dtype;  // the input's dtype, which the reduction runs in
  Dtype out;    // the (first) output's dtype

  // The dtype values accumulate in: the CPU's accumulation type (PyTorch's acc_type for the CPU:
  // int64 for integers, float32 for float16 / bfloat16, float64 for float32, complex128 for
  // complex64) for sums, products, means, variances, norms and logsumexp; the compute type
  // for extrema; bool for all / any. Variances and norms accumulate in its real dtype.
  Dtype accumulator() const;
  int num_outputs() const;
  std::string entry_name() const;
  std::string source() const;  // the entry point
};

// Whether the kernel exists: the dtypes an op reduces and the outputs it writes (the ops'
// dtype rules as PyTorch has them).
bool is_supported(const ReduceKernel& kernel);
// Every reduction kernel the plugin can produce.
std::vector<ReduceKernel> all_reduce_kernels();

struct ReduceLaunch {
  ReduceKernel kernel;
  jit::ReduceArgs args{};  // mode kSinglePass, or kPartial (then run again as kFinalize)
  unsigned grid_x = 0;     // 0: nothing to launch
  unsigned block_x = 1, block_y = 1;
  unsigned chunks = 1;       // grid_y of the first launch
  size_t partial_bytes = 0;  // workspace for args.partials when chunks > 1
};

// Plans `kernel` over `plan` (outputs first, then the input), with the op's values.
ReduceLaunch plan_reduce(const ReduceKernel& kernel, const IterPlan& plan,
                         std::span<const jit::Value> values);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCE_KERNEL_H_
