#include "reference_backend/cuda/indexing_kernel.h"

#include <algorithm>

#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/error.h"

namespace bp::cuda {
namespace {

constexpr int kElementSizes[] = {1, 2, 4, 8, 16};

std::string type(Dtype d) { return std::string(info(d).device_type); }

// The byte offset of an operand's furthest element over `sizes` (`dim`'s size replaced by
// `dim_size`); BeyondKernelLimits past 32 bits or for a negative stride.
uint64_t extent(const IndexOperand& o, const std::vector<int64_t>& sizes, int64_t dim,
                int64_t dim_size, int64_t itemsize) {
  uint64_t last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t n = static_cast<int64_t>(d) == dim ? dim_size : sizes[d];
    if (o.strides[d] < 0) throw BeyondKernelLimits("a CUDA indexing kernel with negative strides");
    last += static_cast<uint64_t>(std::max<int64_t>(n - 1, 0)) *
            static_cast<uint64_t>(o.strides[d]) * static_cast<uint64_t>(itemsize);
    if (last > UINT32_MAX) {
      throw BeyondKernelLimits("a CUDA indexing kernel that needs 64-bit indexing");
    }
  }
  return last;
}

// args.offsets over `sizes` (fastest dim first, size-1 dims and `skip` left out), the operands'
// strides in bytes; returns the number of positions. The caller checked the extents.
uint64_t fill_offsets(jit::IndexArgs& a, const std::vector<int64_t>& sizes, int64_t skip,
                      const IndexOperand* const (&operands)[3], const int64_t (&itemsizes)[3]) {
  a.offsets.ndim = 0;
  uint64_t count = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    count *= static_cast<uint64_t>(sizes[k]);
    if (static_cast<int64_t>(k) == skip || sizes[k] == 1) continue;
    if (a.offsets.ndim == jit::kMaxDims) {
      throw BeyondKernelLimits("too many dimensions for a CUDA indexing kernel");
    }
    const int i = a.offsets.ndim++;
    a.offsets.sizes[i] =
        fast_divider(static_cast<uint32_t>(std::min<int64_t>(sizes[k], INT32_MAX)));
    for (int op = 0; op < 3; ++op) {
      a.offsets.strides[i][op] =
          operands[op] == nullptr ? 0
                                  : static_cast<uint32_t>(operands[op]->strides[k] * itemsizes[op]);
    }
  }
  if (skip >= 0) count /= static_cast<uint64_t>(sizes[static_cast<size_t>(skip)]);
  if (count > INT32_MAX) {
    throw BeyondKernelLimits("a CUDA indexing kernel over more than 2^31 elements");
  }
  return count;
}

unsigned blocks(uint64_t count) {
  return static_cast<unsigned>((count + jit::kIndexThreads - 1) / jit::kIndexThreads);
}

bool empty(const std::vector<int64_t>& sizes) {
  return std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s == 0; });
}

}  // namespace

IndexKernel index_check_kernel(Dtype index_dtype) {
  return {IndexFamily::kCheck, 0, Dtype::kFloat32, index_dtype};
}

IndexKernel gather_kernel(Dtype dtype, Dtype index_dtype) {
  return {IndexFamily::kGather, info(dtype).itemsize, Dtype::kFloat32, index_dtype};
}

IndexKernel scatter_kernel(Dtype dtype) {
  return {IndexFamily::kScatter, info(dtype).itemsize, Dtype::kFloat32, Dtype::kInt64};
}

IndexKernel scatter_reduce_kernel(Dtype dtype, bool multiply) {
  return {multiply ? IndexFamily::kScatterMultiply : IndexFamily::kScatterAdd, 0, dtype,
          Dtype::kInt64};
}

std::string IndexKernel::entry_name() const {
  const std::string index(info(index_dtype).name);
  const std::string bytes = std::to_string(element_size);
  switch (family) {
    case IndexFamily::kCheck:
      return "index_check__" + index;
    case IndexFamily::kGather:
      return "gather__" + bytes + "__" + index;
    case IndexFamily::kScatter:
      return "scatter__" + bytes;
    case IndexFamily::kScatterAdd:
      return "scatter_add__" + std::string(info(dtype).name);
    case IndexFamily::kScatterMultiply:
      return "scatter_multiply__" + std::string(info(dtype).name);
  }
  return "";
}

std::string IndexKernel::source() const {
  const std::string index = type(index_dtype), bytes = std::to_string(element_size);
  std::string call;
  switch (family) {
    case IndexFamily::kCheck:
      call = "index_check<" + index + ">";
      break;
    case IndexFamily::kGather:
      call = "gather_elements<" + bytes + ", " + index + ">";
      break;
    case IndexFamily::kScatter:
      call = "scatter_lines<" + bytes + ">";
      break;
    case IndexFamily::kScatterAdd:
    case IndexFamily::kScatterMultiply:
      call = "scatter_reduce_lines<" + type(dtype) + ", " + type(compute_dtype(dtype)) + ", " +
             (family == IndexFamily::kScatterMultiply ? "true" : "false") + ">";
      break;
  }
  return "extern \"C\" __global__ void __launch_bounds__(bp::jit::kIndexThreads) " + entry_name() +
         "(const bp::jit::IndexArgs args) {\n  bp::jit::" + call + "(args);\n}\n";
}

