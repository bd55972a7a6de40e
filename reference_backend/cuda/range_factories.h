// The range factories' elementwise kernels before their plan: the computation, the dtype S it
// runs in and its arguments' values, from the op's arguments and the output's dtype, as the CPU
// backend computes each range (reference_backend/cpu/arange.cc, linspace.cc). The plugin's
// kernels (factory_kernels.cc), the kernel catalog and the emulation tests share them.
//
//   RangeFactory f = linspace_factory(start, end, /*steps=*/5, Dtype::kInt32);
//   f.dtype;    // Dtype::kFloat64: an integral linspace computes in double
//   ElementwiseLaunch launch = plan_elementwise(f.computation, f.dtype, Dtype::kInt32, plan,
//                                               f.values);
//
// Each computation has no inputs and reads the element's index (kUsesIndex), so it runs over a
// one-dimensional plan in one 32-bit part, in S itself (no opmath), stored as the output's dtype.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_RANGE_FACTORIES_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_RANGE_FACTORIES_H_

#include <cstdint>
#include <vector>

#include "backplane/types.h"
#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

// out = start + step * index (arange.start_out).
Computation arange_computation();
// out = bp::math::linspace_element(start, end, steps, index) (linspace.out, steps >= 2).
Computation linspace_computation();
// out = bp::math::logspace_element(start, end, base, steps, index) (logspace.out, steps >= 2).
Computation logspace_computation();

// The dtype arange's elements are computed in before conversion to `out` (PyTorch's CPU
// accumulate type): int64 for integers, float32 for float16 / bfloat16, float64 for float32 and
// float64, complex128 for complex dtypes.
Dtype arange_dtype(Dtype out);
// The dtype linspace's elements are computed in (linspace_element's C): float64 for integers,
// `out` itself otherwise (float16 and bfloat16 round after every operation, as on the CPU).
Dtype linspace_dtype(Dtype out);
// logspace's elements are computed in `out` itself (logspace_element's T).

struct RangeFactory {
  Computation computation;
  Dtype dtype;                     // S, the dtype the computation runs in
  std::vector<jit::Value> values;  // its arguments, each in arg_dtype(its ArgType, S)
};

// arange.start_out: start and step converted to arange_dtype(out).
RangeFactory arange_factory(const bp_value& start, const bp_value& step, Dtype out);
// linspace.out: start and end converted to `out` (the CPU's start.to<T>()), then to
// linspace_dtype(out).
RangeFactory linspace_factory(const bp_value& start, const bp_value& end, int64_t steps, Dtype out);
// logspace.out: start and end converted to `out`.
RangeFactory logspace_factory(const bp_value& start, const bp_value& end, int64_t steps,
                              double base, Dtype out);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_RANGE_FACTORIES_H_
