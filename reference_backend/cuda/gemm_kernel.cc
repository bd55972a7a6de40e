#include "reference_backend/cuda/gemm_kernel.h"

#include <algorithm>

#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

constexpr int64_t kMaxGridY = 65535;  // CUDA's limit on gridDim.y and gridDim.z

// The byte offset of the furthest element of an operand of `sizes`, past 32 bits or with a
// negative stride: BeyondKernelLimits. Its strides in bytes otherwise.
void byte_strides(const GemmOperand& o, std::array<int64_t, 3> sizes, int64_t itemsize,
                  uint32_t (&out)[3]) {
  uint64_t extent = 0;
  for (int d = 0; d < 3; ++d) {
    if (o.strides[d] < 0) throw BeyondKernelLimits("a CUDA matrix product with negative strides");
    extent += static_cast<uint64_t>((sizes[d] - 1) * o.strides[d] * itemsize);
    if (extent > UINT32_MAX) {
      throw BeyondKernelLimits("a CUDA matrix product that needs 64-bit indexing");
    }
  }
  for (int d = 0; d < 3; ++d) out[d] = static_cast<uint32_t>(o.strides[d] * itemsize);
}

}  // namespace

bool gemm_supports(Dtype dtype) { return dtype != Dtype::kBool && dtype != Dtype::kFloat16; }

Dtype gemm_compute_dtype(Dtype dtype) {
  if (info(dtype).is_integral) return Dtype::kInt64;
  return compute_dtype(dtype);
}

std::string GemmKernel::entry_name() const { return "gemm__" + std::string(info(dtype).name); }

std::string GemmKernel::source() const {
  return "extern \"C\" __global__ void __launch_bounds__(bp::jit::kGemmTile * "
         "bp::jit::kGemmTile) " +
         entry_name() + "(const bp::jit::GemmArgs args) {\n  bp::jit::gemm_tiles<" +
         std::string(info(dtype).device_type) + ", " +
         std::string(info(gemm_compute_dtype(dtype)).device_type) + ">(args);\n}\n";
}

std::vector<GemmKernel> all_gemm_kernels() {
  std::vector<GemmKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    if (gemm_supports(dtype_of_code(d))) kernels.push_back({dtype_of_code(d)});
  }
  return kernels;
}

GemmLaunch plan_gemm(const GemmKernel& kernel, const GemmGeometry& g) {
  GemmLaunch launch;
  launch.kernel = kernel;
  if (g.batches == 0 || g.n == 0 || g.p == 0) return launch;
  const int64_t itemsize = info(kernel.dtype).itemsize;
  // Indices (row, column, k) stay below 2^31 with a tile's margin; rows by gridDim.y's limit.
  if (g.n > kMaxGridY * jit::kGemmTile || std::max({g.p, g.k, g.batches}) > INT32_MAX) {
    throw BeyondKernelLimits("a CUDA matrix product beyond the kernel's grid");
  }
  jit::GemmArgs& a = launch.args;
  const int64_t one = std::max<int64_t>(g.k, 1);  // k = 0: a and b are not read
  byte_strides(g.out, {g.batches, g.n, g.p}, itemsize, a.out_strides);
  byte_strides(g.a, {g.batches, g.n, one}, itemsize, a.a_strides);
  byte_strides(g.b, {g.batches, one, g.p}, itemsize, a.b_strides);
  if (g.add) byte_strides(g.c, {g.batches, g.n, g.p}, itemsize, a.c_strides);
  a.batches = static_cast<uint32_t>(g.batches);
  a.n = static_cast<uint32_t>(g.n);
  a.p = static_cast<uint32_t>(g.p);
  a.k = static_cast<uint32_t>(g.k);
  a.out = static_cast<char*>(const_cast<void*>(g.out.data));
  a.a = static_cast<const char*>(g.a.data);
  a.b = static_cast<const char*>(g.b.data);
  a.c = g.add ? static_cast<const char*>(g.c.data) : nullptr;
  a.add = g.add ? 1 : 0;
  a.alpha = g.alpha;
  a.beta = g.beta;
  launch.grid_x = static_cast<unsigned>((g.p + jit::kGemmTile - 1) / jit::kGemmTile);
  launch.grid_y = static_cast<unsigned>((g.n + jit::kGemmTile - 1) / jit::kGemmTile);
  launch.grid_z = static_cast<unsigned>(std::min(g.batches, kMaxGridY));
  return launch;
}

}  // namespace bp::cuda
