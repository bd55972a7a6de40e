#include "reference_backend/cuda/reduce_kernel.h"

#include <algorithm>
#include <cstring>
#include <utility>

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

namespace {

// A part of a plan and where it starts in the whole plan (elements, per dimension).
struct Piece {
  IterPlan plan;
  std::vector<int64_t> start;
};

bool is_reduced(const IterPlan& plan, size_t d) { return plan.operands[0].strides[d] == 0; }

// The dimension of `kind` (reduced or kept) to halve next: the largest byte extent over the
// operands, then the longest; -1 when every such dimension has extent 1.
int dim_to_split(const IterPlan& plan, bool reduced) {
  int best = -1;
  int64_t best_extent = -1, best_size = 0;
  for (size_t d = 0; d < plan.shape.size(); ++d) {
    if (plan.shape[d] <= 1 || is_reduced(plan, d) != reduced) continue;
    int64_t extent = 0;
    for (const PlanOperand& op : plan.operands) {
      extent = std::max(extent, (plan.shape[d] - 1) * op.strides[d]);
    }
    if (extent > best_extent || (extent == best_extent && plan.shape[d] > best_size)) {
      best = static_cast<int>(d);
      best_extent = extent;
      best_size = plan.shape[d];
    }
  }
  return best;
}

// `piece` halved along d: the first half keeps the pointers, the second starts further on.
std::pair<Piece, Piece> halve(const Piece& piece, size_t d) {
  Piece first = piece, second = piece;
  const int64_t half = piece.plan.shape[d] / 2;
  first.plan.shape[d] = half;
  second.plan.shape[d] = piece.plan.shape[d] - half;
  second.start[d] += half;
  for (PlanOperand& op : second.plan.operands) op.data += half * op.strides[d];
  return {std::move(first), std::move(second)};
}

// Whether the kept dimensions alone (every reduced one taken at its first element) fit 32 bits.
bool kept_fit_32bit(const IterPlan& plan) {
  IterPlan kept = plan;
  for (size_t d = 0; d < kept.shape.size(); ++d) {
    if (is_reduced(kept, d) && kept.shape[d] > 1) kept.shape[d] = 1;
  }
  return fits_32bit(kept);
}

// Halves dimensions of `kind` until `fits` holds for every part; appends the parts in order.
template <typename Fits>
void split_until(const Piece& piece, bool reduced, Fits fits, std::vector<Piece>& parts) {
  if (fits(piece.plan)) {
    parts.push_back(piece);
    return;
  }
  const int d = dim_to_split(piece.plan, reduced);
  BP_CUDA_INTERNAL_CHECK(d >= 0, "a reduction part that cannot be split to 32-bit indexing");
  auto [first, second] = halve(piece, static_cast<size_t>(d));
  split_until(first, reduced, fits, parts);
  split_until(second, reduced, fits, parts);
}

// The position of a part's first reduced element among the whole plan's reduced elements
// (row-major, dimension 0 fastest, as the kernel counts them).
int64_t reduced_index_of(const IterPlan& whole, const std::vector<int64_t>& start) {
  int64_t index = 0, step = 1;
  for (size_t d = 0; d < whole.shape.size(); ++d) {
    if (whole.shape[d] <= 1 || !is_reduced(whole, d)) continue;
    index += start[d] * step;
    step *= whole.shape[d];
  }
  return index;
}

}  // namespace

ReduceGroup group_of(const ReduceLaunch& launch) {
  ReduceGroup group;
  group.parts.push_back({launch, 0});
  group.partial_bytes = launch.chunks > 1 ? launch.partial_bytes : 0;
  if (launch.chunks > 1) {
    group.finalize = launch;
    group.finalize.args.mode = 2;  // kFinalize (jit/reduce.cuh)
    group.finalize.chunks = 1;
  }
  return group;
}

std::vector<ReduceGroup> plan_reduce_parts(const ReduceKernel& kernel, const IterPlan& plan,
                                           std::span<const jit::Value> values) {
  if (fits_32bit(plan)) return {group_of(plan_reduce(kernel, plan, values))};
  size_t reduced_dims = 0;
  for (size_t d = 0; d < plan.shape.size(); ++d) {
    for (const PlanOperand& op : plan.operands) {
      if (op.strides[d] < 0) throw BeyondKernelLimits("a CUDA reduction with negative strides");
    }
    if (plan.shape[d] > 1 && is_reduced(plan, d)) ++reduced_dims;
  }
  std::vector<Piece> kept_parts;
  split_until(Piece{plan, std::vector<int64_t>(plan.shape.size(), 0)}, /*reduced=*/false,
              kept_fit_32bit, kept_parts);
  std::vector<ReduceGroup> groups;
  for (const Piece& kept : kept_parts) {
    std::vector<Piece> parts;
    split_until(kept, /*reduced=*/true, fits_32bit, parts);
    if (parts.size() == 1) {
      groups.push_back(group_of(plan_reduce(kernel, kept.plan, values)));
      continue;
    }
    // An index counts positions along the reduced elements: a part's are a contiguous range of
    // them only when there is one reduced dimension.
    if (kernel.op->has_index_output() && reduced_dims > 1) {
      throw BeyondKernelLimits("a CUDA index reduction over several dimensions beyond 32 bits");
    }
    ReduceGroup group;
    uint64_t chunks = 0, num_outputs = 0;
    for (const Piece& part : parts) {
      ReduceLaunch launch = plan_reduce(kernel, part.plan, values);
      launch.args.mode = 1;  // kPartial (jit/reduce.cuh)
      launch.args.index_base = reduced_index_of(plan, part.start);
      num_outputs = launch.args.num_outputs;
      group.parts.push_back({launch, static_cast<size_t>(chunks * num_outputs) *
                                         static_cast<size_t>(jit::kPartialStride)});
      chunks += launch.chunks;
    }
    // The parts share their outputs (only reduced dimensions differ): the first part's geometry
    // covers them.
    group.finalize = group.parts[0].launch;
    group.finalize.args.mode = 2;  // kFinalize
    group.finalize.args.chunks = static_cast<uint32_t>(chunks);
    group.finalize.chunks = 1;
    group.partial_bytes = static_cast<size_t>(chunks * num_outputs) * jit::kPartialStride;
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<ReduceStep> reduce_steps(const ReduceGroup& group, char* workspace) {
  std::vector<ReduceStep> steps;
  for (const ReducePart& part : group.parts) {
    const ReduceLaunch& l = part.launch;
    if (l.grid_x == 0) continue;
    ReduceStep step{l.grid_x, l.chunks, l.block_x, l.block_y, l.args};
    if (group.partial_bytes > 0) step.args.partials = workspace + part.partials_offset;
    steps.push_back(step);
  }
  const ReduceLaunch& f = group.finalize;
  if (f.grid_x > 0) {
    ReduceStep step{f.grid_x, 1, f.block_x, f.block_y, f.args};
    step.args.partials = workspace;
    steps.push_back(step);
  }
  return steps;
}

}  // namespace bp::cuda
