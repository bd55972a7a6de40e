// A fused group as the CUDA plugin runs it: the host's group JSON (format
// "backplane.fused_group/1", sdk/fusion/group_json.h) read and checked against what one fused
// kernel (fused_group_kernel.h) can compute.
//
//   std::string why_not;
//   std::optional<FusedGroup> g = parse_fused_group(json_text, &why_not);
//   if (!g) return decline(why_not);   // the host then runs the group op by op
//
// What is taken (everything else is declined, which is always correct: the host splits the group
// into op calls, which the plugin's own kernels run):
//   - pointwise nodes whose op has a row in the pointwise table (pointwise_ops.h; the functional
//     op "mul.Tensor" runs the math of its out= row "mul.out"), real dtypes (no complex);
//   - reductions with a row in the reduction table that take no ops-struct arguments and have one
//     value output (sum, mean, amax, amin, prod, nansum, all, any, ...), over the innermost
//     dimensions of the group's iteration space;
//   - a group is either pointwise (every node iterates the root's ranges, reading other nodes'
//     values element for element) or a row group: every reduction iterates the same ranges R and
//     reduces the same innermost dims, every pointwise node iterates R ("inner": computed inside
//     the loops over a row) or the kept dims of R ("outer": one value per row, keepdim's size-1
//     dims allowed); inner values are read element for element, outer ones broadcast over a row;
//   - CPU scalars (0-dim CPU tensors: the JSON's {"scalar": ...} arguments) as pointwise inputs,
//     passed by value converted to the common dtype and then the compute type, as the per-op
//     kernels pass them;
//   - at most jit::kFusedMaxLoads loads of outside buffers and jit::kFusedMaxValues functor
//     arguments, byte offsets that fit 31 bits, and no negative strides.
//
// Thread safety: pure; a FusedGroup is a value.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/fused_args.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {

struct FusedBuffer {
  Dtype dtype;
  std::vector<int64_t> sizes, strides;  // elements
};

// An argument that reads memory or another node's value.
struct FusedInput {
  int load = -1;   // index into FusedGroup::loads, or -1
  int node = -1;   // the node whose value it reads, or -1
  int value = -1;  // a CPU scalar: index into FusedGroup::values (in the compute type), or -1
  Dtype dtype;     // what it reads: the buffer's, the node's or the scalar's dtype
};

// A load of an outside buffer, with its byte strides along the group's outer and inner dims.
struct FusedLoad {
  int buffer = -1;
  std::vector<int64_t> outer_strides, inner_strides;  // bytes; dims outermost first
};

enum class FusedSpace : uint8_t {
  kInner,  // iterates every element of the group (pointwise groups: every node)
  kOuter,  // one value per row (row groups: reductions and pointwise nodes after them)
};

struct FusedNode {
  std::string op;                          // "mul.Tensor"
  const PointwiseOp* pointwise = nullptr;  // its row (an alternative: the one that applies)
  const ReductionOp* reduction = nullptr;
  Computation computation;  // pointwise: the row's computation
  Dtype dtype;              // the result's dtype
  // Pointwise: the common dtype S inputs are read as (the computation runs in compute_dtype(S)).
  // Reduction: the dtype elements are reduced in.
  Dtype common;
  FusedSpace space = FusedSpace::kInner;
  std::vector<FusedInput> inputs;  // the functor's inputs in order (a reduction: one)
  int first_value = 0;             // its arguments are FusedGroup::values[first_value...]
  // Inner nodes: the node whose loop computes it (the reduction reading it, or the root); -1
  // for outer nodes.
  int owner = -1;
};

struct FusedGroup {
  std::vector<FusedBuffer> buffers;  // inputs, then the result (last)
  std::vector<FusedLoad> loads;
  std::vector<FusedNode> nodes;  // call order; the root last
  std::vector<jit::Value> values;
  // The iteration space: outer (kept) dims, then inner (reduced) dims; pointwise groups have no
  // inner dims. Sizes outermost first.
  std::vector<int64_t> outer_sizes, inner_sizes;
  // The output's byte strides along the outer and inner dims (inner: all 0 for a row group
  // whose root is a reduction or outer node).
  std::vector<int64_t> out_outer_strides, out_inner_strides;
  bool has_reductions = false;

  const FusedNode& root() const { return nodes.back(); }
  int64_t rows() const;
  int64_t row_size() const;
};

// The group `json` describes, or nullopt with the reason in *why_not when one fused kernel does not
// run it (see the file comment). Malformed JSON is declined too (the host's run then splits it).
std::optional<FusedGroup> parse_fused_group(std::string_view json, std::string* why_not);

// The out= row of functional op `op` ("sum.dim_IntList" -> "sum.IntList_out") in `rows`, given
// which of its `nargs` arguments are tensors (`is_tensor`): rows of the op's base name whose
// arguments are the functional ones followed by out and whose tensor inputs are exactly the
// tensor arguments. Exposed for tests.
const PointwiseOp* pointwise_row_of(std::string_view op, const std::vector<bool>& is_tensor);
const ReductionOp* reduction_row_of(std::string_view op, const std::vector<bool>& is_tensor);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_H_
