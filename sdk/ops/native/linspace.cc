// linspace and logspace: the composites (dtype inference) and the Meta kernels of their out= ops,
// which check the arguments and resize out for every backend (the CPU kernels and the CUDA
// plugin's run them first); the values are reference_backend/math/factories.h's.
#include <optional>

#include "sdk/core/error.h"
#include "sdk/core/promotion.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// PyTorch's linspace_logspace_infer_options: the default dtype, or the default complex dtype
// when start or end is complex (a dtype= must then be complex too).
ScalarType range_dtype(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                       const char* fn_name) {
  if (start.is_complex() || end.is_complex()) {
    if (!dtype.has_value()) return default_complex_dtype();
    BP_CHECK(is_complex(*dtype), fn_name, ": inferred dtype ", default_complex_dtype(),
             " can't be safely cast to passed dtype ", *dtype);
  }
  return dtype.value_or(default_dtype());
}

// The checks both out= ops make: steps, then out's size, then what the kernel's conversions of
// start and end to out's dtype would raise ("value cannot be converted to type int8_t without
// overflow"), and the dtypes the kernel of `steps` >= 2 supports.
void check_and_resize(const Scalar& start, const Scalar& end, int64_t steps, Tensor& out,
                      const char* kernel_name, bool half_supported) {
  BP_CHECK(steps >= 0, "number of steps must be non-negative");
  if (out.numel() != steps) out.resize_({steps});
  if (steps < 2) return;
  const ScalarType dtype = out.dtype();
  BP_CHECK_NOT_IMPLEMENTED(
      dtype != ScalarType::kBool && (half_supported || dtype != ScalarType::kFloat16), '"',
      kernel_name, "\" not implemented for '", dtype, "'");
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)start.to<T>();
    (void)end.to<T>();
  });
}

}  // namespace

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<ScalarType> dtype, std::optional<Device> device) {
  BP_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor result = bp::empty({steps}, range_dtype(start, end, dtype, "torch.linspace()"), device);
  return bp::linspace_out(result, start, end, steps);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<ScalarType> dtype, std::optional<Device> device) {
  BP_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor result = bp::empty({steps}, range_dtype(start, end, dtype, "torch.logspace()"), device);
  return bp::logspace_out(result, start, end, steps, base);
}

Tensor& linspace_out_meta(const Scalar& start, const Scalar& end, int64_t steps, Tensor& out) {
  check_and_resize(start, end, steps, out, "linspace_cpu", /*half_supported=*/true);
  return out;
}

Tensor& logspace_out_meta(const Scalar& start, const Scalar& end, int64_t steps, double base,
                          Tensor& out) {
  (void)base;
  check_and_resize(start, end, steps, out, "logspace_cpu", /*half_supported=*/false);
  return out;
}

}  // namespace bp::native
