// Device helpers of fused-group kernels (fused_group_kernel.h generates the kernels themselves):
// the block-wide combine of a row's accumulators. Guarded: a program may hold several fused
// kernels, each source() carrying these helpers.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_CUH_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_CUH_

#include "reference_backend/cuda/jit/fused_args.h"

namespace bp {
namespace jit {

// A node's value, opaque to the device compiler: NVRTC contracts a multiply and an add into one
// fused multiply-add, which across two nodes (x * w, then + b) would round once where eager,
// running each op as its own kernel, rounds twice. Eager's kernels contract within an op only;
// so do fused kernels with this between nodes. (Host code, e.g. the emulation, does not contract:
// ISO C++ mode, no FMA in the baseline x86-64 ISA.)
template <typename T>
BP_INLINE T fused_value(T value) {
#if defined(__CUDACC_RTC__)
  if constexpr (portable::is_same_v<T, float>) {
    asm("" : "+f"(value));
  } else if constexpr (portable::is_same_v<T, double>) {
    asm("" : "+d"(value));
  }
#endif
  return value;
}

// Combines the accumulators of a block's kFusedThreads threads with `ops.combine` (a shared-memory
// tree) and returns the result to every thread. Every thread of the block must call it.
template <typename Ops, typename A>
BP_INLINE A fused_block_combine(const Ops& ops, A acc) {
  // Raw bytes: a __shared__ array cannot have a constructor (as in reduce.cuh).
  struct alignas(A) Slot {
    unsigned char bytes[sizeof(A)];
  };
  __shared__ Slot slots[kFusedThreads];
  A* const shared = reinterpret_cast<A*>(slots);
  const uint32_t tid = threadIdx.x;
  shared[tid] = acc;
  __syncthreads();
  for (uint32_t stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) shared[tid] = ops.combine(shared[tid], shared[tid + stride]);
    __syncthreads();
  }
  const A result = shared[0];
  // The next combine (another node, or the next row) reuses the slots.
  __syncthreads();
  return result;
}

}  // namespace jit
}  // namespace bp

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_JIT_FUSED_CUH_
