// cuBLAS, loaded with dlopen like the driver (never linked): a machine without it, or where
// cublasCreate fails, keeps the jitted matrix product (gemm_kernel.h).
//
//   std::string why;
//   std::unique_ptr<Cublas> cublas = Cublas::load(&why);  // nullptr: why says what is missing
//   cublas->cublasCreate_v2(&handle);
//
// The library is $BP_CUDA_CUBLAS when set (tests point it at the emulated cuBLAS or a missing
// file). Otherwise libcublas.so.13, then .so.12, then libcublas.so, but only when the driver is
// the system's (no $BP_CUDA_DRIVER): the toolkit's cuBLAS loads libcuda.so.1 itself, so over
// another driver (the emulated one) it would see other devices and memory than the plugin.
// cublas_v2.h gives the types and the names (cublasCreate_v2...); only kCublasFunctions are bound.
//
// Thread safety: the function pointers are immutable after load.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_H_

#include <cublas_v2.h>

#include <memory>
#include <string>

namespace bp::cuda {

// X(name, return type, parameter types): every cuBLAS function the plugin uses. Spelled out
// rather than decltype'd: cublas_api.h overloads cublasGemmStridedBatchedEx in C++.
#define BP_CUBLAS_FUNCTIONS(X)                                                                    \
  X(cublasCreate_v2, cublasStatus_t, cublasHandle_t*)                                             \
  X(cublasDestroy_v2, cublasStatus_t, cublasHandle_t)                                             \
  X(cublasSetStream_v2, cublasStatus_t, cublasHandle_t, cudaStream_t)                             \
  X(cublasSetMathMode, cublasStatus_t, cublasHandle_t, cublasMath_t)                              \
  X(cublasGetStatusString, const char*, cublasStatus_t)                                           \
  X(cublasGemmStridedBatchedEx, cublasStatus_t, cublasHandle_t, cublasOperation_t,                \
    cublasOperation_t, int, int, int, const void*, const void*, cudaDataType, int, long long int, \
    const void*, cudaDataType, int, long long int, const void*, void*, cudaDataType, int,         \
    long long int, int, cublasComputeType_t, cublasGemmAlgo_t)

// The names of BP_CUBLAS_FUNCTIONS (for the test that resolves them in the toolkit's library).
extern const char* const kCublasFunctions[];
extern const int kNumCublasFunctions;

class Cublas {
 public:
  // cuBLAS, or nullptr with *why_not = "<reason>" (a missing library or function).
  static std::unique_ptr<Cublas> load(std::string* why_not);
  ~Cublas() = default;
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

#define BP_CUBLAS_MEMBER(name, result, ...) result (*name)(__VA_ARGS__) = nullptr;
  BP_CUBLAS_FUNCTIONS(BP_CUBLAS_MEMBER)
#undef BP_CUBLAS_MEMBER

  const std::string& path() const { return path_; }  // the library loaded
  // cuBLAS's text and the code: "the requested functionality is not supported (15)".
  std::string describe(cublasStatus_t status) const;

 private:
  Cublas() = default;
  std::string path_;
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_CUBLAS_H_
