// Every reduction kernel the plugin produces for functional calls, for ahead-of-time checks (the
// NVRTC compile test compiles them all, the host emulation runs them): of every reduction declared
// with `reduce:` (reduction_ops.h), the kernel a functional call over an input of each dtype the
// declaration lists runs.
//
// Which kernel that is follows from the output dtypes, which the op's meta function gives (the
// catalog runs it on Meta tensors, so it links the SDK: tools and tests only; the plugin itself
// reads the dtypes of the outputs the host hands it, whichever they are, and compiles any kernel
// on first use).
//
//   std::optional<ReduceKernel> k = natural_reduction(*find_reduction_op("mean.out"),
//                                                     Dtype::kFloat16);
//   k->dtype;  // Dtype::kFloat16 (mean runs in its result's dtype)
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_CATALOG_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_CATALOG_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {

// The kernel of a functional call of `op` over an input of `dtype` (with dim 0 where a dim is
// required, None for optional arguments, the input's dtype for a required `dtype`): nullopt when
// the declaration does not list `dtype` or the meta function refuses the call.
std::optional<ReduceKernel> natural_reduction(const ReductionOp& op, Dtype dtype);

// Every kernel of every declared reduction over every dtype it lists, and with every value of
// its ScalarType argument if it has one (norm(x, dtype=float64)), each kernel once (declarations
// that share an ops struct share kernels).
std::vector<ReduceKernel> reduction_kernels();
// The kernel families (family_of) of the declared reductions.
std::set<std::string> reduction_families();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_CATALOG_H_
