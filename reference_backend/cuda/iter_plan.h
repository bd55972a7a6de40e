// An iteration plan as the plugin's kernel planners read it: the C ABI's bp_iter (shape, per
// operand byte strides, data and dtype), copied into plain C++ so that planning and its tests need
// neither libbackplane nor a GPU. plugin code fills it from api->iter_info / iter_operand; tests
// fill it from a TensorIterator.
//
// Dimension 0 is the fastest; operands are the outputs, then the inputs.
//
// Thread safety: a value type.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ITER_PLAN_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ITER_PLAN_H_

#include <cstdint>
#include <vector>

#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

struct PlanOperand {
  std::vector<int64_t> strides;  // bytes, one per dimension
  char* data = nullptr;          // the first element (host memory for a CPU scalar)
  Dtype dtype = Dtype::kFloat32;
  bool is_cpu_scalar = false;  // a zero-dim CPU tensor: read on the host, passed by value
};

struct IterPlan {
  std::vector<int64_t> shape;
  std::vector<PlanOperand> operands;
  int noutputs = 1;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
  int ninputs() const { return static_cast<int>(operands.size()) - noutputs; }
  const PlanOperand& input(int i) const { return operands[static_cast<size_t>(noutputs + i)]; }
};

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ITER_PLAN_H_
