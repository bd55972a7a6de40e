// Reductions beyond 32-bit indexing (more than 2^31 input elements) run on the device in 32-bit
// parts (reduce_kernel.h, plan_reduce_parts) instead of on the CPU: how plans are split, and the
// split kernels run in the host emulation over inputs of more than 2^31 elements whose memory is
// small (stride-0 expansions and overlapping windows), compared with the CPU backend.
//
// Each emulated case reads more than 2^31 elements on the emulated device and as many on the
// CPU: about 70 s of CPU time in all on CI's machine (a shard each).
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "backplane/iter.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/emulation/test_support.h"
#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_catalog.h"
#include "sdk/core/views.h"

namespace bp::cuda {
namespace {

constexpr int64_t k2To31 = int64_t{1} << 31;

// ---- Planning (no data: plans over made-up addresses) ----------------------------------------

// A plan of `kernel`'s outputs and input over `shape`, dims in `reduced` with output stride 0,
// contiguous otherwise (outputs over the kept dims, the input over all), at made-up addresses.
IterPlan made_up_plan(const ReduceKernel& kernel, const std::vector<int64_t>& shape,
                      const std::set<size_t>& reduced) {
  IterPlan plan;
  plan.shape = shape;
  plan.noutputs = kernel.num_outputs();
  for (int o = 0; o <= kernel.num_outputs(); ++o) {
    const bool input = o == kernel.num_outputs();
    PlanOperand op;
    op.dtype = input ? kernel.dtype : kernel.out;
    op.data = reinterpret_cast<char*>(uintptr_t{1} << (40 + o));
    int64_t stride = info(op.dtype).itemsize;
    for (size_t d = 0; d < shape.size(); ++d) {
      const bool zero = !input && reduced.count(d) > 0;
      op.strides.push_back(zero ? 0 : stride);
      if (!zero) stride *= shape[d];
    }
    plan.operands.push_back(op);
  }
  return plan;
}

const ReduceKernel kSum{find_reduction_op("sum.IntList_out"), Dtype::kFloat32, Dtype::kFloat32};

TEST(ReducePlanning, APlanThatFits32BitsIsOneGroupAsPlanReducePlansIt) {
  const IterPlan plan = made_up_plan(kSum, {1000, 37}, {0});
  const std::vector<ReduceGroup> groups = plan_reduce_parts(kSum, plan, {});
  ASSERT_EQ(groups.size(), 1u);
  ASSERT_EQ(groups[0].parts.size(), 1u);
  const ReduceLaunch alone = plan_reduce(kSum, plan, {});
  EXPECT_EQ(groups[0].parts[0].launch.grid_x, alone.grid_x);
  EXPECT_EQ(groups[0].parts[0].launch.chunks, alone.chunks);
  EXPECT_EQ(groups[0].finalize.grid_x, alone.chunks > 1 ? alone.grid_x : 0u);
}

TEST(ReducePlanning, PlanReduceRefusesAPlanBeyond32BitsAndPlanReducePartsSplitsIt) {
  // 2^31 + 8 float32 elements: 8 parts of 2^28 + 1 elements keep every byte offset below 2^31.
  const IterPlan plan = made_up_plan(kSum, {k2To31 + 8}, {0});
  EXPECT_THROW(plan_reduce(kSum, plan, {}), BeyondKernelLimits);
  const std::vector<ReduceGroup> groups = plan_reduce_parts(kSum, plan, {});
  ASSERT_EQ(groups.size(), 1u);  // one output
  const ReduceGroup& g = groups[0];
  ASSERT_EQ(g.parts.size(), 8u);
  // Each part reduces its range into partials (kPartial), at its own place; the final launch
  // combines every chunk of every part.
  uint64_t reduced = 0, chunks = 0;
  for (const ReducePart& p : g.parts) {
    EXPECT_EQ(p.launch.args.mode, 1);
    EXPECT_EQ(p.partials_offset, chunks * jit::kPartialStride);
    EXPECT_EQ(p.launch.args.index_base, static_cast<int64_t>(reduced));
    EXPECT_EQ(p.launch.args.input, plan.operands[1].data + reduced * 4);
    EXPECT_EQ(p.launch.args.outputs[0], plan.operands[0].data);
    reduced += p.launch.args.num_reduced;
    chunks += p.launch.chunks;
  }
  EXPECT_EQ(reduced, static_cast<uint64_t>(k2To31 + 8));
  EXPECT_EQ(g.finalize.args.mode, 2);
  EXPECT_EQ(g.finalize.args.chunks, chunks);
  EXPECT_EQ(g.partial_bytes, chunks * jit::kPartialStride);
  // The steps: the parts' launches with their partials in one workspace, then the final one.
  char workspace[1];
  const std::vector<ReduceStep> steps = reduce_steps(g, workspace);
  ASSERT_EQ(steps.size(), 9u);
  EXPECT_EQ(steps[1].args.partials, workspace + g.parts[1].partials_offset);
  EXPECT_EQ(steps[8].args.partials, workspace);
  EXPECT_EQ(steps[8].grid_y, 1u);
}

TEST(ReducePlanning, KeptDimensionsAreSplitIntoGroupsWithTheirOwnOutputs) {
  // 2^31 + 2 outputs of 2 elements each: the outputs alone are beyond 32 bits.
  const IterPlan plan = made_up_plan(kSum, {2, k2To31 + 2}, {0});
  const std::vector<ReduceGroup> groups = plan_reduce_parts(kSum, plan, {});
  ASSERT_GE(groups.size(), 8u);  // the input's offsets: below 2^28 outputs per group
  uint64_t outputs = 0;
  for (const ReduceGroup& g : groups) {
    // A group may also split its 2 reduced elements: its parts share its outputs.
    uint32_t reduced = 0;
    for (const ReducePart& p : g.parts) {
      EXPECT_EQ(p.launch.args.outputs[0],
                plan.operands[0].data + static_cast<int64_t>(outputs) * 4);
      EXPECT_EQ(p.launch.args.num_outputs, g.parts[0].launch.args.num_outputs);
      reduced += p.launch.args.num_reduced;
    }
    EXPECT_EQ(reduced, 2u);
    EXPECT_EQ(g.parts[0].launch.args.input,
              plan.operands[1].data + static_cast<int64_t>(outputs) * 8);
    outputs += g.parts[0].launch.args.num_outputs;
  }
  EXPECT_EQ(outputs, static_cast<uint64_t>(k2To31 + 2));
}

TEST(ReducePlanning, AnIndexReductionOverSeveralDimensionsBeyond32BitsFallsBackToTheCpu) {
  // argmax reduces one dim (or the flattened input); a plan reducing two that must be split
  // would count its indices in pieces that are not ranges: the plugin runs it on the CPU.
  const std::optional<ReduceKernel> argmax =
      natural_reduction(*find_reduction_op("argmax.out"), Dtype::kFloat32);
  ASSERT_TRUE(argmax.has_value());
  const IterPlan plan = made_up_plan(*argmax, {1 << 16, (1 << 15) + 1}, {0, 1});
  EXPECT_THROW(plan_reduce_parts(*argmax, plan, {}), BeyondKernelLimits);
  // One reduced dimension splits.
  EXPECT_EQ(plan_reduce_parts(*argmax, made_up_plan(*argmax, {k2To31 + 2}, {0}), {}).size(), 1u);
}

// ---- Emulated runs over more than 2^31 elements ------------------------------------------------

class Reduce64BitEmulation : public ::testing::Test {
 protected:
  // Reduces `input` (a view on the emulated device) over `dims` with kernel k, as the plugin
  // plans it, into new outputs (keepdim); returns them.
  std::vector<Tensor> reduce(const ReduceKernel& k, const Tensor& input,
                             const std::vector<int64_t>& dims) {
    ReductionCall call = reduction_call(device_, k, input, dims);
    std::vector<Tensor>& outputs = call.outputs;
    const IterPlan plan = plan_of(call.iter);
    EXPECT_FALSE(fits_32bit(plan)) << "the case is meant to need 64-bit indexing";
    const emulation::EmulatedKernel kernel = emulation::find_emulated_kernel(k.entry_name());
    EXPECT_TRUE(kernel) << k.entry_name() << " was not built for emulation";
    if (!kernel) return outputs;
    for (const ReduceGroup& group : plan_reduce_parts(k, plan, {})) {
      ++groups_;
      parts_ += static_cast<int>(group.parts.size());
      std::vector<char> workspace(group.partial_bytes);
      for (const ReduceStep& s : reduce_steps(group, workspace.data())) {
        emulation::emulate_launch(kernel, {s.grid_x, s.grid_y}, {s.block_x, s.block_y}, &s.args);
      }
    }
    return outputs;
  }

