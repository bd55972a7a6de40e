// Scalar math of scans that report where their value comes from (cummax, cummin), written once
// for the CPU backend (reference_backend/cpu/along_dim.h) and the CUDA jit (jit/along_dim.cuh).
// Scans run the ops structs of reduction.h (`scan: SumOps` is cumsum); the ones here are
// reductions only as scans need them: combine(a, b) takes `a` holding the earlier elements.
//
// Thread safety: pure functions of their arguments.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_SCAN_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_SCAN_H_

#include <cstdint>

#include "reference_backend/math/reduction.h"

namespace bp::math {

// cummax (kMax) / cummin: the running maximum (minimum) and the index of the element it comes
// from. As PyTorch's cummax_cummin_helper, an element replaces the running value when it is NaN,
// or when the running value is not NaN and the element is >= (cummin: <=) it: ties and NaNs go to
// the later element, and a NaN, once seen, stays. In T's compute type.
template <typename T, bool kMax>
struct RunningExtremeOps {
  using value_t = compute_type_t<T>;
  using acc_t = ValueIndex<value_t>;
  // Replaced by any element: the lowest (highest) value.
  acc_t identity() const { return {kMax ? lowest_value<value_t>() : highest_value<value_t>(), 0}; }
  acc_t reduce(acc_t acc, value_t x, int64_t index) const { return combine(acc, acc_t{x, index}); }
  acc_t combine(acc_t earlier, acc_t later) const {
    if (later.value != later.value) return later;
    if (earlier.value != earlier.value) return earlier;
    const bool replaces = kMax ? later.value >= earlier.value : later.value <= earlier.value;
    return replaces ? later : earlier;
  }
  acc_t project(acc_t acc) const { return acc; }
};

template <typename T>
using CumMaxOps = RunningExtremeOps<T, true>;
template <typename T>
using CumMinOps = RunningExtremeOps<T, false>;

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_SCAN_H_
