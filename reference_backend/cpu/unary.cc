// CPU kernels of unary pointwise ops that their scalar math alone cannot express.
#include "reference_backend/math/unary.h"

#include <limits>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/pointwise.h"

namespace bp::cpu {

// The replacements default to 0, the dtype's largest and its lowest value, and are rounded to
// the dtype (its real part type for complex) before the math sees them, as in PyTorch.
void nan_to_num_out(structured_nan_to_num_out& op, const Tensor& /*self*/,
                    std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf, const Tensor& /*out*/) {
  constexpr uint32_t kDtypes = structured_nan_to_num_out::kDtypes;
  const ScalarType dtype = *op.common_dtype();
  check_dtype_supported(dtype, kDtypes, "nan_to_num");
  visit_dtype<kDtypes>(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using R = math::real_t<S>;            // Half, float, ...
    using M = math::real_t<opmath_t<S>>;  // what the math computes in
    if constexpr (std::is_arithmetic_v<R> && !std::is_floating_point_v<R>) {
      run_pointwise<math::NanToNum, 0, S>(op, M(0), M(0), M(0));  // integers and bool: unchanged
    } else {
      const R nan_value = static_cast<R>(nan.value_or(0.0));
      const R posinf_value =
          posinf.has_value() ? static_cast<R>(*posinf) : std::numeric_limits<R>::max();
      const R neginf_value =
          neginf.has_value() ? static_cast<R>(*neginf) : std::numeric_limits<R>::lowest();
      run_pointwise<math::NanToNum, 0, S>(op, static_cast<M>(nan_value),
                                          static_cast<M>(posinf_value),
                                          static_cast<M>(neginf_value));
    }
  });
  op.cast_outputs();
}

}  // namespace bp::cpu
