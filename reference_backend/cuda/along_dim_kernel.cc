#include "reference_backend/cuda/along_dim_kernel.h"

#include <algorithm>
#include <cctype>

#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

std::string type(Dtype d) { return std::string(info(d).device_type); }

std::string identifier(const char* name) {
  std::string id = name;
  std::replace_if(
      id.begin(), id.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return id;
}

}  // namespace

std::string AlongDimKernel::entry_name() const {
  return identifier(op->name) + "__" + std::string(info(dtype).name);
}

std::string AlongDimKernel::source() const {
  const std::string s = type(dtype);
  const std::string call =
      op->family == AlongDimFamily::kScan
          ? "scan_lines<bp::math::" + std::string(op->functor) + "<" + s + ">, " + s + ">"
          : "normalize_lines<bp::math::" + std::string(op->functor) + ", " + s + ", " +
                type(compute_dtype(dtype)) + ">";
  return "extern \"C\" __global__ void __launch_bounds__(bp::jit::kLineThreads) " + entry_name() +
         "(const bp::jit::LineArgs args) {\n  bp::jit::" + call + "(args);\n}\n";
}

std::vector<AlongDimKernel> all_along_dim_kernels() {
  std::vector<AlongDimKernel> kernels;
  for (const AlongDimOp& op : along_dim_ops()) {
    for (int d = 0; d < kNumDtypes; ++d) {
      if (op.supports(dtype_of_code(d))) kernels.push_back({&op, dtype_of_code(d)});
    }
  }
  return kernels;
}

AlongDimLaunch plan_along_dim(const AlongDimKernel& kernel, const LineGeometry& g, int64_t dim) {
  AlongDimLaunch launch;
  launch.kernel = kernel;
  jit::LineArgs& a = launch.args;
  const int64_t itemsize = info(kernel.dtype).itemsize;
  const size_t ndim = g.sizes.size();
  uint64_t num_lines = 1;
  const bool indexed = g.indices != nullptr;
  // Byte offsets must fit 32 bits: the furthest element of each operand.
  uint64_t out_extent = 0, in_extent = 0, indices_extent = 0;
  for (size_t d = 0; d < ndim; ++d) {
    if (g.sizes[d] == 0) return launch;
    out_extent += static_cast<uint64_t>((g.sizes[d] - 1) * g.out_strides[d] * itemsize);
    in_extent += static_cast<uint64_t>((g.sizes[d] - 1) * g.in_strides[d] * itemsize);
    if (indexed) {
      indices_extent += static_cast<uint64_t>((g.sizes[d] - 1) * g.indices_strides[d] * 8);
    }
  }
  if (std::max({out_extent, in_extent, indices_extent}) > UINT32_MAX) {
    throw BeyondKernelLimits("a CUDA scan or normalisation that needs 64-bit indexing");
  }
  // The other dims, fastest (last) first, size-1 dims dropped.
  a.lines.ndim = 0;
  for (size_t k = ndim; k-- > 0;) {
    if (static_cast<int64_t>(k) == dim || g.sizes[k] == 1) continue;
    if (a.lines.ndim == jit::kMaxDims) {
      throw BeyondKernelLimits("too many dimensions for a CUDA scan or normalisation");
    }
    const int i = a.lines.ndim++;
    a.lines.sizes[i] = fast_divider(static_cast<uint32_t>(g.sizes[k]));
    a.lines.strides[i][0] = static_cast<uint32_t>(g.out_strides[k] * itemsize);
    a.lines.strides[i][1] = indexed ? static_cast<uint32_t>(g.indices_strides[k] * 8) : 0;
    a.lines.strides[i][2] = static_cast<uint32_t>(g.in_strides[k] * itemsize);
    num_lines *= static_cast<uint64_t>(g.sizes[k]);
  }
  const bool has_dim = ndim > 0;
  const size_t d = static_cast<size_t>(dim);
  if (num_lines * static_cast<uint64_t>(has_dim ? g.sizes[d] : 1) > UINT32_MAX) {
    throw BeyondKernelLimits("a CUDA scan or normalisation of more than 2^32 elements");
  }
  a.num_lines = static_cast<uint32_t>(num_lines);
  a.line_size = has_dim ? static_cast<uint32_t>(g.sizes[d]) : 1;
  a.steps[0] = has_dim ? static_cast<uint32_t>(g.out_strides[d] * itemsize) : 0;
  a.steps[1] = has_dim && indexed ? static_cast<uint32_t>(g.indices_strides[d] * 8) : 0;
  a.steps[2] = has_dim ? static_cast<uint32_t>(g.in_strides[d] * itemsize) : 0;
  a.output = static_cast<char*>(g.out);
  a.indices = static_cast<char*>(g.indices);
  a.input = static_cast<const char*>(g.in);
  constexpr uint64_t kLinesPerBlock = jit::kLineThreads / 32;
  launch.grid_x = static_cast<unsigned>((num_lines + kLinesPerBlock - 1) / kLinesPerBlock);
  return launch;
}

}  // namespace bp::cuda
