// The one kernel of a fused group (fused_group.h): its CUDA source, generated from the group's
// structure around the same scalar math the per-op kernels run, and its launch.
//
//   std::optional<FusedGroup> g = parse_fused_group(json, &why_not);
//   FusedKernel k = fused_kernel_of(*g);
//   k.entry_name();          // "fused_3f0c9a1b27d4e855": a hash of the source
//   program.add_text(k.source(), k.entry_name());
//   FusedLaunch l = plan_fused(*g, buffer_addresses);
//   device.launch(f, {l.blocks}, {jit::kFusedThreads}, &l.args);
//
// The source depends only on the group's structure: its nodes' math, dtypes, which of them are
// reductions or outer (per-row) values, and which loads each reads, in order. Sizes, strides and
// argument values are kernel parameters (jit::FusedArgs), so one kernel (and one cache entry,
// keyed by the entry name) serves every group of that structure.
//
// What it computes is what eager computes op by op: each pointwise node reads its inputs as its
// common dtype S, converts them to compute_dtype(S) (float for float16), applies its functor, and
// rounds the result to its own dtype as the per-op kernels store it (jit/elementwise.cuh's
// to_storage); a reduction converts its input to the dtype it reduces in and folds it with its
// bp::math ops struct (reference_backend/math/reduction.h), storing the projection in its dtype.
// Each node's value passes through jit/fused.cuh's fused_value, which keeps NVRTC from contracting
// a multiply of one node and an add of the next into one FMA (eager rounds between them).
//
//   pointwise groups  one thread per element, grid-stride;
//   row groups        one block (jit::kFusedThreads threads) per row, rows grid-stride: the row's
//                     nodes in call order, each reduction a loop over the row's elements (with
//                     the inner nodes it reads computed in the loop) and a block combine; the
//                     root stored per row (outer root) or in a last loop over the row (inner).
//                     These use barriers: cooperative under the emulator.
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_KERNEL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_KERNEL_H_

#include <span>
#include <string>

#include "reference_backend/cuda/fused_group.h"
#include "reference_backend/cuda/jit/fused_args.h"

namespace bp::cuda {

struct FusedKernel {
  std::string name;          // entry_name()
  std::string body;          // the entry point's definition
  bool cooperative = false;  // uses barriers (row groups)

  const std::string& entry_name() const { return name; }
  // The device helpers (jit/fused.cuh, once per program) and the entry point.
  std::string source() const;
};

FusedKernel fused_kernel_of(const FusedGroup& group);

struct FusedLaunch {
  jit::FusedArgs args{};
  unsigned blocks = 0;  // 0: nothing to run (no rows)
};

// The launch of `group` over its buffers' first elements (`buffers[i]`: device address of
// buffer i, the result last).
FusedLaunch plan_fused(const FusedGroup& group, std::span<char* const> buffers);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_KERNEL_H_
