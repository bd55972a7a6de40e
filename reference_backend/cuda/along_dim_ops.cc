#include "reference_backend/cuda/along_dim_ops.h"

namespace bp::cuda {
namespace {

constexpr AlongDimOp kOps[] = {
#include "reference_backend/cuda/along_dim_ops.inc"
};

}  // namespace

std::span<const AlongDimOp> along_dim_ops() { return kOps; }

const AlongDimOp* find_along_dim_op(std::string_view name) {
  for (const AlongDimOp& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

}  // namespace bp::cuda
