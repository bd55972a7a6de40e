// arange: the composites (dtype inference, the `end`-only overloads) and the Meta kernel of
// arange.start_out, which also does the checks and the resizing for the CPU kernel.
#include <cmath>
#include <cstdint>
#include <limits>

#include "sdk/core/complex.h"
#include "sdk/core/error.h"
#include "sdk/core/promotion.h"
#include "sdk/core/warning.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

void check_finite_range(double start, double end, const char* part) {
  BP_CHECK(std::isfinite(start) && std::isfinite(end), "unsupported range", part, ": ", start,
           " -> ", end);
}

// One part (real or imaginary) of a complex range: a zero step must not move, a non-zero one
// must head towards end.
void check_complex_part(double start, double end, double step, const char* name) {
  if (step == 0) {
    BP_CHECK(end == start, "step ", name, " part is zero but range is nonzero");
  } else {
    BP_CHECK((step > 0 && end >= start) || (step < 0 && end <= start),
             "upper bound and lower bound inconsistent with step sign for ", name, " part");
  }
}

// The number of elements of a range with complex bounds or step: each part with a non-zero step
// must take the same number of steps. Computed in the output's precision, as PyTorch does.
template <typename T>
double complex_range_length(const Scalar& start, const Scalar& end, const Scalar& step) {
  const complex<T> xstart = start.to<complex<T>>(), xend = end.to<complex<T>>();
  const complex<T> xstep = step.to<complex<T>>();
  const complex<T> distance = xend - xstart;
  if (xstep.real() == 0) return std::ceil(distance.imag() / xstep.imag());
  if (xstep.imag() == 0) return std::ceil(distance.real() / xstep.real());
  const double real_steps = std::ceil(distance.real() / xstep.real());
  BP_CHECK(real_steps == std::ceil(distance.imag() / xstep.imag()),
           "cannot perform step due to incorrect upper and lower bounds");
  return real_steps;
}

double complex_arange_length(const Scalar& start, const Scalar& end, const Scalar& step,
                             ScalarType dtype) {
  const complex<double> s = start.to<complex<double>>(), e = end.to<complex<double>>();
  const complex<double> d = step.to<complex<double>>();
  BP_CHECK(d.real() != 0 || d.imag() != 0, "step must be nonzero");
  check_complex_part(s.real(), e.real(), d.real(), "real");
  check_complex_part(s.imag(), e.imag(), d.imag(), "imaginary");
  check_finite_range(s.real(), e.real(), " for real part");
  check_finite_range(s.imag(), e.imag(), " for imaginary part");
  return dtype == ScalarType::kComplex128 ? complex_range_length<double>(start, end, step)
                                          : complex_range_length<float>(start, end, step);
}

// The length of arange(start, end, step) into an output of `dtype`, as PyTorch's arange_out: an
// integral dtype first converts start, end and step to its accumulate type, int64 (which raises
// "value cannot be converted to type int64_t without overflow" for inf and NaN), and checks those:
// arange(1, 2, 0.25) in int32 has a step of 0 ("step must be nonzero"). The length is then
// ceil((end - start) / step): exactly in int64 for int64 (so torch.arange(0, 4.5, dtype=int64) has
// 4 elements), from the numbers as given, in double, for the other dtypes (so in int32 it has 5;
// the values, start + i * step in int64, are 0..4).
int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step,
                      ScalarType dtype) {
  double length;
  if (is_integral(dtype, /*include_bool=*/false)) {
    const int64_t xstart = start.to<int64_t>(), xend = end.to<int64_t>();
    const int64_t xstep = step.to<int64_t>();
    BP_CHECK(xstep != 0, "step must be nonzero");
    BP_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
             "upper bound and lower bound inconsistent with step sign");
    if (dtype == ScalarType::kInt64) {
      const int64_t sign = xstep > 0 ? 1 : -1;
      // ceil((end - start) / step) in integers; wrapping like PyTorch's int64 arithmetic.
      const auto span =
          static_cast<int64_t>(static_cast<uint64_t>(xend) - static_cast<uint64_t>(xstart) +
                               static_cast<uint64_t>(xstep - sign));
      length = static_cast<double>(span / xstep);
    } else {
      length = std::ceil((end.to<double>() - start.to<double>()) / step.to<double>());
    }
  } else if (start.is_complex() || end.is_complex() || step.is_complex()) {
    length = complex_arange_length(start, end, step, dtype);
  } else {
    const double dstart = start.to<double>(), dend = end.to<double>(), dstep = step.to<double>();
    BP_CHECK(dstep > 0 || dstep < 0, "step must be nonzero");
    check_finite_range(dstart, dend, "");
    BP_CHECK((dstep > 0 && dend >= dstart) || (dstep < 0 && dend <= dstart),
             "upper bound and lower bound inconsistent with step sign");
    length = std::ceil((dend - dstart) / dstep);
  }
  BP_CHECK(length >= 0 && length <= static_cast<double>(std::numeric_limits<int64_t>::max()),
           "invalid size, possible overflow?");
  return static_cast<int64_t>(length);
}

}  // namespace

Tensor arange_end(const Scalar& end, std::optional<ScalarType> dtype,
                  std::optional<Device> device) {
  return bp::arange(0, end, 1, dtype, device);
}

Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step,
                         std::optional<ScalarType> dtype, std::optional<Device> device) {
  // Integers (bools count) make an int64 range; anything else the default dtype.
  const bool integral = start.is_integral(true) && end.is_integral(true) && step.is_integral(true);
  Tensor result =
      bp::empty({0}, dtype.value_or(integral ? ScalarType::kInt64 : default_dtype()), device);
  return bp::arange_out(result, start, end, step);
}

Tensor& arange_end_out(const Scalar& end, Tensor& out) { return bp::arange_out(out, 0, end, 1); }

Tensor& arange_out_meta(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  BP_CHECK_NOT_IMPLEMENTED(out.dtype() != ScalarType::kBool, "\"arange\" not implemented for '",
                           out.dtype(), "'");
  const int64_t length = arange_length(start, end, step, out.dtype());
  if (out.numel() != length) {
    if (out.numel() > 0) {
      warn(detail::str_cat("The number of elements in the out tensor of shape ",
                           int_list_string(out.sizes()), " is ", out.numel(),
                           " which does not match the computed number of elements ", length,
                           ". Note that this may occur as a result of rounding error. The out "
                           "tensor will be resized to a tensor of shape (",
                           length, ",)."));
    }
    out.resize_({length});
  }
  return out;
}

}  // namespace bp::native
