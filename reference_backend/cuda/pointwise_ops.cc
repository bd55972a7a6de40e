#include "reference_backend/cuda/pointwise_ops.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

constexpr PointwiseOp kOps[] = {
#include "reference_backend/cuda/pointwise_ops.inc"
};

// The largest (or lowest) finite value of a floating dtype, as a double; 0 for other dtypes
// (nan_to_num's replacements, which integers and bool never use).
double dtype_limit(Dtype dtype, bool largest) {
  double limit = 0;
  switch (dtype) {
    case Dtype::kFloat16:
      limit = 65504.0;
      break;
    case Dtype::kBFloat16:
      limit = 3.3895313892515355e38;
      break;
    case Dtype::kFloat32:
      limit = std::numeric_limits<float>::max();
      break;
    case Dtype::kFloat64:
      limit = std::numeric_limits<double>::max();
      break;
    default:
      return 0;
  }
  return largest ? limit : -limit;
}

}  // namespace

std::span<const PointwiseOp> pointwise_ops() { return kOps; }

const PointwiseOp* find_pointwise_op(std::string_view name) {
  for (const PointwiseOp& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

std::span<const PointwiseOp> pointwise_alternatives(std::string_view name) {
  const std::span<const PointwiseOp> all = kOps;
  size_t begin = 0;
  while (begin < all.size() && name != all[begin].name) ++begin;
  size_t end = begin;
  while (end < all.size() && name == all[end].name) ++end;
  return all.subspan(begin, end - begin);
}

bool alternative_applies(const PointwiseOp& row, const bp_value* args) {
  for (int k = 0; k < row.num_when; ++k) {
    const bp_value& v = args[row.when_args[k]];
    if (row.when_values[k] == nullptr) {
      if (v.tag != BP_VALUE_NONE) return false;
    } else if (v.tag != BP_VALUE_STRING || std::strcmp(v.u.s, row.when_values[k]) != 0) {
      return false;
    }
  }
  for (int i = 0; i < row.num_inputs; ++i) {
    const bp_value& v = args[row.inputs[i]];
    if (v.tag != BP_VALUE_TENSOR || v.u.tensor == nullptr) return false;
  }
  for (int j = 0; j < row.num_args; ++j) {
    if (args[row.args[j]].tag == BP_VALUE_NONE && row.if_none[j] == nullptr) return false;
  }
  return true;
}

const PointwiseOp* select_alternative(std::span<const PointwiseOp> rows, const bp_value* args) {
  for (const PointwiseOp& row : rows) {
    if (alternative_applies(row, args)) return &row;
  }
  return nullptr;
}

Dtype math_argument_dtype(const PointwiseOp& op, int j, Dtype dtype) {
  const std::string_view type = op.arg_types[j];
  const bool real = type == "float" || type == "float?";
  return real ? real_dtype(compute_dtype(dtype)) : compute_dtype(dtype);
}

jit::Value math_argument(const PointwiseOp& op, int j, const bp_value& value, Dtype dtype) {
  const Dtype to = math_argument_dtype(op, j, dtype);
  bp_value number = value;
  if (value.tag == BP_VALUE_NONE) {
    BP_CUDA_INTERNAL_CHECK(op.if_none[j] != nullptr, "a None functor argument without a meaning");
    const std::string_view meaning = op.if_none[j];
    number.tag = BP_VALUE_DOUBLE;
    if (meaning == "max" || meaning == "lowest") {
      number.u.d = dtype_limit(real_dtype(dtype), meaning == "max");
    } else {
      number.u.d = std::strtod(op.if_none[j], nullptr);
    }
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
