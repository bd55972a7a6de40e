// Helpers of the NVRTC compile tests (nvrtc_compile_test: a representative subset, every op and
// every dtype at least once; nvrtc_compile_full_test: the full matrix, tagged manual): compile
// many kernels in shared NVRTC programs and expect each program to compile, naming its kernels
// and printing NVRTC's log on failure, and the kernel count and compile time otherwise.
//
//   expect_compiles(kernels_of(*find_pointwise_op("add.out")), 90, Depth::kFrontEnd, "add.out");
//
// Thread safety: call from one thread (gtest bodies).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_TEST_SUPPORT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_TEST_SUPPORT_H_

#include <string>
#include <vector>

#include "reference_backend/cuda/along_dim_kernel.h"
#include "reference_backend/cuda/gemm_kernel.h"
#include "reference_backend/cuda/indexing_kernel.h"
#include "reference_backend/cuda/kernel_catalog.h"
#include "reference_backend/cuda/kernel_source.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_catalog.h"

namespace bp::cuda::testing {

inline constexpr int kArchs[] = {80, 90};

// kFrontEnd: parsing and template instantiation only (--fdevice-syntax-only), which is where a
// functor using a primitive the device prelude lacks fails; kMachineCode: a CUBIN.
enum class Depth { kFrontEnd, kMachineCode };

void expect_compiles(const std::vector<ElementwiseKernel>& kernels, int arch, Depth depth,
                     const std::string& what);
// Kernels that are whole entry points of their own (reductions, scans, normalisations).
struct EntryPoint {
  std::string source, entry_name;
};
void expect_entry_points_compile(const std::vector<EntryPoint>& kernels, int arch, Depth depth,
                                 const std::string& what);
// The same for any kernels with source() and entry_name() (ReduceKernel, AlongDimKernel).
template <typename Kernel>
void expect_entry_points_compile(const std::vector<Kernel>& kernels, int arch, Depth depth,
                                 const std::string& what) {
  std::vector<EntryPoint> entries;
  for (const Kernel& k : kernels) entries.push_back({k.source(), k.entry_name()});
  expect_entry_points_compile(entries, arch, depth, what);
}

// The names of every pointwise op ("add.out"), for parameterised tests.
// One per row: "add.out", or "clamp.out/ClampMin" for an alternative of an op's math list.
std::vector<std::string> pointwise_op_names();
// The row a name of pointwise_op_names() stands for.
const PointwiseOp& pointwise_row(const std::string& key);

// Whether `k` is the plain vectorised (width 4) kernel without CPU scalars.
bool is_plain_vectorized(const ElementwiseKernel& k);

}  // namespace bp::cuda::testing

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_NVRTC_TEST_SUPPORT_H_
