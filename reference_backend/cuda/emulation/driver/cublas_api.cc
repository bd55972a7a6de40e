// The emulated cuBLAS: the few cuBLAS functions the plugin binds (../../cublas.h), exported by
// the emulated driver's library so that $BP_CUDA_CUBLAS can name it. Its handles and streams are
// the emulated driver's: cublasGemmStridedBatchedEx checks every operand's range in device
// memory, then queues the product on the handle's stream (in order with the plugin's other work
// there), computed with a double-precision accumulator per element and counted in
// bp_emulated_cuda_counters::cublas_gemms. As cuBLAS: column-major, C = alpha op(A) op(B) + beta
// C, C unread when beta is 0; float32, float64 and bfloat16 (with CUBLAS_COMPUTE_32F or _64F as
// the plugin passes them); anything else is CUBLAS_STATUS_NOT_SUPPORTED.
#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "reference_backend/cuda/emulation/driver/device_memory.h"
#include "reference_backend/cuda/emulation/driver/state.h"
#include "reference_backend/cuda/emulation/driver/streams.h"

namespace bp::emulated_cuda {
namespace {

struct Handle {
  CUstream stream = nullptr;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
};

std::mutex g_handles_mutex;
std::set<Handle*> g_handles;

Handle* handle_of(cublasHandle_t h) {
  auto* handle = reinterpret_cast<Handle*>(h);
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  return g_handles.count(handle) != 0 ? handle : nullptr;
}

cublasStatus_t error(cublasStatus_t status, const std::string& why) {
  std::fprintf(stderr, "emulated cuBLAS: %s\n", why.c_str());
  return status;
}

size_t item_size(cudaDataType type) {
  switch (type) {
    case CUDA_R_32F:
      return 4;
    case CUDA_R_64F:
      return 8;
    case CUDA_R_16BF:
      return 2;
    default:
      return 0;
  }
}

double load(const char* p, cudaDataType type) {
  switch (type) {
    case CUDA_R_32F: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case CUDA_R_64F: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    default: {  // bfloat16: the high half of a float
      uint16_t h;
      std::memcpy(&h, p, 2);
      const uint32_t bits = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
  }
}

void store(char* p, cudaDataType type, double v) {
  switch (type) {
    case CUDA_R_32F: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case CUDA_R_64F:
      std::memcpy(p, &v, 8);
      return;
    default: {  // bfloat16: float rounded to nearest even (NaN kept quiet)
      const float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      uint16_t h;
      if ((bits & 0x7fffffffu) > 0x7f800000u) {
        h = static_cast<uint16_t>((bits >> 16) | 0x40);
      } else {
        h = static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
      }
      std::memcpy(p, &h, 2);
      return;
    }
  }
}

// The bytes a column-major (rows x cols) operand with leading dimension ld spans over `batches`.
CUresult check_operand(const void* p, int64_t rows, int64_t cols, int64_t ld, long long stride,
                       int batches, size_t itemsize, const char* what) {
  if (rows == 0 || cols == 0 || batches == 0) return CUDA_SUCCESS;
  const int64_t last = (rows - 1) + (cols - 1) * ld + (batches - 1) * static_cast<int64_t>(stride);
  return device_memory().check_range(reinterpret_cast<CUdeviceptr>(p),
                                     static_cast<size_t>(last + 1) * itemsize, what);
}

}  // namespace
}  // namespace bp::emulated_cuda

using namespace bp::emulated_cuda;  // NOLINT: the C API below is the emulated cuBLAS's surface

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* out) {
  if (out == nullptr) return error(CUBLAS_STATUS_INVALID_VALUE, "cublasCreate: null handle");
  auto* h = new Handle();
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  g_handles.insert(h);
  *out = reinterpret_cast<cublasHandle_t>(h);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t h) {
  Handle* handle = handle_of(h);
  if (handle == nullptr) return error(CUBLAS_STATUS_NOT_INITIALIZED, "cublasDestroy: no handle");
  {
    std::lock_guard<std::mutex> lock(g_handles_mutex);
    g_handles.erase(handle);
  }
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream) {
  Handle* handle = handle_of(h);
  if (handle == nullptr) return error(CUBLAS_STATUS_NOT_INITIALIZED, "cublasSetStream: no handle");
  CUresult result = CUDA_SUCCESS;
  if (stream_of_handle(stream, "cublasSetStream", &result) == nullptr) {
    return error(CUBLAS_STATUS_INVALID_VALUE, "cublasSetStream: not a stream of this driver");
  }
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode) {
  Handle* handle = handle_of(h);
  if (handle == nullptr)
    return error(CUBLAS_STATUS_NOT_INITIALIZED, "cublasSetMathMode: no handle");
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}

