// Implementation of run_or_fall_back (kernels.h).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_INL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_INL_H_

#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {

template <typename Body>
bp_error* run_or_fall_back(const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                           size_t nresults, Body&& body) {
  try {
    body();
    return nullptr;
  } catch (const BeyondKernelLimits&) {
    return api()->cpu_fallback(nullptr, op, args, nargs, results, nresults);
  } catch (const Error& e) {
    return api()->error_create(e.code(), e.what());
  } catch (const std::exception& e) {
    return api()->error_create(BP_ERROR_INTERNAL, e.what());
  }
}

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNELS_INL_H_
