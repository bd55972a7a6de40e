// The batched matrix product through cuBLAS (cublasGemmStridedBatchedEx), when the dtype and the
// operands' layouts allow it; the jitted kernel (gemm_kernel.h) otherwise.
//
//   std::optional<CublasGemmPlan> plan = plan_cublas_gemm(Dtype::kFloat32, geometry);
//   if (plan) handle.run(*plan);              // else: run_gemm(device, plan_gemm(...))
//
// cuBLAS is column-major and its C cannot be transposed: a row-major out (unit stride along its
// columns) is computed as out^T = b^T a^T, a column-major one as out = a b. Each of a and b then
// needs a unit stride along one of its two matrix dims (the other its leading dimension);
// batch strides may be anything non-negative (0 broadcasts). Numerics as the CPU's
// (reference_backend/cpu/matmul.cc): float32 in float (CUBLAS_COMPUTE_32F, default math: no
// TF32), float64 in double, bfloat16 in and out with float compute, no reduced-precision
// reductions. float16 is not among mm's dtypes; integral dtypes and complex stay jitted.
//
// cuBLAS computes out = alpha * a @ b + beta * out: with an addend, the caller first copies it
// (broadcast, converted) into out unless out is the addend (addmm_). beta 0 leaves out unread
// (BLAS's rule, so NaNs there do not propagate).
//
// Thread safety: plan_cublas_gemm is pure; CublasHandle serialises its calls (cublasSetStream
// and the launch must pair up).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_GEMM_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_GEMM_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "reference_backend/cuda/cublas.h"
#include "reference_backend/cuda/device.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/gemm_kernel.h"

namespace bp::cuda {

// cublasGemmStridedBatchedEx's arguments (column-major names: C (m x n) = op(A) op(B)).
struct CublasGemmPlan {
  cublasOperation_t trans_a = CUBLAS_OP_N, trans_b = CUBLAS_OP_N;
  int m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  int lda = 0, ldb = 0, ldc = 0;
  long long stride_a = 0, stride_b = 0, stride_c = 0;
  int batches = 0;
  cudaDataType type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  jit::Value alpha{}, beta{};  // in the compute type (float or double), as cuBLAS reads them
};

// The plan for `g` (its addend, if any, already in g.out), or nullopt when cuBLAS cannot run it:
// a dtype it lacks, alpha 0 (the product must still be computed) or k 0, a layout without unit
// strides, negative or zero leading dimensions, sizes beyond int.
std::optional<CublasGemmPlan> plan_cublas_gemm(Dtype dtype, const GemmGeometry& g);

// A cuBLAS handle of one device, created in its primary context (which the CUDA runtime inside
// cuBLAS shares) with the default math mode and no reduced-precision reductions.
class CublasHandle {
 public:
  // nullptr with *why_not when cublasCreate or cublasSetMathMode fails.
  static std::unique_ptr<CublasHandle> create(const Cublas& cublas, const CudaDevice& device,
                                              std::string* why_not);
  ~CublasHandle();  // before the device's context is released
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;

  // Queues the product on the device's current stream; false when cuBLAS lacks this case on
  // this device (CUBLAS_STATUS_NOT_SUPPORTED, _ARCH_MISMATCH: nothing queued, the caller runs
  // the jitted kernel). Throws Error when cuBLAS fails otherwise.
  bool run(const CublasGemmPlan& plan);

 private:
  CublasHandle(const Cublas& cublas, const CudaDevice& device) : cublas_(cublas), device_(device) {}
  const Cublas& cublas_;
  const CudaDevice& device_;
  cublasHandle_t handle_ = nullptr;
  std::mutex mutex_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_GEMM_H_
