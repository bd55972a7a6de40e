#include "reference_backend/cuda/pointwise_ops.h"

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

}  // namespace bp::cuda
