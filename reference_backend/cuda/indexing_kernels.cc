// index_select.out, gather.out, scatter.{src,value,reduce,value_reduce}_out and scatter_add.out
// as jitted kernels (indexing_kernel.h), in the CPU backend's order (reference_backend/cpu/
// indexing.cc): the host's Common key has run the op's meta function (shapes, dtypes, the
// output), and the kernel
//   1. checks every index against the indexed dim on the device before anything is written
//      (index_check: the first offender and its value, 16 bytes read back), raising PyTorch
//      1.13's error as the CPU does;
//   2. for scatter, copies self into out (unless in place) with the jitted copy;
//   3. launches the gather (one thread per output element) or scatter kernel (one thread per
//      line, positions in order: deterministic, the CPU's order for duplicates).
// Operands on other devices or of other dtypes than the meta function allows, outputs overlapping
// an input (other than scatter's self in place), values the dtype cannot hold and plans beyond
// the kernels' limits run on the CPU instead (where the CPU kernel computes or reports the error).
#include <cstring>
#include <optional>
#include <string>

#include "reference_backend/cuda/converted_copy.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/indexing_kernel.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

enum class IndexKind { kIndexSelect, kGather, kScatter, kScatterAdd };

// Where an op's arguments are (-1: absent); self is 0, dim 1, index 2.
struct IndexOp {
  const char* name;
  IndexKind kind;
  int src, value, reduce, out;
};

constexpr IndexOp kIndexOps[] = {
    {"index_select.out", IndexKind::kIndexSelect, -1, -1, -1, 3},
    {"gather.out", IndexKind::kGather, -1, -1, -1, 4},
    {"scatter.src_out", IndexKind::kScatter, 3, -1, -1, 4},
    {"scatter.value_out", IndexKind::kScatter, -1, 3, -1, 4},
    {"scatter.reduce_out", IndexKind::kScatter, 3, -1, 4, 5},
    {"scatter.value_reduce_out", IndexKind::kScatter, -1, 3, 4, 5},
    {"scatter_add.out", IndexKind::kScatterAdd, 3, -1, -1, 4},
};

// `t` with at least one dim (a 0-dim tensor as [1]), as PyTorch's ensure_nonempty.
TensorMeta at_least_1d(TensorMeta t) {
  if (t.sizes.empty()) {
    t.sizes = {1};
    t.strides = {1};
  }
  return t;
}

IndexOperand operand(const TensorMeta& t) { return {t.data, t.strides}; }

bool same_device(const bp_device& x, const bp_device& y) {
  return x.device_type == y.device_type && x.device_id == y.device_id;
}

// The first and one past the last byte a view covers (empty views cover nothing).
std::pair<uintptr_t, uintptr_t> byte_range(const TensorMeta& t) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(t.data);
  if (t.numel == 0) return {first, first};
  const int64_t itemsize = info(*dtype_from_abi(t.dtype)).itemsize;
  uintptr_t last = first;
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    last += static_cast<uintptr_t>((t.sizes[d] - 1) * t.strides[d] * itemsize);
  }
  return {first, last + static_cast<uintptr_t>(itemsize)};
}

bool overlap(const TensorMeta& x, const TensorMeta& y) {
  const auto a = byte_range(x), b = byte_range(y);
  return a.first < a.second && b.first < b.second && a.first < b.second && b.first < a.second;
}

Dtype index_dtype_of(const TensorMeta& index) {
  const Dtype d = *dtype_from_abi(index.dtype);
  if (d != Dtype::kInt32 && d != Dtype::kInt64) {
    throw BeyondKernelLimits("a CUDA indexing kernel with an index of another dtype");
  }
  return d;
}