  EmulatedDevice device_;
  int groups_ = 0, parts_ = 0;
};

TEST_F(Reduce64BitEmulation, SumOfAnExpandedInputOfMoreThan2To31ElementsMatchesTheCpu) {
  // One value repeated 2^31 + 5 times (stride 0): one reduced range beyond 32 bits.
  constexpr int64_t kCount = k2To31 + 5;
  Tensor base = cpu_tensor({1}, ScalarType::kInt64);
  base.data_ptr<int64_t>()[0] = 1000003;
  const Tensor input = native::as_strided(device_.copy_of(base), {kCount}, {0});
  const ReduceKernel sum{find_reduction_op("sum.IntList_out"), Dtype::kInt64, Dtype::kInt64};
  const std::vector<Tensor> out = reduce(sum, input, {0});

  const Tensor expected = cpu_tensor({1}, ScalarType::kInt64);
  call_op("sum.IntList_out",
          {Value(native::as_strided(base, {kCount}, {0})), Value(std::vector<int64_t>{0}),
           Value(true), Value(), Value(expected)});
  EXPECT_EQ(expected.data_ptr<int64_t>()[0], 1000003 * kCount);
  expect_same_values(out[0], expected, "sum of 2^31 + 5 elements (stride 0)");
  EXPECT_EQ(groups_, 1);
  EXPECT_EQ(parts_, 2);
}

// Overlapping windows: element (l, m) is values[l + m]. 2^24 + 3 rows of 129 columns are
// 2164260999 elements over 2^24 + 131 values (64 MB).
constexpr int64_t kRows = (int64_t{1} << 24) + 3, kColumns = 129;

// kRows + kColumns - 1 float values with many ties, larger in the last quarter: every column's
// first maximum is in the second half of the rows, where the second part counts indices from.
Tensor window_values() {
  const int64_t n = kRows + kColumns - 1;
  Tensor t = cpu_tensor({n}, ScalarType::kFloat32);
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const int64_t v = static_cast<int64_t>(x % 2003) - 1001 + (i > n / 4 * 3 ? 5000 : 0);
    t.data_ptr<float>()[i] = static_cast<float>(v);
  }
  return t;
}

TEST_F(Reduce64BitEmulation, ArgmaxAlongALongDimCountsIndicesAcrossParts) {
  const Tensor values = window_values();
  const Tensor input = native::as_strided(device_.copy_of(values), {kRows, kColumns}, {1, 1});
  ASSERT_GT(input.numel(), k2To31);
  const std::optional<ReduceKernel> argmax =
      natural_reduction(*find_reduction_op("argmax.out"), Dtype::kFloat32);
  ASSERT_TRUE(argmax.has_value());
  const std::vector<Tensor> out = reduce(*argmax, input, {0});

  const Tensor expected = cpu_tensor({1, kColumns}, ScalarType::kInt64);
  call_op("argmax.out", {Value(native::as_strided(values, {kRows, kColumns}, {1, 1})),
                         Value(int64_t{0}), Value(true), Value(expected)});
  for (int64_t m = 0; m < kColumns; ++m) {
    ASSERT_GT(expected.data_ptr<int64_t>()[m], kRows / 2) << "column " << m;
  }
  expect_same_values(out[0], expected, "argmax over dim 0 of windows [2^24 + 3, 129]");
  EXPECT_EQ(groups_, 1);
  EXPECT_EQ(parts_, 2);
}

}  // namespace
}  // namespace bp::cuda