std::vector<IndexKernel> all_indexing_kernels() {
  std::vector<IndexKernel> kernels;
  for (Dtype index : {Dtype::kInt32, Dtype::kInt64}) kernels.push_back(index_check_kernel(index));
  for (int bytes : kElementSizes) {
    for (Dtype index : {Dtype::kInt32, Dtype::kInt64}) {
      kernels.push_back({IndexFamily::kGather, bytes, Dtype::kFloat32, index});
    }
    kernels.push_back({IndexFamily::kScatter, bytes, Dtype::kFloat32, Dtype::kInt64});
  }
  for (int d = 0; d < kNumDtypes; ++d) {
    for (bool multiply : {false, true}) {
      kernels.push_back(scatter_reduce_kernel(dtype_of_code(d), multiply));
    }
  }
  return kernels;
}

IndexLaunch plan_index_check(const IndexKernel& kernel, const IndexOperand& index,
                             const std::vector<int64_t>& sizes, int64_t bound, void* result) {
  IndexLaunch launch;
  launch.kernel = kernel;
  if (empty(sizes)) return launch;
  const int64_t isize = info(kernel.index_dtype).itemsize;
  extent(index, sizes, -1, 0, isize);
  jit::IndexArgs& a = launch.args;
  a.count =
      static_cast<uint32_t>(fill_offsets(a, sizes, -1, {nullptr, nullptr, &index}, {0, 0, isize}));
  a.out = static_cast<char*>(result);
  a.index = static_cast<const char*>(index.data);
  a.bound = bound;
  launch.grid_x = 1;  // one block: the first offender is the block's minimum
  return launch;
}

IndexLaunch plan_gather(const IndexKernel& kernel, const IndexGeometry& g) {
  IndexLaunch launch;
  launch.kernel = kernel;
  if (empty(g.sizes)) return launch;
  const int64_t es = kernel.element_size, isize = info(kernel.index_dtype).itemsize;
  const size_t d = static_cast<size_t>(g.dim);
  extent(g.out, g.sizes, -1, 0, es);
  extent(g.src, g.sizes, g.dim, g.bound, es);
  extent(g.index, g.sizes, -1, 0, isize);
  // src's line starts: stride 0 along dim (the index picks the element).
  IndexOperand base = g.src;
  base.strides[d] = 0;
  jit::IndexArgs& a = launch.args;
  a.count = static_cast<uint32_t>(
      fill_offsets(a, g.sizes, -1, {&g.out, &base, &g.index}, {es, es, isize}));
  a.out = static_cast<char*>(const_cast<void*>(g.out.data));
  a.src = static_cast<const char*>(g.src.data);
  a.index = static_cast<const char*>(g.index.data);
  a.steps[1] = static_cast<uint32_t>(g.src.strides[d] * es);
  launch.grid_x = blocks(a.count);
  return launch;
}

IndexLaunch plan_scatter(const IndexKernel& kernel, const IndexGeometry& g) {
  IndexLaunch launch;
  launch.kernel = kernel;
  if (empty(g.sizes)) return launch;
  const int64_t es =
      kernel.family == IndexFamily::kScatter ? kernel.element_size : info(kernel.dtype).itemsize;
  const size_t d = static_cast<size_t>(g.dim);
  // The line's positions count in 32 bits (an expanded index may have stride 0 along dim).
  if (g.sizes[d] > INT32_MAX) throw BeyondKernelLimits("a CUDA scatter with lines of 2^31 indices");
  extent(g.out, g.sizes, g.dim, g.bound, es);
  if (g.src.data != nullptr) extent(g.src, g.sizes, -1, 0, es);
  extent(g.index, g.sizes, -1, 0, 8);
  jit::IndexArgs& a = launch.args;
  const IndexOperand* src = g.src.data != nullptr ? &g.src : nullptr;
  a.count =
      static_cast<uint32_t>(fill_offsets(a, g.sizes, g.dim, {&g.out, src, &g.index}, {es, es, 8}));
  a.line_size = static_cast<uint32_t>(g.sizes[d]);
  a.out = static_cast<char*>(const_cast<void*>(g.out.data));
  a.src = static_cast<const char*>(g.src.data);
  a.index = static_cast<const char*>(g.index.data);
  a.steps[0] = static_cast<uint32_t>(g.out.strides[d] * es);
  a.steps[1] = src != nullptr ? static_cast<uint32_t>(g.src.strides[d] * es) : 0;
  a.steps[2] = static_cast<uint32_t>(g.index.strides[d] * 8);
  a.value = g.value;
  launch.grid_x = blocks(a.count);
  return launch;
}

}  // namespace bp::cuda
