// The full NVRTC compile matrix (tagged manual: minutes of NVRTC time; run it when changing the
// prelude, the kernel templates or the math, and before a release):
//   - every elementwise kernel of every pointwise op passes the front end for sm_80 and sm_90;
//   - every op in every dtype compiles to machine code for sm_90 (its vectorised kernel);
//   - every variant of one op per input count compiles to machine code for both architectures in
//     float32, float16 and bfloat16;
//   - each reduction, and sum in every dtype, compiles to machine code for both.
// nvrtc_compile_test runs a representative subset of this by default.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/nvrtc_test_support.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda::testing {
namespace {

class PointwiseOpCompilesFully : public ::testing::TestWithParam<std::string> {
 protected:
  const PointwiseOp& op() const { return pointwise_row(GetParam()); }
};

TEST_P(PointwiseOpCompilesFully, EveryKernelPassesTheFrontEndForSm80AndSm90) {
  const std::vector<ElementwiseKernel> kernels = kernels_of(op());
  ASSERT_FALSE(kernels.empty()) << op().name
                                << ": no kernel (its meta function refuses every dtype "
                                << "it declares?)";
  for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kFrontEnd, GetParam());
}

TEST_P(PointwiseOpCompilesFully, EveryDtypeCompilesToMachineCodeForSm90) {
  std::vector<ElementwiseKernel> vectorized;
  for (const ElementwiseKernel& k : kernels_of(op())) {
    if (is_plain_vectorized(k)) vectorized.push_back(k);
  }
  ASSERT_FALSE(vectorized.empty());
  expect_compiles(vectorized, 90, Depth::kMachineCode, GetParam() + " vectorised");
}

INSTANTIATE_TEST_SUITE_P(AllOps, PointwiseOpCompilesFully,
                         ::testing::ValuesIn(pointwise_op_names()),
                         [](const auto& info) { return identifier(info.param); });

TEST(ElementwiseCompilesFully, EveryVariantOfOneOpPerInputCountCompilesToMachineCode) {
  std::vector<int> arities_seen;
  for (const PointwiseOp& op : pointwise_ops()) {
    if (std::find(arities_seen.begin(), arities_seen.end(), op.num_inputs) != arities_seen.end()) {
      continue;
    }
    arities_seen.push_back(op.num_inputs);
    std::vector<ElementwiseKernel> kernels;
    for (const ElementwiseKernel& k : kernels_of(op)) {
      if (k.dtype == Dtype::kFloat32 || k.dtype == Dtype::kFloat16 || k.dtype == Dtype::kBFloat16) {
        kernels.push_back(k);
      }
    }
    for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kMachineCode, op.name);
  }
  EXPECT_FALSE(arities_seen.empty());
}

TEST(ReductionCompilesFully, EachReductionAndSumInEveryDtypeCompileToMachineCode) {
  std::vector<ReduceKernel> kernels;
  std::set<std::string> seen;
  for (const ReduceKernel& k : reduction_kernels()) {
    const bool first = seen.insert(k.family()).second;
    if (first || k.family() == "SumOps_v") kernels.push_back(k);
  }
  EXPECT_EQ(seen.size(), reduction_families().size());
  for (int arch : kArchs) {
    expect_entry_points_compile(kernels, arch, Depth::kMachineCode, "reductions");
  }
}

}  // namespace
}  // namespace bp::cuda::testing
