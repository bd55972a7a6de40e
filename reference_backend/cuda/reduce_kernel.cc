#include "reference_backend/cuda/reduce_kernel.h"

#include <algorithm>
#include <cstring>

#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

std::string type(Dtype d) { return std::string(info(d).device_type); }

uint32_t next_pow2(uint64_t n) {
  uint32_t p = 1;
  while (p < n && p < (1u << 30)) p <<= 1;
  return p;
}

// The kernel template's number for what output `o` receives (jit::ReduceResult).
int result_code(const ReductionOp& op, int o) { return o < op.num_outputs ? op.results[o] : -1; }

}  // namespace

std::string family_of(const ReductionOp& op) {
  std::string results;
  for (int o = 0; o < op.num_outputs; ++o) {
    results += op.result(o) == ReduceResult::kIndex ? "i" : "v";
  }
  return std::string(op.ops) + "_" + results;
}

std::string ReduceKernel::family() const { return family_of(*op); }

std::string ReduceKernel::entry_name() const {
  return family() + "__" + std::string(info(dtype).name) + "__" + std::string(info(out).name);
}

std::string ReduceKernel::source() const {
  const std::string s = type(dtype);
  return "extern \"C\" __global__ void __launch_bounds__(bp::jit::kReduceThreads) " + entry_name() +
         "(const bp::jit::ReduceArgs args) {\n  bp::jit::reduce<bp::math::" + op->ops + "<" + s +
         ">, " + s + ", " + s + ", " + type(out) + ", " + std::to_string(op->num_args) + ", " +
         std::to_string(result_code(*op, 0)) + ", " + std::to_string(result_code(*op, 1)) +
         ">(args);\n}\n";
}

std::vector<jit::Value> reduce_values(std::span<const double> args) {
  std::vector<jit::Value> values(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    static_assert(sizeof(double) <= sizeof(jit::Value::bytes));
    std::memcpy(values[i].bytes, &args[i], sizeof(double));
  }
  return values;
}

ReduceLaunch plan_reduce(const ReduceKernel& kernel, const IterPlan& plan,
                         std::span<const jit::Value> values) {
  const int nout = kernel.num_outputs();
  BP_CUDA_INTERNAL_CHECK(
      plan.noutputs == nout && plan.ninputs() == 1 && !plan.input(0).is_cpu_scalar,
      "a reduction plan with the wrong operands");
  if (!fits_32bit(plan)) throw BeyondKernelLimits("a reduction that needs 64-bit indexing");
  BP_CUDA_CHECK(values.size() <= static_cast<size_t>(jit::kMaxValues), BP_ERROR_INTERNAL,
                "too many reduction parameters");
  ReduceLaunch launch;
  launch.kernel = kernel;
  jit::ReduceArgs& a = launch.args;
  const PlanOperand& input = plan.input(0);
  // Kept dimensions: an output moves along them; reduced ones: every output has stride 0.
  // A dimension of extent 0 leaves every output at the identity (nothing to read).
  std::vector<size_t> kept, reduced;
  bool empty = false;
  for (size_t d = 0; d < plan.shape.size(); ++d) {
    empty = empty || plan.shape[d] == 0;
    if (plan.shape[d] <= 1) continue;
    (plan.operands[0].strides[d] == 0 ? reduced : kept).push_back(d);
  }
  if (kept.size() > static_cast<size_t>(jit::kMaxDims) ||
      reduced.size() > static_cast<size_t>(jit::kMaxDims)) {
    throw BeyondKernelLimits("too many dimensions for a CUDA reduction");
  }
  uint64_t num_outputs = 1, num_reduced = 1;
  a.kept.ndim = static_cast<int32_t>(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) {
    const size_t d = kept[i];
    num_outputs *= static_cast<uint64_t>(plan.shape[d]);
    a.kept.sizes[i] = fast_divider(static_cast<uint32_t>(plan.shape[d]));
    for (int k = 0; k <= nout; ++k) {
      a.kept.strides[i][k] =
          static_cast<uint32_t>(plan.operands[static_cast<size_t>(k)].strides[d]);
    }
  }
  a.reduced.ndim = static_cast<int32_t>(reduced.size());
  for (size_t i = 0; i < reduced.size(); ++i) {
    const size_t d = reduced[i];
    num_reduced *= static_cast<uint64_t>(plan.shape[d]);
    a.reduced.sizes[i] = fast_divider(static_cast<uint32_t>(plan.shape[d]));
    a.reduced.strides[i][0] = static_cast<uint32_t>(input.strides[d]);
  }
  if (empty) num_reduced = 0;
  if (num_outputs == 0) return launch;
  for (int k = 0; k < nout; ++k) a.outputs[k] = plan.operands[static_cast<size_t>(k)].data;
  a.input = input.data;
  a.num_outputs = static_cast<uint32_t>(num_outputs);
  a.num_reduced = static_cast<uint32_t>(num_reduced);
  for (size_t v = 0; v < values.size(); ++v) a.values[v] = values[v];

  // Lanes of one output run along the input's more contiguous direction.
  const int64_t reduced_stride = reduced.empty() ? 0 : input.strides[reduced[0]];
  const int64_t kept_stride = kept.empty() ? INT64_MAX : input.strides[kept[0]];
  const bool on_x = !reduced.empty() && reduced_stride <= kept_stride;
  const uint32_t threads = jit::kReduceThreads;
  uint32_t lanes;
  if (on_x) {
    lanes = std::min(threads, next_pow2(std::max<uint64_t>(num_reduced, 1)));
  } else {
    const uint32_t slots = std::min(32u, next_pow2(num_outputs));
    lanes = threads / slots;
  }
  const uint32_t slots = threads / lanes;
  a.reduce_on_x = on_x ? 1 : 0;
  launch.block_x = on_x ? lanes : slots;
  launch.block_y = on_x ? slots : lanes;
  launch.grid_x = static_cast<unsigned>((num_outputs + slots - 1) / slots);

  // Few outputs and long reductions: split into chunks of at least 16 elements per lane, to
  // have about 128 blocks in flight.
  uint64_t chunks = 1;
  if (launch.grid_x < 128 && num_reduced > 0) {
    chunks = std::min<uint64_t>(128 / launch.grid_x, (num_reduced + lanes * 16 - 1) / (lanes * 16));
    chunks = std::clamp<uint64_t>(chunks, 1, 1024);
  }
  uint64_t chunk_size = std::max<uint64_t>((num_reduced + chunks - 1) / chunks, 1);
  chunks = std::max<uint64_t>((num_reduced + chunk_size - 1) / chunk_size, 1);
  a.chunk_size = static_cast<uint32_t>(chunk_size);
  a.chunks = static_cast<uint32_t>(chunks);
  launch.chunks = static_cast<unsigned>(chunks);
  a.mode = chunks > 1 ? 1 : 0;  // kPartial : kSinglePass
  if (chunks > 1) {
    launch.partial_bytes = static_cast<size_t>(chunks * num_outputs) * jit::kPartialStride;
  }
  return launch;
}

}  // namespace bp::cuda
