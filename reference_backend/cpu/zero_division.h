// check_no_zero_divisor: PyTorch's integer division by zero error, raised before a kernel
// divides (the CPU would trap, and kernels must not throw from inside their loops).
//
//   // div(a, b, rounding_mode="floor") over an iterator of common dtype int64:
//   check_no_zero_divisor(iter, /*input=*/1);   // "ZeroDivisionError" if b holds a 0
//   pointwise<math::DivFloor, kDtypes>(iter, "div_floor");
//
// Thread safety: reads the iterator's operands (on several threads for large iterators).
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_ZERO_DIVISION_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_ZERO_DIVISION_H_

#include "sdk/iter/tensor_iterator.h"

namespace bp::cpu {

// When the iterator's common dtype is an integer type and its input `input` (0 for the first
// input) holds a zero, throws Error(kInvalidArgument) "ZeroDivisionError". Floating and other
// dtypes divide by zero without error (IEEE results): nothing is checked for them.
void check_no_zero_divisor(const TensorIteratorBase& iter, int input);

}  // namespace bp::cpu

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_ZERO_DIVISION_H_
