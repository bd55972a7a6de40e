// arange.start_out: start, start + step, ... written into out (sized by the shared Meta kernel).
#include <type_traits>

#include "reference_backend/cpu/cpu_kernels.h"
#include "sdk/core/element_cast.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/ops/native_kernels.h"

namespace bp::cpu {
namespace {

// The type each element is computed in before conversion (PyTorch's CPU acc_type): int64 for
// integers, float for float16 / bfloat16, double for float32 / float64, complex<double> for
// complex.
template <typename T>
using RangeAcc =
    std::conditional_t<is_complex(scalar_type_of<T>), complex<double>,
                       std::conditional_t<std::is_integral_v<T>, int64_t,
                                          std::conditional_t<(sizeof(T) == 2), float, double>>>;

template <typename T>
void write_range(T* data, int64_t n, const Scalar& start, const Scalar& step) {
  using Acc = RangeAcc<T>;
  const Acc first = start.to<Acc>();
  const Acc delta = step.to<Acc>();
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      data[i] = element_cast<T>(first + delta * static_cast<Acc>(i));
    }
  });
}

}  // namespace

Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  native::arange_out_meta(start, end, step, out);
  // Written row-major into out, or into a row-major buffer copied into a non-contiguous out.
  Tensor target = out.is_contiguous() ? out : bp::empty(out.sizes(), out.dtype(), out.device());
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      write_range(static_cast<T*>(target.data_ptr()), target.numel(), start, step);
    }
  });
  if (target.is_same(out)) {
    out.bump_version();
  } else {
    bp::copy_(out, target);
  }
  return out;
}

}  // namespace bp::cpu
