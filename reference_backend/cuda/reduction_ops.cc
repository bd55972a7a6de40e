#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {
namespace {

constexpr ReductionOp kOps[] = {
#include "reference_backend/cuda/reduction_ops.inc"
};

}  // namespace

bool ReductionOp::has_index_output() const {
  for (int o = 0; o < num_outputs; ++o) {
    if (result(o) == ReduceResult::kIndex) return true;
  }
  return false;
}

std::span<const ReductionOp> reduction_ops() { return kOps; }

const ReductionOp* find_reduction_op(std::string_view name) {
  for (const ReductionOp& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

}  // namespace bp::cuda