// The first index of `index` (row-major) outside [0, bound), checked on the device: the check
// kernel writes {position or -1, value} into a device buffer, read back (waits for the stream).
std::optional<int64_t> first_out_of_range(const TensorMeta& index, int64_t bound) {
  const TensorMeta i1 = at_least_1d(index);
  int64_t* result_data = nullptr;
  bp_tensor* raw = nullptr;
  const int64_t two = 2;
  check(api()->tensor_empty(&two, 1, BP_DTYPE_INT64, index.device, &raw));
  const TensorRef result(raw);
  result_data = static_cast<int64_t*>(meta_of(result.get()).data);
  CudaDevice& device = device_at(index.device);
  run_indexing(device, plan_index_check(index_check_kernel(index_dtype_of(index)), operand(i1),
                                        i1.sizes, bound, result_data));
  int64_t found[2] = {-1, 0};
  device.copy_to_host(found, result_data, sizeof found);
  if (found[0] < 0) return std::nullopt;
  return found[1];
}

int64_t wrap(int64_t dim, size_t ndim) { return dim < 0 ? dim + static_cast<int64_t>(ndim) : dim; }

// Every operand on out's device (the meta function checked it; the fallback reports otherwise).
void check_devices(const TensorMeta& out, std::initializer_list<const TensorMeta*> others) {
  for (const TensorMeta* t : others) {
    if (!same_device(t->device, out.device)) {
      throw BeyondKernelLimits("a CUDA indexing kernel with operands on several devices");
    }
  }
}

void run_index_select(const bp_value* args, const TensorMeta& out) {
  const TensorMeta self = meta_of(args[0].u.tensor), index = meta_of(args[2].u.tensor);
  check_devices(out, {&self, &index});
  if (overlap(out, self) || overlap(out, index) || self.dtype != out.dtype) {
    throw BeyondKernelLimits("an index_select writing over its operands");
  }
  const TensorMeta self1 = at_least_1d(self), out1 = at_least_1d(out);
  const int64_t d = wrap(args[1].u.i, self1.sizes.size());
  if (index.numel == 0) return;
  const Dtype index_dtype = index_dtype_of(index);
  const int64_t size = self1.sizes[static_cast<size_t>(d)];
  if (const std::optional<int64_t> bad = first_out_of_range(index, size)) {
    // PyTorch 1.13's two messages (its dim-1 path has its own).
    BP_CUDA_CHECK(!(self.sizes.size() > 1 && d == 1), BP_ERROR_INVALID_ARGUMENT,
                  "INDICES element is out of DATA bounds, id=", *bad, " axis_dim=", size);
    BP_CUDA_CHECK(false, BP_ERROR_INDEX, "index out of range in self");
  }
  if (out.numel == 0) return;
  // The index seen with out's sizes: stride 0 but along dim.
  IndexGeometry g;
  g.sizes = out1.sizes;
  g.dim = d;
  g.bound = size;
  g.out = operand(out1);
  g.src = operand(self1);
  g.index = {index.data, std::vector<int64_t>(out1.sizes.size(), 0)};
  g.index.strides[static_cast<size_t>(d)] = index.sizes.empty() ? 0 : index.strides[0];
  const Dtype dtype = *dtype_from_abi(out.dtype);
  run_indexing(device_at(out.device), plan_gather(gather_kernel(dtype, index_dtype), g));
}

void run_gather(const bp_value* args, const TensorMeta& out) {
  const TensorMeta self = meta_of(args[0].u.tensor), index = meta_of(args[2].u.tensor);
  check_devices(out, {&self, &index});
  if (overlap(out, self) || overlap(out, index) || self.dtype != out.dtype) {
    throw BeyondKernelLimits("a gather writing over its operands");
  }
  if (index.numel == 0) return;
  const TensorMeta self1 = at_least_1d(self), index1 = at_least_1d(index), out1 = at_least_1d(out);
  const int64_t d = wrap(args[1].u.i, self1.sizes.size());
  const int64_t size = self1.sizes[static_cast<size_t>(d)];
  if (const std::optional<int64_t> bad = first_out_of_range(index, size)) {
    BP_CUDA_CHECK(false, BP_ERROR_INVALID_ARGUMENT, "index ", *bad,
                  " is out of bounds for dimension ", d, " with size ", size);
  }
  IndexGeometry g;
  g.sizes = index1.sizes;
  g.dim = d;
  g.bound = size;
  g.out = operand(out1);
  g.src = operand(self1);
  g.index = operand(index1);
  const Dtype dtype = *dtype_from_abi(out.dtype);
  run_indexing(device_at(out.device), plan_gather(gather_kernel(dtype, index_dtype_of(index)), g));
}

