// Every elementwise kernel the plugin can produce, for ahead-of-time checks (the NVRTC compile
// test compiles them all) and warm-up tools:
//   - every pointwise op (whose meta function the plugin knows), in every common dtype it
//     supports: vectorised (widths 4, 2, 1) and strided kernels for its natural output dtype and
//     the dynamic-cast kernel, each with every set of inputs passed by value (CPU scalars);
//   - copies between every pair of dtypes (vectorised 4, 2, 1 and strided);
//   - fills of every dtype (vectorised 4, 2, 1 and strided).
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_

#include <optional>
#include <vector>

#include "reference_backend/cuda/kernel_source.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda {

// The output dtype of `op`'s static kernels for common dtype `dtype` (natural_output_dtype):
// nullopt when the plugin does not know the op's meta function.
std::optional<Dtype> natural_output(const PointwiseOp& op, Dtype dtype);

// Every kernel of `op` (empty when its meta function is unknown).
std::vector<ElementwiseKernel> kernels_of(const PointwiseOp& op);
std::vector<ElementwiseKernel> copy_kernels();
std::vector<ElementwiseKernel> fill_kernels();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_
