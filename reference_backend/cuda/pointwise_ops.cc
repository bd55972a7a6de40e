#include "reference_backend/cuda/pointwise_ops.h"

#include <cstdlib>
#include <string>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

constexpr PointwiseOp kOps[] = {
#include "reference_backend/cuda/pointwise_ops.inc"
};

}  // namespace

std::span<const PointwiseOp> pointwise_ops() { return kOps; }

const PointwiseOp* find_pointwise_op(std::string_view name) {
  for (const PointwiseOp& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

jit::Value math_argument(const PointwiseOp& op, int j, const bp_value& value, Dtype to) {
  bp_value number = value;
  if (value.tag == BP_VALUE_NONE) {
    BP_CUDA_INTERNAL_CHECK(op.if_none[j] != nullptr, "a None functor argument without a meaning");
    number.tag = BP_VALUE_DOUBLE;
    number.u.d = std::strtod(op.if_none[j], nullptr);
  } else if (value.tag == BP_VALUE_STRING) {
    BP_CUDA_INTERNAL_CHECK(op.choices[j] != nullptr, "a str functor argument without values");
    const std::string given = value.u.s, values = std::string("|") + op.choices[j] + "|";
    const size_t at = values.find("|" + given + "|");
    BP_CUDA_INTERNAL_CHECK(at != std::string::npos, "a str value the meta function let through");
    number.tag = BP_VALUE_INT;
    number.u.i = 0;
    for (size_t k = 0; k < at; ++k) number.u.i += values[k] == '|' ? 1 : 0;
  }
  return scalar_as(number, to);
}

}  // namespace bp::cuda
