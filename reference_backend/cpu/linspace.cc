// linspace.out and logspace.out: the shared Meta kernels check the arguments and resize out, then
// each element is reference_backend/math/factories.h's, written row-major into out (or into a
// row-major buffer copied into a non-contiguous out).
#include <cmath>
#include <type_traits>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/math/factories.h"
#include "sdk/core/element_cast.h"
#include "sdk/iter/parallel.h"
#include "sdk/ops/native_kernels.h"

namespace bp::cpu {
namespace {

// The type linspace computes in (math::linspace_element): double for integers, else T.
template <typename T>
using LinspaceType = std::conditional_t<std::is_integral_v<T>, double, T>;

// Runs write(T* data, n) on a row-major tensor of out's elements, then copies it into out.
template <typename F>
void write_row_major(Tensor& out, F&& write) {
  Tensor target = out.is_contiguous() ? out : bp::empty(out.sizes(), out.dtype(), out.device());
  write(target);
  if (target.is_same(out)) {
    out.bump_version();
  } else {
    bp::copy_(out, target);
  }
}

}  // namespace

Tensor& linspace_out(const Scalar& start, const Scalar& end, int64_t steps, Tensor& out) {
  native::linspace_out_meta(start, end, steps, out);
  if (steps == 0) return out;
  if (steps == 1) return bp::fill_(out, start);
  write_row_major(out, [&](Tensor& target) {
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!std::is_same_v<T, bool>) {
        using C = LinspaceType<T>;
        const C first = static_cast<C>(start.to<T>()), last = static_cast<C>(end.to<T>());
        T* data = static_cast<T*>(target.data_ptr());
        parallel_for(0, steps, kGrainSize, [&](int64_t begin, int64_t stop) {
          for (int64_t i = begin; i < stop; ++i) {
            data[i] = element_cast<T>(math::linspace_element(first, last, steps, i));
          }
        });
      }
    });
  });
  return out;
}

Tensor& logspace_out(const Scalar& start, const Scalar& end, int64_t steps, double base,
                     Tensor& out) {
  native::logspace_out_meta(start, end, steps, base, out);
  if (steps == 0) return out;
  if (steps == 1) {
    // PyTorch fills with C's pow of the numbers as given (double, or complex<double>: pow of a
    // real base and a complex exponent, as std::pow computes it).
    if (is_complex(out.dtype())) {
      const std::complex<double> s(start.to<complex<double>>().real(),
                                   start.to<complex<double>>().imag());
      const std::complex<double> v = std::pow(base, s);
      return bp::fill_(out, Scalar(complex<double>(v.real(), v.imag())));
    }
    return bp::fill_(out, Scalar(std::pow(base, start.to<double>())));
  }
  write_row_major(out, [&](Tensor& target) {
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, Half>) {
        const T first = start.to<T>(), last = end.to<T>();
        T* data = static_cast<T*>(target.data_ptr());
        parallel_for(0, steps, kGrainSize, [&](int64_t begin, int64_t stop) {
          for (int64_t i = begin; i < stop; ++i) {
            data[i] = math::logspace_element(first, last, base, steps, i);
          }
        });
      }
    });
  });
  return out;
}

}  // namespace bp::cpu
