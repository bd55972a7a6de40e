#include "reference_backend/cuda/emulation/emulated_kernels.h"

namespace bp::cuda {

std::vector<ElementwiseKernel> emulated_elementwise_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (const PointwiseOp& op : pointwise_ops()) {
    const Computation c = computation_of(op);
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype dtype = dtype_of_code(d);
      const std::optional<Dtype> out = natural_output(op, dtype);
      if (!op.supports(dtype) || !out) continue;
      kernels.push_back({c, dtype, *out, Variant::kVectorized, 4, 0});
      kernels.push_back({c, dtype, *out, Variant::kStrided, 1, 0});
      kernels.push_back({c, dtype, dtype, Variant::kDynamic, 1, 0});
      if (op.num_inputs > 1) {
        for (int i = 0; i < op.num_inputs; ++i) {
          kernels.push_back({c, dtype, *out, Variant::kVectorized, 4, 1u << i});
          // An input read as bool makes the plugin take the dynamic kernel (runs_static).
          if (!runs_static(op, dtype)) {
            kernels.push_back({c, dtype, dtype, Variant::kDynamic, 1, 1u << i});
          }
        }
      }
      if (dtype == Dtype::kFloat32 || dtype == Dtype::kFloat16 || dtype == Dtype::kComplex128) {
        kernels.push_back({c, dtype, *out, Variant::kVectorized, 2, 0});
        kernels.push_back({c, dtype, *out, Variant::kVectorized, 1, 0});
      }
    }
  }
  for (const auto& factory : {arange_kernels(), linspace_kernels(), logspace_kernels()}) {
    for (const ElementwiseKernel& k : factory) {
      if (k.variant == Variant::kStrided || k.vec == 4) kernels.push_back(k);
    }
  }
  for (int s = 0; s < kNumDtypes; ++s) {
    const Dtype src = dtype_of_code(s);
    kernels.push_back({fill_computation(), src, src, Variant::kVectorized, 4, 0});
    kernels.push_back({fill_computation(), src, src, Variant::kStrided, 1, 0});
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype dst = dtype_of_code(d);
      kernels.push_back({copy_computation(), src, dst, Variant::kVectorized, 4, 0});
      kernels.push_back({copy_computation(), src, dst, Variant::kStrided, 1, 0});
    }
  }
  return kernels;
}

}  // namespace bp::cuda
