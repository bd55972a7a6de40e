#include "reference_backend/cuda/kernel_catalog.h"

#include "reference_backend/cuda/meta_kinds.h"

namespace bp::cuda {
namespace {

// The static variants: vector widths 4, 2, 1 and strided.
void add_static(std::vector<ElementwiseKernel>& out, const Computation& c, Dtype dtype,
                Dtype out_dtype, uint32_t mask) {
  for (int vec : {4, 2, 1}) out.push_back({c, dtype, out_dtype, Variant::kVectorized, vec, mask});
  out.push_back({c, dtype, out_dtype, Variant::kStrided, 1, mask});
}

}  // namespace

std::optional<Dtype> natural_output(const PointwiseOp& op, Dtype dtype) {
  const MetaKind* kind = find_meta_kind(op.meta);
  if (kind == nullptr) return std::nullopt;
  return natural_output_dtype(*kind, dtype);
}

std::vector<ElementwiseKernel> kernels_of(const PointwiseOp& op) {
  std::vector<ElementwiseKernel> kernels;
  const Computation c = computation_of(op);
  // A single input is never a CPU scalar (the plan's device would be the CPU).
  const uint32_t masks = op.num_inputs > 1 ? 1u << op.num_inputs : 1u;
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    const std::optional<Dtype> out = natural_output(op, dtype);
    if (!op.supports(dtype) || !out) continue;
    for (uint32_t mask = 0; mask < masks; ++mask) {
      add_static(kernels, c, dtype, *out, mask);
      kernels.push_back({c, dtype, dtype, Variant::kDynamic, 1, mask});
    }
  }
  return kernels;
}

std::vector<ElementwiseKernel> copy_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int s = 0; s < kNumDtypes; ++s) {
    for (int d = 0; d < kNumDtypes; ++d) {
      add_static(kernels, copy_computation(), dtype_of_code(s), dtype_of_code(d), 0);
    }
  }
  return kernels;
}

std::vector<ElementwiseKernel> fill_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    add_static(kernels, fill_computation(), dtype_of_code(d), dtype_of_code(d), 0);
  }
  return kernels;
}

}  // namespace bp::cuda
