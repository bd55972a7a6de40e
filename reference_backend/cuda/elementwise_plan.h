// Plans an elementwise launch: which kernel (variant, vector width, by-value inputs) runs a
// computation over an iteration plan, and its arguments, as PyTorch's gpu_kernel /
// jitted_gpu_kernel choose:
//   - inputs that are CPU scalars are passed by value (converted on the host: operand dtype ->
//     S -> compute type, as the CPU backend converts);
//   - every other input of dtype S and the output of dtype `static_out`: static kernels, vectorised
//     when every operand is contiguous (vector width 4, 2 or 1: the widest that divides every
//     pointer's alignment), strided otherwise;
//   - any other dtype: the dynamic-cast kernel.
//
//   ElementwiseLaunch launch = plan_elementwise(add, Dtype::kFloat32, Dtype::kFloat32, plan,
//                                               {alpha_value});
//   launch.kernel.entry_name();   // "add_out__float32__float32__vec4__s0"
//   cuLaunchKernel(f, launch.blocks, ..., jit::kThreads, ..., launch.params(), ...);
//
// Errors: BeyondKernelLimits when the plan exceeds a kernel's limits (more than jit::kMaxDims
// dimensions or jit::kMaxOperands operands; callers fall back to the CPU); Error
// BP_ERROR_INTERNAL for a plan that does not fit 32-bit indexing (callers split it first) or a
// CPU scalar output.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ELEMENTWISE_PLAN_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ELEMENTWISE_PLAN_H_

#include <cstdint>
#include <span>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/iter_plan.h"
#include "reference_backend/cuda/jit/kernel_args.h"
#include "reference_backend/cuda/kernel_source.h"

namespace bp::cuda {

struct ElementwiseLaunch {
  ElementwiseKernel kernel;
  uint32_t blocks = 0;               // of jit::kThreads threads
  jit::ContiguousArgs contiguous{};  // kVectorized
  jit::StridedArgs strided{};        // kStrided, kDynamic

  // The kernel's parameter block (cuLaunchKernel's kernelParams[0]).
  const void* params() const;
};

// `arg_values`: the computation's arguments, already in its compute type (host_values.h).
// `static_out`: the output dtype static kernels are built for (the op's natural output dtype);
// an output of another dtype takes the dynamic kernel. Returns a launch with blocks == 0 for an
// empty plan.
ElementwiseLaunch plan_elementwise(const Computation& computation, Dtype dtype, Dtype static_out,
                                   const IterPlan& plan, std::span<const jit::Value> arg_values);

// The vector width (4, 2 or 1) whose alignment every address has, for elements of `itemsize`.
int vector_width(uintptr_t address, int itemsize);
// PyTorch's IntDivider for `divisor` (1 <= divisor <= INT32_MAX; 0, a size of an empty plan,
// gives a divider that is never used).
jit::FastDivider fast_divider(uint32_t divisor);
// Whether the plan's elements and byte offsets fit 32-bit indexing.
bool fits_32bit(const IterPlan& plan);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ELEMENTWISE_PLAN_H_
