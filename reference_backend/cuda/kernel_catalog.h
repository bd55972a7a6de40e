// Every elementwise kernel the plugin produces for functional calls, for ahead-of-time checks
// (the NVRTC compile test compiles them all, the host emulation runs them) and warm-up tools:
//   - every pointwise op, in every common dtype it supports: vectorised (widths 4, 2, 1) and
//     strided kernels for its natural output dtype and the dynamic-cast kernel, each with every
//     set of inputs passed by value (CPU scalars);
//   - copies between every pair of dtypes (vectorised 4, 2, 1 and strided);
//   - fills of every dtype (vectorised 4, 2, 1 and strided);
//   - the range factories (range_factories.h): arange into every dtype but bool, linspace and
//     logspace into every dtype their Meta kernels accept (vectorised 4, 2, 1 and strided).
//
// The natural output dtype is the one the op's meta function gives a functional call whose inputs
// have the common dtype (bool for comparisons, float32 for abs(complex64)): the catalog runs the
// meta functions on Meta tensors, so it links the SDK (tools and tests only; the plugin itself
// stores the output dtype of the plan the host hands it, whichever that is, and compiles any
// kernel on first use).
//
// Thread safety: pure.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_

#include <optional>
#include <vector>

#include "reference_backend/cuda/kernel_source.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "sdk/core/scalar.h"
#include "sdk/dispatch/value.h"

namespace bp::cuda {

// The output dtype of a functional call of `op` over inputs of dtype `dtype`, as its meta function
// gives it: nullopt when `op` does not support `dtype` or the meta function refuses the call.
std::optional<Dtype> natural_output(const PointwiseOp& op, Dtype dtype);

// A value for the functor argument j of `op` in a sample call, by its schema type: `scalar` for a
// Scalar, None for an optional number with a None value (so the number the declaration gives
// None is used; an alternative's optional argument without one is given), 2 for an int, 0.25 for
// a float, true for a bool, the last listed value of a str.
Value sample_math_argument(const PointwiseOp& op, int j, const Scalar& scalar);

// The dtype input i of `op` has in a call of common dtype `dtype`: bool for an input read as bool
// (where's condition), `dtype` otherwise.
Dtype input_dtype(const PointwiseOp& op, int i, Dtype dtype);
// The value of boxed argument `argument` of a sample call of `op` (one alternative of its math)
// that is neither a tensor input nor a functor argument: what its condition asks for (a str),
// else None (an optional argument the alternative leaves out).
Value condition_value(const PointwiseOp& op, int argument);
// Whether the static kernels of `op` run for common dtype `dtype`: not when an input read as bool
// has another dtype (the plugin runs the dynamic-cast kernel then).
bool runs_static(const PointwiseOp& op, Dtype dtype);

// Every kernel of `op`.
std::vector<ElementwiseKernel> kernels_of(const PointwiseOp& op);
std::vector<ElementwiseKernel> copy_kernels();
std::vector<ElementwiseKernel> fill_kernels();
// arange.start_out into every dtype but bool (computed in arange_dtype).
std::vector<ElementwiseKernel> arange_kernels();
// linspace.out into every dtype but bool (computed in linspace_dtype).
std::vector<ElementwiseKernel> linspace_kernels();
// logspace.out into every dtype but bool and float16 (computed in the output's dtype).
std::vector<ElementwiseKernel> logspace_kernels();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_KERNEL_CATALOG_H_
