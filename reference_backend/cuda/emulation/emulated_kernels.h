// The kernels the host emulation builds (emulation_gen) and its tests run: every pointwise op in
// every dtype it supports, in the variants the tests' plans select:
//   - vectorised (width 4), strided and dynamic-cast, no by-value inputs;
//   - vectorised with each single input passed by value (CPU scalars left, right, ...);
//   - vector widths 2 and 1 for float32, float16 and complex128 (misaligned views);
// the copy and fill computations for every dtype (pair); and the range factories (arange,
// linspace, logspace) in every dtype, vectorised (width 4) and strided.
//
// One list serves the generator and the tests, so a test asks only for kernels that were built.
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATED_KERNELS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATED_KERNELS_H_

#include <vector>

#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/kernel_source.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda {

std::vector<ElementwiseKernel> emulated_elementwise_kernels();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATED_KERNELS_H_