const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "the GPU program failed to execute";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the requested functionality is not supported";
    default:
      return "unknown error";
  }
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void* alpha, const void* A, cudaDataType Atype,
                                          int lda, long long int strideA, const void* B,
                                          cudaDataType Btype, int ldb, long long int strideB,
                                          const void* beta, void* C, cudaDataType Ctype, int ldc,
                                          long long int strideC, int batches,
                                          cublasComputeType_t compute, cublasGemmAlgo_t) {
  Handle* handle = handle_of(h);
  if (handle == nullptr) return error(CUBLAS_STATUS_NOT_INITIALIZED, "cublasGemm: no handle");
  if (should_fail(Fault::kCublas)) {
    return error(CUBLAS_STATUS_NOT_SUPPORTED, "injected fault: cublasGemmStridedBatchedEx");
  }
  const size_t itemsize = item_size(Ctype);
  const cublasComputeType_t expected =
      Ctype == CUDA_R_64F ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  if (itemsize == 0 || Atype != Ctype || Btype != Ctype || compute != expected) {
    return error(CUBLAS_STATUS_NOT_SUPPORTED, "cublasGemmStridedBatchedEx: types not emulated");
  }
  // cuBLAS's checks: only N and T, sizes non-negative, leading dimensions at least the rows.
  const bool ta = transa == CUBLAS_OP_T, tb = transb == CUBLAS_OP_T;
  if ((!ta && transa != CUBLAS_OP_N) || (!tb && transb != CUBLAS_OP_N) || m < 0 || n < 0 || k < 0 ||
      batches < 0 || lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) ||
      ldc < std::max(1, m) || alpha == nullptr || beta == nullptr) {
    return error(CUBLAS_STATUS_INVALID_VALUE, "cublasGemmStridedBatchedEx: invalid arguments");
  }
  // Host pointer mode: alpha and beta are read now, in the compute type.
  double alpha_v, beta_v;
  if (compute == CUBLAS_COMPUTE_64F) {
    std::memcpy(&alpha_v, alpha, 8);
    std::memcpy(&beta_v, beta, 8);
  } else {
    float a, b;
    std::memcpy(&a, alpha, 4);
    std::memcpy(&b, beta, 4);
    alpha_v = a;
    beta_v = b;
  }
  if (check_operand(A, ta ? k : m, ta ? m : k, lda, strideA, batches, itemsize,
                    "cublasGemmStridedBatchedEx A") != CUDA_SUCCESS ||
      check_operand(B, tb ? n : k, tb ? k : n, ldb, strideB, batches, itemsize,
                    "cublasGemmStridedBatchedEx B") != CUDA_SUCCESS ||
      check_operand(C, m, n, ldc, strideC, batches, itemsize, "cublasGemmStridedBatchedEx C") !=
          CUDA_SUCCESS) {
    return error(CUBLAS_STATUS_EXECUTION_FAILED,
                 "cublasGemmStridedBatchedEx: an operand outside device memory");
  }
  CUresult result = CUDA_SUCCESS;
  Stream* stream = stream_of_handle(handle->stream, "cublasGemmStridedBatchedEx", &result);
  if (stream == nullptr) {
    return error(CUBLAS_STATUS_EXECUTION_FAILED, "cublasGemmStridedBatchedEx: no stream");
  }
  shared_counters().cublas_gemms.fetch_add(1);
  const char* a = static_cast<const char*>(A);
  const char* b = static_cast<const char*>(B);
  char* c = static_cast<char*>(C);
  const cudaDataType type = Ctype;
  stream->enqueue([=] {
    for (int batch = 0; batch < batches; ++batch) {
      const char* ab = a + batch * strideA * static_cast<long long>(itemsize);
      const char* bb = b + batch * strideB * static_cast<long long>(itemsize);
      char* cb = c + batch * strideC * static_cast<long long>(itemsize);
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
          double sum = 0;
          for (int l = 0; alpha_v != 0 && l < k; ++l) {  // alpha 0: A and B unread
            const int64_t ai = ta ? l + static_cast<int64_t>(i) * lda : i + int64_t{l} * lda;
            const int64_t bi = tb ? j + static_cast<int64_t>(l) * ldb : l + int64_t{j} * ldb;
            sum += load(ab + ai * itemsize, type) * load(bb + bi * itemsize, type);
          }
          char* out = cb + (i + int64_t{j} * ldc) * itemsize;
          double v = alpha_v * sum;
          if (beta_v != 0) v += beta_v * load(out, type);  // beta 0: C unread
          store(out, type, v);
        }
      }
    }
  });
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
