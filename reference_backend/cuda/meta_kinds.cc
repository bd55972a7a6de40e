#include "reference_backend/cuda/meta_kinds.h"

#include "backplane/iter.h"

namespace bp::cuda {
namespace {

// Operands have been checked by the meta function already: the plan only broadcasts, finds the
// common dtype (reading CPU scalars on the host) and lays out strides. No output is resized.
constexpr uint32_t kPlan = BP_ITER_CHECK_ALL_SAME_DEVICE | BP_ITER_ALLOW_CPU_SCALARS |
                           BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE;
constexpr uint32_t kFloatPlan = kPlan | BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT;

constexpr MetaKind kKinds[] = {
    {"binary_op", kPlan, false},
    {"add_op", kPlan, false},
    {"sub_op", kPlan, false},
    {"binary_float_op", kFloatPlan, false},
    {"comparison_op", kPlan, true},
    {"unary_op", kPlan, false},
    {"neg_op", kPlan, false},
    {"unary_float_op", kFloatPlan, false},
    {"unary_force_boolean_op", kPlan, true},
};

}  // namespace

const MetaKind* find_meta_kind(std::string_view meta) {
  for (const MetaKind& kind : kKinds) {
    if (kind.meta == meta) return &kind;
  }
  return nullptr;
}

}  // namespace bp::cuda
