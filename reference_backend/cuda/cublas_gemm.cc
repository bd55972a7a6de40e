#include "reference_backend/cuda/cublas_gemm.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

// An operand as cuBLAS reads it: op(X) is (rows x cols), its element (i, j) at i * si + j * sj.
struct Layout {
  cublasOperation_t op;
  int64_t ld;
};

// X stored column-major (CUBLAS_OP_N) or its transpose stored so (CUBLAS_OP_T); nullopt when
// neither dim has a unit stride or the other's is below what cuBLAS accepts. A size-1 dim's
// stride is never used, so any value fits there.
std::optional<Layout> column_major(int64_t rows, int64_t cols, int64_t si, int64_t sj) {
  if ((si == 1 || rows == 1) && (cols == 1 || sj >= std::max<int64_t>(rows, 1))) {
    return Layout{CUBLAS_OP_N, cols == 1 ? std::max<int64_t>(rows, 1) : sj};
  }
  if ((sj == 1 || cols == 1) && (rows == 1 || si >= std::max<int64_t>(cols, 1))) {
    return Layout{CUBLAS_OP_T, rows == 1 ? std::max<int64_t>(cols, 1) : si};
  }
  return std::nullopt;
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

// C' (rows x cols) = A' (rows x k) B' (k x cols), each as (data, row stride, column stride).
struct Orientation {
  int64_t rows, cols;
  const void *a, *b;
  int64_t a_si, a_sj, b_si, b_sj, c_si, c_sj;
  int64_t a_batch, b_batch;
};

}  // namespace

std::optional<CublasGemmPlan> plan_cublas_gemm(Dtype dtype, const GemmGeometry& g) {
  CublasGemmPlan plan;
  switch (dtype) {
    case Dtype::kFloat32:
      plan.type = CUDA_R_32F;
      plan.compute = CUBLAS_COMPUTE_32F;
      break;
    case Dtype::kFloat64:
      plan.type = CUDA_R_64F;
      plan.compute = CUBLAS_COMPUTE_64F;
      break;
    case Dtype::kBFloat16:
      plan.type = CUDA_R_16BF;
      plan.compute = CUBLAS_COMPUTE_32F;
      break;
    default:
      return std::nullopt;
  }
  if (g.alpha_zero || g.k == 0 || g.batches == 0 || g.n == 0 || g.p == 0) return std::nullopt;
  for (const GemmOperand* o : {&g.out, &g.a, &g.b}) {
    for (int64_t s : o->strides) {
      if (s < 0) return std::nullopt;
    }
  }
  if (g.batches > 1 && g.out.strides[0] == 0) return std::nullopt;  // batches writing over others
  const auto &o = g.out.strides, &a = g.a.strides, &b = g.b.strides;
  // out row-major: out^T = b^T a^T; out column-major: out = a b.
  const Orientation orientations[] = {
      {g.p, g.n, g.b.data, g.a.data, b[2], b[1], a[2], a[1], o[2], o[1], b[0], a[0]},
      {g.n, g.p, g.a.data, g.b.data, a[1], a[2], b[1], b[2], o[1], o[2], a[0], b[0]},
  };
  for (const Orientation& t : orientations) {
    const std::optional<Layout> c = column_major(t.rows, t.cols, t.c_si, t.c_sj);
    if (!c || c->op != CUBLAS_OP_N) continue;
    const std::optional<Layout> la = column_major(t.rows, g.k, t.a_si, t.a_sj);
    const std::optional<Layout> lb = column_major(g.k, t.cols, t.b_si, t.b_sj);
    if (!la || !lb) continue;
    if (!fits_int(t.rows) || !fits_int(t.cols) || !fits_int(g.k) || !fits_int(g.batches) ||
        !fits_int(la->ld) || !fits_int(lb->ld) || !fits_int(c->ld)) {
      return std::nullopt;
    }
    plan.trans_a = la->op;
    plan.trans_b = lb->op;
    plan.m = static_cast<int>(t.rows);
    plan.n = static_cast<int>(t.cols);
    plan.k = static_cast<int>(g.k);
    plan.a = t.a;
    plan.b = t.b;
    plan.c = const_cast<void*>(g.out.data);
    plan.lda = static_cast<int>(la->ld);
    plan.ldb = static_cast<int>(lb->ld);
    plan.ldc = static_cast<int>(c->ld);
    plan.stride_a = t.a_batch;
    plan.stride_b = t.b_batch;
    plan.stride_c = g.out.strides[0];
    plan.batches = static_cast<int>(g.batches);
    plan.alpha = g.alpha;
    if (g.add) plan.beta = g.beta;  // else zero bytes: 0.0f or 0.0 (out unread)
    return plan;
  }
  return std::nullopt;
}

std::unique_ptr<CublasHandle> CublasHandle::create(const Cublas& cublas, const CudaDevice& device,
                                                   std::string* why_not) {
  std::unique_ptr<CublasHandle> h(new CublasHandle(cublas, device));
  device.activate();  // cuBLAS binds its handle to the current (primary) context
  cublasStatus_t status = cublas.cublasCreate_v2(&h->handle_);
  if (status != CUBLAS_STATUS_SUCCESS) {
    h->handle_ = nullptr;
    *why_not = "cublasCreate failed: " + cublas.describe(status);
    return nullptr;
  }
  // No TF32 or emulated float32 (the CPU's float sums), and sums of bfloat16 products kept in
  // float until the one rounding (as the CPU).
  status = cublas.cublasSetMathMode(
      h->handle_, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH |
                                            CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
  if (status != CUBLAS_STATUS_SUCCESS) {
    *why_not = "cublasSetMathMode failed: " + cublas.describe(status);
    return nullptr;  // the destructor destroys the handle
  }
  return h;
}

CublasHandle::~CublasHandle() {
  if (handle_ == nullptr) return;
  device_.activate();
  cublas_.cublasDestroy_v2(handle_);
}

bool CublasHandle::run(const CublasGemmPlan& p) {
  std::lock_guard<std::mutex> lock(mutex_);
  device_.activate();
  cublasStatus_t status = cublas_.cublasSetStream_v2(handle_, device_.current_stream());
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw Error(BP_ERROR_INTERNAL, "cublasSetStream failed: " + cublas_.describe(status));
  }
  status = cublas_.cublasGemmStridedBatchedEx(
      handle_, p.trans_a, p.trans_b, p.m, p.n, p.k, p.alpha.bytes, p.a, p.type, p.lda, p.stride_a,
      p.b, p.type, p.ldb, p.stride_b, p.beta.bytes, p.c, p.type, p.ldc, p.stride_c, p.batches,
      p.compute, CUBLAS_GEMM_DEFAULT);
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_ARCH_MISMATCH) return false;
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw Error(BP_ERROR_INTERNAL,
                "cublasGemmStridedBatchedEx failed: " + cublas_.describe(status));
  }
  return true;
}

}  // namespace bp::cuda
