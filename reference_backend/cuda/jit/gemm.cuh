// The batched matrix product template (mm, bmm, addmm, baddbmm), computed as the CPU backend
// computes it (reference_backend/cpu/matmul.cc). The plugin generates one entry point per dtype:
//
//   extern "C" __global__ void __launch_bounds__(bp::jit::kGemmTile * bp::jit::kGemmTile)
//   gemm__bfloat16(const bp::jit::GemmArgs args) {
//     bp::jit::gemm_tiles<bp::BFloat16, float>(args);
//   }
//
// S is the elements' dtype, M the compute type: float for float32 and bfloat16 (bfloat16 summed
// in float and rounded once, as the CPU does), double, complex, and int64 for the integral dtypes
// (wrapping; the low bits of a wrapped int64 sum are those of the CPU's sum in the dtype itself).
//
// Layout (GemmArgs, kernel_args.h): a kGemmTile x kGemmTile block computes the tile of out at
// (blockIdx.y, blockIdx.x), thread (y, x) its element (row y, column x). Along k, each thread
// stages one element of a's and b's tiles in shared memory (zero beyond the matrices' edges),
// and the block multiplies the two tiles. Every thread runs every barrier.
namespace bp {
namespace jit {

template <typename S, typename M>
BP_INLINE void gemm_tiles(const GemmArgs& args) {
  // Raw bytes: a __shared__ array cannot have a constructor, and bp::complex has one.
  struct alignas(M) Slot {
    unsigned char bytes[sizeof(M)];
  };
  __shared__ Slot a_slots[kGemmTile * kGemmTile];
  __shared__ Slot b_slots[kGemmTile * kGemmTile];
  M* const a_tile = reinterpret_cast<M*>(a_slots);
  M* const b_tile = reinterpret_cast<M*>(b_slots);
  const uint32_t tx = threadIdx.x, ty = threadIdx.y;
  const uint32_t row = blockIdx.y * kGemmTile + ty, col = blockIdx.x * kGemmTile + tx;
  const bool inside = row < args.n && col < args.p;
  const M alpha = value_as<M>(args.alpha);
  const M beta = value_as<M>(args.beta);
  for (uint32_t batch = blockIdx.z; batch < args.batches; batch += gridDim.z) {
    const char* const a = args.a + batch * args.a_strides[0];
    const char* const b = args.b + batch * args.b_strides[0];
    M acc = M(0);
    // The whole block takes the same number of steps (args.k is uniform): barriers match.
    for (uint32_t k0 = 0; k0 < args.k; k0 += kGemmTile) {
      const uint32_t ak = k0 + tx, bk = k0 + ty;
      a_tile[ty * kGemmTile + tx] = row < args.n && ak < args.k
                                        ? element_cast<M>(*reinterpret_cast<const S*>(
                                              a + row * args.a_strides[1] + ak * args.a_strides[2]))
                                        : M(0);
      b_tile[ty * kGemmTile + tx] = bk < args.k && col < args.p
                                        ? element_cast<M>(*reinterpret_cast<const S*>(
                                              b + bk * args.b_strides[1] + col * args.b_strides[2]))
                                        : M(0);
      __syncthreads();
      // In k's order, as the CPU's loop; the last tile stops at k (no padding terms added).
      const uint32_t steps = args.k - k0 < kGemmTile ? args.k - k0 : kGemmTile;
      for (uint32_t i = 0; i < steps; ++i) {
        acc = acc + a_tile[ty * kGemmTile + i] * b_tile[i * kGemmTile + tx];
      }
      __syncthreads();
    }
    if (inside) {
      // As the CPU: alpha * (a @ b), then beta * c added (c unread when beta is 0).
      M result = alpha * acc;
      if (args.add) {
        const S c = *reinterpret_cast<const S*>(args.c + batch * args.c_strides[0] +
                                                row * args.c_strides[1] + col * args.c_strides[2]);
        result = beta * element_cast<M>(c) + result;
      }
      *reinterpret_cast<S*>(args.out + batch * args.out_strides[0] + row * args.out_strides[1] +
                            col * args.out_strides[2]) = element_cast<S>(result);
    }
  }
}

}  // namespace jit
}  // namespace bp
