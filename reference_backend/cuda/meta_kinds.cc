#include "reference_backend/cuda/meta_kinds.h"

#include "backplane/iter.h"

namespace bp::cuda {
namespace {

// Operands have been checked by the meta function already: the plan only broadcasts, finds the
// common dtype (reading CPU scalars on the host) and lays out strides. No output is resized.
constexpr uint32_t kPlan = BP_ITER_CHECK_ALL_SAME_DEVICE | BP_ITER_ALLOW_CPU_SCALARS |
                           BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE;
constexpr uint32_t kFloatPlan = kPlan | BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT;

constexpr OutputDtype kCommon = OutputDtype::kCommon;

constexpr MetaKind kKinds[] = {
    {"binary_op", kPlan, kCommon},
    {"add_op", kPlan, kCommon},
    {"sub_op", kPlan, kCommon},
    {"maximum_op", kPlan, kCommon},
    {"binary_float_op", kFloatPlan, kCommon},
    {"comparison_op", kPlan, OutputDtype::kBool},
    {"unary_op", kPlan, kCommon},
    {"neg_op", kPlan, kCommon},
    {"ceil_op", kPlan, kCommon},
    {"abs_op", kPlan, OutputDtype::kReal},
    {"unary_float_op", kFloatPlan, kCommon},
    {"unary_force_boolean_op", kPlan, OutputDtype::kBool},
    {"pow_tensor_scalar_op", kPlan, kCommon, /*computes_in_output_dtype=*/true},
    {"ternary_op", kPlan, kCommon},
    {"lerp_scalar_op", kPlan, kCommon},
};

}  // namespace

const MetaKind* find_meta_kind(std::string_view meta) {
  for (const MetaKind& kind : kKinds) {
    if (kind.meta == meta) return &kind;
  }
  return nullptr;
}

Dtype natural_output_dtype(const MetaKind& kind, Dtype common) {
  switch (kind.output) {
    case OutputDtype::kBool:
      return Dtype::kBool;
    case OutputDtype::kReal:
      return real_dtype(common);
    case OutputDtype::kCommon:
      break;
  }
  return common;
}

}  // namespace bp::cuda
