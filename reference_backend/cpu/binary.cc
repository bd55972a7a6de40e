// CPU kernels of binary pointwise ops that their scalar math alone cannot express: the choice of
// math by rounding mode, and PyTorch's integer division by zero error.
#include "reference_backend/math/binary.h"

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/pointwise.h"
#include "reference_backend/cpu/zero_division.h"

namespace bp::cpu {

void div_out_mode(structured_div_out_mode& op, const Tensor& /*self*/, const Tensor& /*other*/,
                  std::optional<std::string_view> rounding_mode, const Tensor& /*out*/) {
  constexpr uint32_t kDtypes = structured_div_out_mode::kDtypes;
  // Rounded quotients of complex numbers are not defined.
  constexpr uint32_t kRounded = kDtypes & ~scalar_type_mask(ScalarCategory::kComplex);
  if (!rounding_mode.has_value()) {
    pointwise<math::Div, kDtypes>(op, "div");
    return;
  }
  check_no_zero_divisor(op, /*input=*/1);
  if (*rounding_mode == "trunc") {
    pointwise<math::DivTrunc, kRounded>(op, "div_trunc");
  } else {
    pointwise<math::DivFloor, kRounded>(op, "div_floor");
  }
}

void remainder_out(structured_remainder_Tensor_out& op, const Tensor& /*self*/,
                   const Tensor& /*other*/, const Tensor& /*out*/) {
  check_no_zero_divisor(op, /*input=*/1);
  pointwise<math::Remainder, structured_remainder_Tensor_out::kDtypes>(op, "remainder");
}

void fmod_out(structured_fmod_Tensor_out& op, const Tensor& /*self*/, const Tensor& /*other*/,
              const Tensor& /*out*/) {
  check_no_zero_divisor(op, /*input=*/1);
  pointwise<math::Fmod, structured_fmod_Tensor_out::kDtypes>(op, "fmod");
}

}  // namespace bp::cpu
