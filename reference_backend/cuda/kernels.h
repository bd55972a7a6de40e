// The plugin's boxed kernels (bp_kernel_fn) and their registration with the host:
//   - every pointwise op with `math:` (pointwise_ops.h), jitted (pointwise_kernels.cc);
//   - fill_.Scalar (pointwise_kernels.cc) and copy_ between any dtypes, layouts and devices
//     (copy_kernel.cc);
//   - the range factories arange.start_out, linspace.out and logspace.out (factory_kernels.cc);
//   - the reductions (reduction_kernels.cc), for the ops that are declared;
//   - every scan and normalisation (along_dim_ops.h), jitted (along_dim_kernels.cc);
//   - mm.out, bmm.out, addmm.out and baddbmm.out, one batched product (gemm_kernels.cc): through
//     cuBLAS for float32, float64 and bfloat16 when the plugin loaded it and the layouts allow
//     (cublas_gemm.h), else the jitted kernel;
//   - index_select.out, gather.out, scatter.{src,value,reduce,value_reduce}_out and
//     scatter_add.out, jitted gathers and per-line scatters after a device-side range check
//     (indexing_kernels.cc).
// Each kernel runs the op on the CPU through the host's fallback when a plan exceeds the
// kernels' limits. Functional and in-place variants come from the host's Common key.
//
// Thread safety: kernels may run concurrently.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_H_

#include <string>
#include <vector>

#include "backplane/api.h"

namespace bp::cuda {

struct KernelRegistration {
  std::string op;  // "add.out"
  bp_kernel_fn kernel;
  void* user_data;
};

std::vector<KernelRegistration> pointwise_registrations();
std::vector<KernelRegistration> copy_registrations();
std::vector<KernelRegistration> factory_registrations();
std::vector<KernelRegistration> reduction_registrations();
std::vector<KernelRegistration> along_dim_registrations();
std::vector<KernelRegistration> gemm_registrations();
std::vector<KernelRegistration> indexing_registrations();
// All of the above: what bp_plugin_init registers (then the host's CPU fallback for the rest).
// Needs no driver: conformance/testing:cuda_serving_test reads which ops it covers.
std::vector<KernelRegistration> plugin_registrations();

// Runs a kernel body; BeyondKernelLimits sends the call to the host's CPU fallback.
template <typename Body>
bp_error* run_or_fall_back(const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                           size_t nresults, Body&& body);

}  // namespace bp::cuda

#include "reference_backend/cuda/kernels_inl.h"  // IWYU pragma: keep

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_H_
