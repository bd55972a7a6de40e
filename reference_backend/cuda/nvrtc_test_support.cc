#include "reference_backend/cuda/nvrtc_test_support.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>

#include "gtest/gtest.h"
#include "reference_backend/cuda/nvrtc.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda::testing {
namespace {

// Kernels per program: NVRTC's cost grows with the program, and a failing program's kernels are
// listed in the failure. Reduction, scan and normalisation kernels are larger.
constexpr size_t kProgramSize = 400;
constexpr size_t kReductionProgramSize = 40;

// Compiles `add(program, i)` for i in [0, count) in programs of `program_size`.
template <typename Add>
void compile_in_programs(size_t count, size_t program_size, Add add, int arch, Depth depth,
                         const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t begin = 0; begin < count; begin += program_size) {
    ProgramSource program;
    for (size_t i = begin; i < std::min(count, begin + program_size); ++i) add(program, i);
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
  std::cout << "[nvrtc] " << what << ": " << count << " kernels, "
            << (depth == Depth::kFrontEnd ? "front end" : "CUBIN") << " sm_" << arch << ", "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s\n";
}

}  // namespace

void expect_compiles(const std::vector<ElementwiseKernel>& kernels, int arch, Depth depth,
                     const std::string& what) {
  compile_in_programs(
      kernels.size(), kProgramSize,
      [&](ProgramSource& program, size_t i) { program.add(kernels[i]); }, arch, depth, what);
}

void expect_entry_points_compile(const std::vector<EntryPoint>& kernels, int arch, Depth depth,
                                 const std::string& what) {
  compile_in_programs(
      kernels.size(), kReductionProgramSize,
      [&](ProgramSource& program, size_t i) {
        program.add_text(kernels[i].source, kernels[i].entry_name);
      },
      arch, depth, what);
}

std::vector<std::string> pointwise_op_names() {
  std::vector<std::string> names;
  for (const PointwiseOp& op : pointwise_ops()) {
    const bool alternative = pointwise_alternatives(op.name).size() > 1;
    names.push_back(alternative ? std::string(op.name) + "/" + op.functor : op.name);
  }
  return names;
}

const PointwiseOp& pointwise_row(const std::string& key) {
  const size_t slash = key.find('/');
  for (const PointwiseOp& row : pointwise_alternatives(key.substr(0, slash))) {
    if (slash == std::string::npos || key.substr(slash + 1) == row.functor) return row;
  }
  throw std::invalid_argument("no pointwise row " + key);
}

bool is_plain_vectorized(const ElementwiseKernel& k) {
  return k.scalar_mask == 0 && k.variant == Variant::kVectorized && k.vec == 4;
}

}  // namespace bp::cuda::testing
