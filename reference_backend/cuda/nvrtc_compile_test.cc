// NVRTC compiles what the plugin can produce, without a GPU: the default run's representative
// subset (the full matrix is nvrtc_compile_full_test, tagged manual: it takes minutes):
//   - every elementwise kernel (kernel_catalog.h: every op, dtype, variant and CPU-scalar
//     position) of every pointwise op passes NVRTC's front end for sm_90 (where a math functor
//     that uses a primitive the device prelude lacks fails);
//   - machine code (CUBIN) for sm_80 and sm_90 of every op once (its vectorised kernel in one
//     dtype), of every dtype once, of every variant of one op per input count in float16 (whose
//     conversions differ per architecture), of copies to and from float32 and of fills;
//   - every reduction kernel passes the front end for both architectures, and each reduction
//     compiles to machine code once;
//   - every range factory kernel (arange, linspace, logspace) passes the front end for both
//     architectures, and each compiles to machine code in float32;
//   - every scan and normalisation kernel passes the front end for sm_80 and compiles to
//     machine code for sm_90;
//   - every kernel of the fused-group catalogue (fused_group_catalog.h) compiles to machine code
//     for sm_80 and sm_90.
// Each test prints its kernel count and compile time.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/fused_group_catalog.h"
#include "reference_backend/cuda/nvrtc.h"
#include "reference_backend/cuda/nvrtc_test_support.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda::testing {
namespace {

class PointwiseOpCompiles : public ::testing::TestWithParam<std::string> {
 protected:
  const PointwiseOp& op() const { return pointwise_row(GetParam()); }
};

TEST_P(PointwiseOpCompiles, EveryKernelPassesTheFrontEndForSm90) {
  const std::vector<ElementwiseKernel> kernels = kernels_of(op());
  ASSERT_FALSE(kernels.empty()) << op().name
                                << ": no kernel (its meta function refuses every dtype "
                                << "it declares?)";
  expect_compiles(kernels, 90, Depth::kFrontEnd, GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllOps, PointwiseOpCompiles, ::testing::ValuesIn(pointwise_op_names()),
                         [](const auto& info) { return identifier(info.param); });

// The dtype an op is compiled in when it is compiled once: float32 when it supports it.
Dtype representative_dtype(const PointwiseOp& op) {
  if (op.supports(Dtype::kFloat32)) return Dtype::kFloat32;
  for (int d = 0; d < kNumDtypes; ++d) {
    if (op.supports(dtype_of_code(d))) return dtype_of_code(d);
  }
  return Dtype::kFloat32;
}

TEST(ElementwiseCompiles, EveryOpCompilesToMachineCodeOnceForSm80AndSm90) {
  std::vector<ElementwiseKernel> kernels;
  for (const PointwiseOp& op : pointwise_ops()) {
    const Dtype dtype = representative_dtype(op);
    for (const ElementwiseKernel& k : kernels_of(op)) {
      if (is_plain_vectorized(k) && k.dtype == dtype) kernels.push_back(k);
    }
  }
  EXPECT_EQ(kernels.size(), pointwise_ops().size());
  for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kMachineCode, "every op once");
}

TEST(ElementwiseCompiles, EveryDtypeCompilesToMachineCodeOnceForSm80AndSm90) {
  // For each dtype, the vectorised kernel of the first op that supports it.
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    for (const PointwiseOp& op : pointwise_ops()) {
      if (!op.supports(dtype_of_code(d))) continue;
      for (const ElementwiseKernel& k : kernels_of(op)) {
        if (is_plain_vectorized(k) && k.dtype == dtype_of_code(d)) kernels.push_back(k);
      }
      break;
    }
  }
  EXPECT_EQ(kernels.size(), static_cast<size_t>(kNumDtypes));
  for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kMachineCode, "every dtype once");
}

TEST(ElementwiseCompiles, EveryVariantOfOneOpPerInputCountCompilesToMachineCodeInFloat16) {
  std::vector<int> arities_seen;
  for (const PointwiseOp& op : pointwise_ops()) {
    if (!op.supports(Dtype::kFloat16) ||
        std::find(arities_seen.begin(), arities_seen.end(), op.num_inputs) != arities_seen.end()) {
      continue;
    }
    arities_seen.push_back(op.num_inputs);
    std::vector<ElementwiseKernel> kernels;
    for (const ElementwiseKernel& k : kernels_of(op)) {
      if (k.dtype == Dtype::kFloat16) kernels.push_back(k);
    }
    for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kMachineCode, op.name);
  }
  EXPECT_EQ(arities_seen.size(), 3u);  // unary, binary and ternary ops
}

