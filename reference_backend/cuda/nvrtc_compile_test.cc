// NVRTC compiles every kernel the plugin can produce, without a GPU:
//   - every elementwise kernel (kernel_catalog.h) of every pointwise op, copy and fill passes
//     NVRTC's front end (parsing and template instantiation: where a math functor that uses a
//     primitive the device prelude lacks fails) for sm_80 and sm_90;
//   - every op in every dtype compiles to machine code (CUBIN) for sm_90 (its vectorised
//     kernel), and every variant of one op per input count compiles for both architectures in
//     float32, float16 and bfloat16 (the dtypes whose conversions differ per architecture);
//   - every reduction kernel (reduce_kernel.h) compiles to machine code for both.
// Many kernels share one NVRTC program (cheaper than one program each); a failure names the
// program's kernels and prints NVRTC's log. Each test prints its kernel count and compile time.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/kernel_source.h"
#include "reference_backend/cuda/nvrtc.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "reference_backend/cuda/reduce_kernel.h"

namespace bp::cuda {
namespace {

constexpr int kArchs[] = {80, 90};
// Kernels per program: NVRTC's cost grows with the program, and a failing program's kernels are
// listed in the failure.
constexpr size_t kProgramSize = 400;

enum class Depth { kFrontEnd, kMachineCode };

// Compiles `kernels` for `arch` in programs of kProgramSize; expects every program to compile.
void expect_compiles(const std::vector<ElementwiseKernel>& kernels, int arch, Depth depth,
                     const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t begin = 0; begin < kernels.size(); begin += kProgramSize) {
    ProgramSource program;
    for (size_t i = begin; i < std::min(kernels.size(), begin + kProgramSize); ++i) {
      program.add(kernels[i]);
    }
    const Nvrtc::Output out = Nvrtc::get().compile(
        program.text(), what + ".cu", arch, Nvrtc::kCubin,
        depth == Depth::kFrontEnd ? std::vector<std::string>{"--fdevice-syntax-only"}
                                  : std::vector<std::string>{});
    std::string names;
    for (const std::string& n : program.entry_names()) names += " " + n;
    ASSERT_TRUE(out.ok) << what << " for sm_" << arch << " does not compile:\n"
                        << out.log << "\nkernels:" << names;
    if (depth == Depth::kMachineCode) {
      EXPECT_GT(out.binary.size(), 0u);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[nvrtc] " << what << ": " << kernels.size() << " kernels, "
            << (depth == Depth::kFrontEnd ? "front end" : "CUBIN") << " sm_" << arch << ", "
            << seconds << " s\n";
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const PointwiseOp& op : pointwise_ops()) names.push_back(op.name);
  return names;
}

class PointwiseOpCompiles : public ::testing::TestWithParam<std::string> {
 protected:
  const PointwiseOp& op() const { return *find_pointwise_op(GetParam()); }
};

TEST_P(PointwiseOpCompiles, EveryKernelPassesTheFrontEndForSm80AndSm90) {
  const std::vector<ElementwiseKernel> kernels = kernels_of(op());
  ASSERT_FALSE(kernels.empty()) << op().name << ": the plugin does not know its meta function '"
                                << op().meta << "' (meta_kinds.cc)";
  for (int arch : kArchs) expect_compiles(kernels, arch, Depth::kFrontEnd, GetParam());
}

TEST_P(PointwiseOpCompiles, EveryDtypeCompilesToMachineCodeForSm90) {
  std::vector<ElementwiseKernel> vectorized;
  for (const ElementwiseKernel& k : kernels_of(op())) {
    if (k.scalar_mask == 0 && k.variant == Variant::kVectorized && k.vec == 4) {
      vectorized.push_back(k);
    }
  }
  ASSERT_FALSE(vectorized.empty());
  expect_compiles(vectorized, 90, Depth::kMachineCode, GetParam() + " vectorised");
}

INSTANTIATE_TEST_SUITE_P(AllOps, PointwiseOpCompiles, ::testing::ValuesIn(op_names()),
                         [](const auto& info) { return identifier(info.param); });

TEST(ElementwiseCompiles, EveryVariantOfOneOpPerInputCountCompilesToMachineCode) {
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

// Compiles reduction kernels in programs of 40; expects each program to compile.
void expect_reductions_compile(const std::vector<ReduceKernel>& kernels, int arch, Depth depth,
                               const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t begin = 0; begin < kernels.size(); begin += 40) {
    ProgramSource program;
    for (size_t i = begin; i < std::min(kernels.size(), begin + 40); ++i) {
      program.add_text(kernels[i].source(), kernels[i].entry_name());
    }
    const Nvrtc::Output out = Nvrtc::get().compile(
        program.text(), "reduce.cu", arch, Nvrtc::kCubin,
        depth == Depth::kFrontEnd ? std::vector<std::string>{"--fdevice-syntax-only"}
                                  : std::vector<std::string>{});
    std::string names;
    for (const std::string& n : program.entry_names()) names += " " + n;
    ASSERT_TRUE(out.ok) << what << " for sm_" << arch << " do not compile:\n"
                        << out.log << "\nkernels:" << names;
  }
  std::cout << "[nvrtc] " << what << ": " << kernels.size() << " kernels, "
            << (depth == Depth::kFrontEnd ? "front end" : "CUBIN") << " sm_" << arch << ", "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
}

TEST(ReductionCompiles, EveryReductionKernelPassesTheFrontEndForSm80AndSm90) {
  const std::vector<ReduceKernel> kernels = all_reduce_kernels();
  ASSERT_FALSE(kernels.empty());
  for (int arch : kArchs) expect_reductions_compile(kernels, arch, Depth::kFrontEnd, "reductions");
}

TEST(ReductionCompiles, EveryReductionCompilesToMachineCodeForSm80AndSm90) {
  // Each reduction once (its first dtype), and sum in every dtype.
  std::vector<ReduceKernel> kernels;
  std::vector<ReduceOp> seen;
  for (const ReduceKernel& k : all_reduce_kernels()) {
    const bool first = std::find(seen.begin(), seen.end(), k.op) == seen.end();
    if (first) seen.push_back(k.op);
    if (first || k.op == ReduceOp::kSum) kernels.push_back(k);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kNumReduceOps));
  for (int arch : kArchs) {
    expect_reductions_compile(kernels, arch, Depth::kMachineCode, "reductions");
  }
}

}  // namespace
}  // namespace bp::cuda
