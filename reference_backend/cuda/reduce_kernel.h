// Reduction kernels: the jitted kernel of a declared reduction (reduction_ops.h) for a reduced
// dtype and an output dtype, its source (jit/reduce.cuh instantiated with the reduction's
// bp::math ops struct), and the launch planned over a reduction plan (outputs with stride 0
// along the reduced dimensions).
//
//   ReduceKernel k{find_reduction_op("sum.IntList_out"), Dtype::kFloat32, Dtype::kFloat32};
//   k.entry_name();          // "SumOps_v__float32__float32"
//   ReduceLaunch launch = plan_reduce(k, plan, {});
//   // launch.chunks > 1: two launches (kPartial, then kFinalize) with a workspace of
//   // launch.partial_bytes.
//
// The input is always of dtype `dtype` (callers convert it first, as PyTorch's make_reduction
// does with self.to(dtype)). The ops struct's arguments are passed as values holding doubles
// (reduce_values).
//
// A plan that needs 64-bit indexing runs in 32-bit parts, as PyTorch's gpu_reduce_kernel runs
// iter.with_32bit_indexing(): plan_reduce_parts splits the kept dimensions first (parts with
// their own outputs), then the reduced ones (parts whose accumulators a final launch combines
// with the ops struct's combine), and reduce_steps lists the launches of either kind of plan.
//
//   for (const ReduceGroup& g : plan_reduce_parts(k, plan, values))
//     for (const ReduceStep& s : reduce_steps(g, workspace_of(g.partial_bytes))) launch(s);
//
// Errors: BeyondKernelLimits beyond the kernel's limits (too many dimensions; for plan_reduce
// 64-bit indexing; for plan_reduce_parts negative strides, or an index reduction over several
// reduced dimensions that would have to be split: callers fall back to the CPU).
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
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {

struct ReduceKernel {
  const ReductionOp* op;  // the declared reduction
  Dtype dtype;            // the dtype the input is reduced in (the input is converted to it)
  Dtype out;              // the value outputs' dtype (int64 when every output is an index)

  int num_outputs() const { return op->num_outputs; }
  // The ops struct and what the outputs receive ("ArgMaxOps_vi": values and indices): the kernels
  // of one family differ in dtypes only.
  std::string family() const;
  // One name per kernel: its family and dtypes ("ArgMaxOps_vi__float32__float32"); declarations
  // sharing an ops struct share its kernels.
  std::string entry_name() const;
  std::string source() const;  // the entry point
};

// The family of `op`'s kernels: its ops struct and what its outputs receive ("ArgMaxOps_vi").
std::string family_of(const ReductionOp& op);

// The values of the ops struct's arguments, in order, as plan_reduce takes them.
std::vector<jit::Value> reduce_values(std::span<const double> args);

struct ReduceLaunch {
  ReduceKernel kernel;
  jit::ReduceArgs args{};  // mode kSinglePass, or kPartial (then run again as kFinalize)
  unsigned grid_x = 0;     // 0: nothing to launch
  unsigned block_x = 1, block_y = 1;
  unsigned chunks = 1;       // grid_y of the first launch
  size_t partial_bytes = 0;  // workspace for args.partials when chunks > 1
};

// Plans `kernel` over `plan` (outputs first, then the input), with the ops struct's arguments
// (reduce_values).
ReduceLaunch plan_reduce(const ReduceKernel& kernel, const IterPlan& plan,
                         std::span<const jit::Value> values);

// Launches writing one set of outputs: a single launch as plan_reduce plans it, or the parts of a
// split reduced range, each writing its chunks' accumulators (mode kPartial) at partials_offset
// bytes into a workspace of partial_bytes, and `finalize`, which combines all of them.
struct ReducePart {
  ReduceLaunch launch;
  size_t partials_offset = 0;
};
struct ReduceGroup {
  std::vector<ReducePart> parts;
  ReduceLaunch finalize;     // grid_x 0: none
  size_t partial_bytes = 0;  // workspace the group needs (0: none)
};

// The launches of one 32-bit launch (plan_reduce's): the launch, then a kFinalize pass when it is
// split in chunks.
ReduceGroup group_of(const ReduceLaunch& launch);

// Plans `kernel` over `plan` whatever its size: one group (group_of(plan_reduce(...))) when the
// plan fits 32-bit indexing, else a group per part of the kept dimensions, each made of parts of
// the reduced range when that is too large. Dimensions are halved one at a time, the one with the
// largest byte extent first (then the longest), until every part fits.
std::vector<ReduceGroup> plan_reduce_parts(const ReduceKernel& kernel, const IterPlan& plan,
                                           std::span<const jit::Value> values);

// One kernel launch of a group.
struct ReduceStep {
  unsigned grid_x = 0, grid_y = 1, block_x = 1, block_y = 1;
  jit::ReduceArgs args{};
};
// The launches of `group` in order. `workspace`: device memory of group.partial_bytes (may be
// null when that is 0).
std::vector<ReduceStep> reduce_steps(const ReduceGroup& group, char* workspace);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCE_KERNEL_H_
