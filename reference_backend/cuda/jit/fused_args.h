// The kernel parameter block of fused-group kernels (fused_group_kernel.h): one definition for
// the host, which fills it, and the device, whose program embeds this header after
// jit/kernel_args.h (the program head).
//
//   FusedArgs a{};
//   a.rows = 4096;  a.row_size = 1;          // a pointwise group: one row per element
//   a.out = out;    a.loads[0] = x;  ...     // byte addresses
//   a.outer.ndim = ...;                      // byte strides per dimension and operand
//
// A group iterates `rows` rows of `row_size` elements. Pointwise groups: a row is an element
// (row_size 1, `inner` has no dimensions). Groups with reductions: a row is one position of the
// kept (outer) dimensions, its elements the positions of the reduced (inner, innermost)
// dimensions. Operand 0 of `outer` and `inner` is the output, operand 1 + i the group's load i.
// Dimension 0 is the fastest. Every byte offset fits 32 bits (the host declines larger groups).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_ARGS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_ARGS_H_

#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp {
namespace jit {

// Loads from memory per group (kMaxOperands less the output), functor arguments per group, and
// threads per block of every fused kernel (a power of two: the block combine halves it).
constexpr int kFusedMaxLoads = kMaxOperands - 1;
constexpr int kFusedMaxValues = 16;
constexpr int kFusedThreads = 128;

struct FusedArgs {
  uint32_t rows;
  uint32_t row_size;
  char* out;
  const char* loads[kFusedMaxLoads];
  // Functor arguments of every node, in node order, each in the type its computation reads.
  Value values[kFusedMaxValues];
  Offsets outer;  // over the kept dimensions (pointwise groups: all of them)
  Offsets inner;  // over the reduced dimensions (pointwise groups: none)
};

}  // namespace jit
}  // namespace bp

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_ARGS_H_
