// CPU kernels of ternary pointwise ops that their scalar math alone cannot express: clamp's
// optional bounds.
#include "reference_backend/math/ternary.h"

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/pointwise.h"
#include "sdk/iter/loops.h"

namespace bp::cpu {
namespace {

bool given(const std::optional<Tensor>& t) { return t.has_value() && t->defined(); }

}  // namespace

// One bound: ClampMin (or ClampMax) with a Scalar.
void clamp_out(structured_clamp_out& op, const Tensor& /*self*/, const std::optional<Scalar>& min,
               const std::optional<Scalar>& max, const Tensor& /*out*/) {
  constexpr uint32_t kDtypes = structured_clamp_out::kDtypes;
  if (min.has_value() && max.has_value()) {
    pointwise<math::Clamp, kDtypes>(op, "clamp", *min, *max);
  } else if (min.has_value()) {
    pointwise<math::ClampMin, kDtypes>(op, "clamp", *min);
  } else {
    pointwise<math::ClampMax, kDtypes>(op, "clamp", *max);
  }
}

// One bound: ClampMin (or ClampMax), which supports bool; both bounds do not.
void clamp_tensor_out(structured_clamp_Tensor_out& op, const Tensor& /*self*/,
                      const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                      const Tensor& /*out*/) {
  constexpr uint32_t kDtypes = structured_clamp_Tensor_out::kDtypes;
  if (given(min) && given(max)) {
    pointwise<math::Clamp, kDtypes & ~scalar_type_mask(ScalarType::kBool)>(op, "clamp");
  } else if (given(min)) {
    pointwise<math::ClampMin, kDtypes>(op, "clamp");
  } else {
    pointwise<math::ClampMax, kDtypes>(op, "clamp");
  }
}

}  // namespace bp::cpu
