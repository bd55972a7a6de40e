#include "reference_backend/cuda/elementwise_plan.h"

#include <limits>

#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/host_values.h"

namespace bp::cuda {
namespace {

constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();

bool is_contiguous(const IterPlan& plan) {
  if (plan.shape.size() > 1) return false;
  for (const PlanOperand& op : plan.operands) {
    if (op.is_cpu_scalar || plan.shape.empty()) continue;
    if (op.strides[0] != info(op.dtype).itemsize) return false;
  }
  return true;
}

jit::Offsets offsets_of(const IterPlan& plan) {
  jit::Offsets offsets{};
  offsets.ndim = static_cast<int32_t>(plan.shape.size());
  for (size_t d = 0; d < plan.shape.size(); ++d) {
    offsets.sizes[d] = fast_divider(static_cast<uint32_t>(plan.shape[d]));
    for (size_t k = 0; k < plan.operands.size(); ++k) {
      const PlanOperand& op = plan.operands[k];
      offsets.strides[d][k] = op.is_cpu_scalar ? 0u : static_cast<uint32_t>(op.strides[d]);
    }
  }
  return offsets;
}

}  // namespace

const void* ElementwiseLaunch::params() const {
  return kernel.variant == Variant::kVectorized ? static_cast<const void*>(&contiguous)
                                                : static_cast<const void*>(&strided);
}

int vector_width(uintptr_t address, int itemsize) {
  for (int vec : {4, 2}) {
    if (address % static_cast<uintptr_t>(vec * itemsize) == 0) return vec;
  }
  return 1;
}

jit::FastDivider fast_divider(uint32_t divisor) {
  // Empty plans (a size of 0) launch nothing but still describe their sizes: no divider needed,
  // and computing one would divide by zero.
  if (divisor == 0) return {0, 0, 0};
  uint32_t shift = 0;
  while (shift < 32 && (uint64_t{1} << shift) < divisor) ++shift;
  const uint64_t magic = ((uint64_t{1} << 32) * ((uint64_t{1} << shift) - divisor)) / divisor + 1;
  return {divisor, static_cast<uint32_t>(magic), shift};
}

bool fits_32bit(const IterPlan& plan) {
  if (plan.numel() > kMax32) return false;
  for (const PlanOperand& op : plan.operands) {
    int64_t max_offset = 0;
    for (size_t d = 0; d < plan.shape.size(); ++d) {
      if (op.strides[d] < 0) return false;
      max_offset += (plan.shape[d] - 1) * op.strides[d];
    }
    if (max_offset + info(op.dtype).itemsize > kMax32) return false;
  }
  return true;
}

ElementwiseLaunch plan_elementwise(const Computation& computation, Dtype dtype, Dtype static_out,
                                   const IterPlan& plan, std::span<const jit::Value> arg_values) {
  const int ninputs = plan.ninputs();
  BP_CUDA_INTERNAL_CHECK(plan.noutputs == 1 && ninputs == computation.num_inputs &&
                             static_cast<int>(arg_values.size()) == computation.num_args(),
                         "a plan that does not match its computation");
  if (plan.shape.size() > static_cast<size_t>(jit::kMaxDims)) {
    throw BeyondKernelLimits(detail::concat("CUDA elementwise kernels take at most ", jit::kMaxDims,
                                            " dimensions, not ", plan.shape.size()));
  }
  if (plan.operands.size() > static_cast<size_t>(jit::kMaxOperands) ||
      ninputs + computation.num_args() > jit::kMaxValues) {
    throw BeyondKernelLimits(
        detail::concat("CUDA elementwise kernels take at most ", jit::kMaxOperands, " operands"));
  }
  BP_CUDA_INTERNAL_CHECK(!plan.operands[0].is_cpu_scalar, "a CPU scalar output");
  BP_CUDA_INTERNAL_CHECK(fits_32bit(plan), "a plan that needs 64-bit indexing was not split");

  ElementwiseLaunch launch;
  ElementwiseKernel& k = launch.kernel;
  k.computation = computation;
  k.dtype = dtype;
  const Dtype compute = k.compute();
  bool static_types = plan.operands[0].dtype == static_out;
  jit::Value values[jit::kMaxValues] = {};
  for (int i = 0; i < ninputs; ++i) {
    const PlanOperand& in = plan.input(i);
    if (in.is_cpu_scalar) {
      k.scalar_mask |= 1u << i;
      values[i] = element_as(in.data, in.dtype, dtype, compute);
    } else if (in.dtype != dtype) {
      static_types = false;
    }
  }
  for (int j = 0; j < computation.num_args(); ++j) values[ninputs + j] = arg_values[j];

  const int64_t numel = plan.numel();
  launch.blocks = static_cast<uint32_t>((numel + jit::kBlockWork - 1) / jit::kBlockWork);
  k.out_dtype = static_types ? static_out : dtype;
  if (static_types && is_contiguous(plan)) {
    k.variant = Variant::kVectorized;
    k.vec = 4;
    for (const PlanOperand& op : plan.operands) {
      if (op.is_cpu_scalar) continue;
      k.vec = std::min(k.vec,
                       vector_width(reinterpret_cast<uintptr_t>(op.data), info(op.dtype).itemsize));
    }
    jit::ContiguousArgs& a = launch.contiguous;
    a.numel = static_cast<uint32_t>(numel);
    for (size_t i = 0; i < plan.operands.size(); ++i) {
      a.data[i] = plan.operands[i].is_cpu_scalar ? nullptr : plan.operands[i].data;
    }
    for (int v = 0; v < jit::kMaxValues; ++v) a.values[v] = values[v];
    return launch;
  }
  k.variant = static_types ? Variant::kStrided : Variant::kDynamic;
  jit::StridedArgs& a = launch.strided;
  a.numel = static_cast<uint32_t>(numel);
  for (size_t i = 0; i < plan.operands.size(); ++i) {
    a.data[i] = plan.operands[i].is_cpu_scalar ? nullptr : plan.operands[i].data;
    a.dtypes[i] = code(plan.operands[i].dtype);
  }
  for (int v = 0; v < jit::kMaxValues; ++v) a.values[v] = values[v];
  a.offsets = offsets_of(plan);
  return launch;
}

}  // namespace bp::cuda
