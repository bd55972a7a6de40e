// The batched matrix product kernel (jit/gemm.cuh) of mm, bmm, addmm and baddbmm: which dtypes it
// runs, its source, and the launch planned over [batches, n, k] @ [batches, k, p] views.
//
//   GemmKernel k{Dtype::kFloat32};
//   k.entry_name();                        // "gemm__float32"
//   GemmLaunch launch = plan_gemm(k, geometry);
//
// It computes in compute type of gemm_compute_dtype (the CPU backend's: float for bfloat16,
// int64 for integral dtypes, wrapping); float16 and bool are not products the CPU computes
// (mm's dtypes), and run on the CPU, whose kernel raises the error.
//
// Errors: BeyondKernelLimits beyond the kernel's limits (byte offsets past 32 bits, more than
// 65535 x kGemmTile rows, negative strides): callers fall back to the CPU.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_GEMM_KERNEL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_GEMM_KERNEL_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

// Whether the kernel computes products of `dtype`.
bool gemm_supports(Dtype dtype);
// The type the products and sums run in: int64 for integral dtypes, float32 for bfloat16, the
// dtype itself otherwise.
Dtype gemm_compute_dtype(Dtype dtype);

struct GemmKernel {
  Dtype dtype;  // every operand's

  std::string entry_name() const;
  std::string source() const;  // the entry point
};

// Every kernel the plugin can produce: one per supported dtype.
std::vector<GemmKernel> all_gemm_kernels();

// One operand viewed as [batches, rows, cols]: its data and strides in elements (any, 0 for
// broadcast dims).
struct GemmOperand {
  const void* data = nullptr;
  std::array<int64_t, 3> strides{};
};

// out = beta * c + alpha * (a @ b); alpha and beta in the compute type. `add` false: c is not
// read. a @ b is computed even at alpha 0 (0 * NaN is NaN, as PyTorch's CPU); `alpha_zero` keeps
// such products from cuBLAS, which need not read a and b then.
struct GemmGeometry {
  int64_t batches = 0, n = 0, p = 0, k = 0;
  GemmOperand out, a, b, c;
  bool add = false, alpha_zero = false;
  jit::Value alpha{}, beta{};
};

struct GemmLaunch {
  GemmKernel kernel;
  jit::GemmArgs args{};
  unsigned grid_x = 0, grid_y = 0, grid_z = 0;  // grid_x 0: nothing to launch
};

GemmLaunch plan_gemm(const GemmKernel& kernel, const GemmGeometry& geometry);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_GEMM_KERNEL_H_