void run_scatter(const IndexOp& op, const bp_value* args, const TensorMeta& out) {
  bp_tensor* self_t = args[0].u.tensor;
  const TensorMeta self = meta_of(self_t), index = meta_of(args[2].u.tensor);
  const Dtype dtype = *dtype_from_abi(out.dtype);
  std::optional<TensorMeta> src;
  if (op.src >= 0) src = meta_of(args[op.src].u.tensor);
  check_devices(out, {&self, &index});
  if (src) check_devices(out, {&*src});
  const bool in_place = self.data == out.data && self.sizes == out.sizes &&
                        self.strides == out.strides && self.dtype == out.dtype;
  if (self.dtype != out.dtype || (src && src->dtype != out.dtype) ||
      (!in_place && overlap(out, self)) || overlap(out, index) || (src && overlap(out, *src))) {
    throw BeyondKernelLimits("a scatter writing over its operands");
  }
  // value.to<T>() checks it fits out's dtype: the CPU raises the error.
  if (op.value >= 0 && scalar_overflows(args[op.value], dtype)) {
    throw BeyondKernelLimits("a scatter value the dtype cannot hold");
  }
  const TensorMeta out1 = at_least_1d(out), index1 = at_least_1d(index);
  const int64_t d = wrap(args[1].u.i, out1.sizes.size());
  const int64_t size = out1.sizes[static_cast<size_t>(d)];
  // Checked before out is written: a bad index leaves it (an in-place self) as it was.
  if (index.numel != 0) {
    index_dtype_of(index);
    if (const std::optional<int64_t> bad = first_out_of_range(index, size)) {
      BP_CUDA_CHECK(false, BP_ERROR_INVALID_ARGUMENT, "index ", *bad,
                    " is out of bounds for dimension ", d, " with size ", size);
    }
  }
  if (!in_place) broadcast_copy(args[op.out].u.tensor, self_t);  // they do not overlap
  if (index.numel == 0) return;
  IndexGeometry g;
  g.sizes = index1.sizes;
  g.dim = d;
  g.bound = size;
  g.out = operand(out1);
  g.index = operand(index1);
  if (src) {
    g.src = operand(at_least_1d(*src));
  } else {
    g.src.strides.assign(index1.sizes.size(), 0);
    g.value = scalar_as(args[op.value], dtype);
  }
  IndexKernel kernel = scatter_kernel(dtype);
  if (op.kind == IndexKind::kScatterAdd) {
    kernel = scatter_reduce_kernel(dtype, /*multiply=*/false);
  } else if (op.reduce >= 0) {
    // "add" or "multiply", as the meta function checked.
    kernel = scatter_reduce_kernel(dtype, std::strcmp(args[op.reduce].u.s, "add") != 0);
  }
  run_indexing(device_at(out.device), plan_scatter(kernel, g));
}

void run_index_op(const IndexOp& op, const bp_value* args) {
  const TensorMeta out = meta_of(args[op.out].u.tensor);
  switch (op.kind) {
    case IndexKind::kIndexSelect:
      return run_index_select(args, out);
    case IndexKind::kGather:
      return run_gather(args, out);
    case IndexKind::kScatter:
    case IndexKind::kScatterAdd:
      return run_scatter(op, args, out);
  }
}

bp_error* index_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                       bp_value* results, size_t nresults) {
  const IndexOp& row = *static_cast<const IndexOp*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_index_op(row, args);
    return_tensor(results, nresults, args[row.out].u.tensor);
  });
}

}  // namespace

std::vector<KernelRegistration> indexing_registrations() {
  std::vector<KernelRegistration> out;
  for (const IndexOp& op : kIndexOps) {
    out.push_back({op.name, &index_kernel, const_cast<IndexOp*>(&op)});
  }
  return out;
}

}  // namespace bp::cuda