TEST(ElementwiseCompiles, CopiesBetweenEveryPairOfDtypesAndFillsCompile) {
  for (int arch : kArchs) {
    expect_compiles(copy_kernels(), arch, Depth::kFrontEnd, "copy");
    expect_compiles(fill_kernels(), arch, Depth::kFrontEnd, "fill");
  }
  // Machine code for the copies to and from float32 (every conversion routine once).
  std::vector<ElementwiseKernel> vectorized, strided;
  for (const ElementwiseKernel& k : copy_kernels()) {
    if (k.dtype != Dtype::kFloat32 && k.out_dtype != Dtype::kFloat32) continue;
    if (k.variant == Variant::kVectorized && k.vec == 4) vectorized.push_back(k);
    if (k.variant == Variant::kStrided) strided.push_back(k);
  }
  expect_compiles(vectorized, 90, Depth::kMachineCode, "copy vectorised");
  expect_compiles(strided, 80, Depth::kMachineCode, "copy strided");
  expect_compiles(fill_kernels(), 90, Depth::kMachineCode, "fill");
}

// The range factories' kernels (no inputs; the element's index; linspace's and logspace's
// arguments of their own types: int64 steps, double base), every dtype through the front end for
// both architectures, and machine code for float32.
TEST(ElementwiseCompiles, RangeFactoriesCompileInEveryDtype) {
  const std::vector<std::pair<std::string, std::vector<ElementwiseKernel>>> factories = {
      {"arange", arange_kernels()},
      {"linspace", linspace_kernels()},
      {"logspace", logspace_kernels()}};
  for (const auto& [name, kernels] : factories) {
    ASSERT_FALSE(kernels.empty()) << name;
    for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kFrontEnd, name);
    std::vector<ElementwiseKernel> float32;
    for (const ElementwiseKernel& k : kernels) {
      if (k.out_dtype == Dtype::kFloat32 && is_plain_vectorized(k)) float32.push_back(k);
    }
    ASSERT_EQ(float32.size(), 1u) << name;
    expect_compiles(float32, 80, Depth::kMachineCode, name + " float32");
  }
  // Every dtype their Meta kernels accept: all but bool, and for logspace not float16.
  EXPECT_EQ(linspace_kernels().size(), 4u * (kNumDtypes - 1));
  EXPECT_EQ(logspace_kernels().size(), 4u * (kNumDtypes - 2));
}

TEST(ElementwiseCompiles, AKernelWithAnUndefinedPrimitiveFailsWithNvrtcsMessage) {
  Computation broken = computation_of(pointwise_ops()[0]);
  broken.name = "broken";
  broken.expression = "bp::math::no_such_primitive(in[0])";
  ProgramSource program;
  program.add({broken, Dtype::kFloat32, Dtype::kFloat32, Variant::kVectorized, 4, 0});
  const Nvrtc::Output out = Nvrtc::get().compile(program.text(), "broken.cu", 90, Nvrtc::kCubin,
                                                 {"--fdevice-syntax-only"});
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.log.find("no_such_primitive"), std::string::npos) << out.log;
}

TEST(ReductionCompiles, EveryReductionKernelPassesTheFrontEndForSm80AndSm90) {
  const std::vector<ReduceKernel> kernels = reduction_kernels();
  ASSERT_FALSE(kernels.empty());
  for (int arch : kArchs)
    expect_entry_points_compile(kernels, arch, Depth::kFrontEnd, "reductions");
}

TEST(ReductionCompiles, EveryReductionCompilesToMachineCodeOnceForSm90) {
  std::vector<ReduceKernel> kernels;
  std::set<std::string> seen;
  for (const ReduceKernel& k : reduction_kernels()) {
    if (seen.insert(k.family()).second) kernels.push_back(k);
  }
  EXPECT_EQ(seen.size(), reduction_families().size());
  expect_entry_points_compile(kernels, 90, Depth::kMachineCode, "reductions");
}

TEST(AlongDimCompiles, EveryScanAndNormalisationKernelCompilesToMachineCode) {
  const std::vector<AlongDimKernel> kernels = all_along_dim_kernels();
  ASSERT_FALSE(kernels.empty());
  expect_entry_points_compile(kernels, 80, Depth::kFrontEnd, "scans and normalisations");
  expect_entry_points_compile(kernels, 90, Depth::kMachineCode, "scans and normalisations");
}

TEST(GemmCompiles, EveryMatrixProductKernelCompilesToMachineCode) {
  const std::vector<GemmKernel> kernels = all_gemm_kernels();
  ASSERT_FALSE(kernels.empty());
  expect_entry_points_compile(kernels, 80, Depth::kFrontEnd, "matrix products");
  expect_entry_points_compile(kernels, 90, Depth::kMachineCode, "matrix products");
}

TEST(IndexingCompiles, EveryIndexingKernelCompilesToMachineCode) {
  const std::vector<IndexKernel> kernels = all_indexing_kernels();
  ASSERT_FALSE(kernels.empty());
  expect_entry_points_compile(kernels, 80, Depth::kFrontEnd, "indexing");
  expect_entry_points_compile(kernels, 90, Depth::kMachineCode, "indexing");
}

TEST(FusedGroupCompiles, EveryCatalogueKernelCompilesToMachineCodeForSm80AndSm90) {
  const std::vector<FusedKernel> kernels = fused_catalog_kernels();
  ASSERT_FALSE(kernels.empty());
  for (int arch : kArchs)
    expect_entry_points_compile(kernels, arch, Depth::kMachineCode, "fused groups");
}

}  // namespace
}  // namespace bp::cuda::testing
