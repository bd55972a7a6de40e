// mm.out, bmm.out, addmm.out and baddbmm.out as one jitted batched product (gemm_kernel.h): the
// host's Common key has run the op's meta function (shapes, dtypes, the output), and the kernel
//   1. views the operands as [batches, rows, cols] (mm and addmm as one batch; addmm's and
//      baddbmm's self broadcast to the product's shape, as the meta function checked),
//   2. converts alpha and beta to the dtype, then to the compute type, as the CPU does,
//   3. runs it through cuBLAS when the plugin has it and the dtype and layouts allow
//      (cublas_gemm.h: float32, float64, bfloat16), else plans and launches the jitted kernel.
// An addend of another dtype is converted first (baddbmm's self may be). Dtypes the kernel
// lacks, scalars the dtype cannot hold, operands on other devices, an output overlapping an
// input, and plans beyond the kernel's limits run on the CPU instead (where the CPU kernel
// computes or reports the error).
#include <algorithm>
#include <cstring>

#include "reference_backend/cuda/converted_copy.h"
#include "reference_backend/cuda/cublas_gemm.h"
#include "reference_backend/cuda/gemm_kernel.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

// Where an op's arguments are (-1: absent) and whether its operands have a batch dim.
struct GemmOp {
  const char* name;
  int c, a, b, beta, alpha, out;
  bool batched;
};

constexpr GemmOp kGemmOps[] = {
    {"mm.out", -1, 0, 1, -1, -1, 2, false},
    {"bmm.out", -1, 0, 1, -1, -1, 2, true},
    {"addmm.out", 0, 1, 2, 3, 4, 5, false},
    {"baddbmm.out", 0, 1, 2, 3, 4, 5, true},
};

// t's strides as an operand of `sizes` (3 dims, batch first): right-aligned, broadcast dims 0.
std::array<int64_t, 3> strides_as(const TensorMeta& t, const std::array<int64_t, 3>& sizes) {
  std::array<int64_t, 3> strides{};
  const size_t ndim = t.sizes.size();
  for (size_t i = 0; i < ndim && i < 3; ++i) {
    const size_t from = ndim - 1 - i, to = 2 - i;
    strides[to] = t.sizes[from] == 1 && sizes[to] != 1 ? 0 : t.strides[from];
  }
  return strides;
}

// The first and one past the last byte an operand of `sizes` reads or writes.
std::pair<uintptr_t, uintptr_t> byte_range(const GemmOperand& o,
                                           const std::array<int64_t, 3>& sizes, int64_t itemsize) {
  uintptr_t last = reinterpret_cast<uintptr_t>(o.data);
  for (int d = 0; d < 3; ++d)
    last += static_cast<uintptr_t>((sizes[d] - 1) * o.strides[d] * itemsize);
  return {reinterpret_cast<uintptr_t>(o.data), last + static_cast<uintptr_t>(itemsize)};
}

bool overlap(std::pair<uintptr_t, uintptr_t> x, std::pair<uintptr_t, uintptr_t> y) {
  return x.first < y.second && y.first < x.second;
}

bool same_device(const bp_device& x, const bp_device& y) {
  return x.device_type == y.device_type && x.device_id == y.device_id;
}

// A Scalar argument as the CPU takes it (Scalar::to<T>() of the dtype), then in the compute
// type; `is_zero` whether it is 0 in the dtype. Values the dtype cannot hold run on the CPU.
jit::Value scalar_arg(const bp_value& v, Dtype dtype, bool& is_zero) {
  if (scalar_overflows(v, dtype)) {
    throw BeyondKernelLimits("a matrix product's scalar the dtype cannot hold");
  }
  const jit::Value in_dtype = scalar_as(v, dtype);
  const jit::Value wide = element_as(in_dtype.bytes, dtype, dtype, Dtype::kComplex128);
  double parts[2];
  std::memcpy(parts, wide.bytes, sizeof(parts));
  is_zero = parts[0] == 0 && parts[1] == 0;
  return element_as(in_dtype.bytes, dtype, dtype, gemm_compute_dtype(dtype));
}

void run_gemm_op(const GemmOp& op, const bp_value* args) {
  const TensorMeta o = meta_of(args[op.out].u.tensor);
  const Dtype dtype = *dtype_from_abi(o.dtype);
  if (!gemm_supports(dtype)) {
    throw BeyondKernelLimits(std::string("no CUDA kernel for ") + op.name + " of " +
                             std::string(info(dtype).name));
  }
  const TensorMeta a = meta_of(args[op.a].u.tensor), b = meta_of(args[op.b].u.tensor);
  // The meta function checked the shapes: a [(B,) n, k], b [(B,) k, p], out [(B,) n, p].
  const size_t lead = op.batched ? 1 : 0;
  const std::array<int64_t, 3> sizes{op.batched ? o.sizes[0] : 1, o.sizes[lead], o.sizes[lead + 1]};
  GemmGeometry g;
  g.batches = sizes[0];
  g.n = sizes[1];
  g.p = sizes[2];
  g.k = a.sizes[lead + 1];
  for (const TensorMeta* t : {&a, &b}) {
    if (t->dtype != o.dtype || !same_device(t->device, o.device)) {
      throw BeyondKernelLimits("a matrix product of operands of other dtypes or devices");
    }
  }
  g.out = {o.data, strides_as(o, sizes)};
  g.a = {a.data, strides_as(a, {sizes[0], g.n, g.k})};
  g.b = {b.data, strides_as(b, {sizes[0], g.k, g.p})};
  bool alpha_zero = false, beta_zero = true;
  if (op.alpha >= 0) g.alpha = scalar_arg(args[op.alpha], dtype, alpha_zero);
  if (op.beta >= 0) g.beta = scalar_arg(args[op.beta], dtype, beta_zero);
  if (op.alpha < 0) {
    bp_value one{};
    one.tag = BP_VALUE_INT;
    one.u.i = 1;
    g.alpha = scalar_arg(one, dtype, alpha_zero);
  }
  g.alpha_zero = alpha_zero;
  g.add = op.c >= 0 && !beta_zero;
  const int64_t itemsize = info(dtype).itemsize;
  const auto out_range = byte_range(g.out, sizes, itemsize);
  TensorRef converted_c;  // lives until the launch is queued
  bp_tensor* self = nullptr;
  bool same_view = false;
  if (g.add) {
    self = args[op.c].u.tensor;
    if (!same_device(meta_of(self).device, o.device)) {
      throw BeyondKernelLimits("a matrix product adding a tensor of another device");
    }
    // baddbmm's self may be of another dtype: converted first, as the CPU's copy into its result.
    if (meta_of(self).dtype != o.dtype) {
      converted_c = converted_copy(self, dtype);
      self = converted_c.get();
    }
    const TensorMeta c = meta_of(self);
    g.c = {c.data, strides_as(c, sizes)};
    // In place (addmm_): each thread reads its own element of c before writing it.
    same_view = c.data == o.data && g.c.strides == g.out.strides;
    if (!same_view && overlap(out_range, byte_range(g.c, sizes, itemsize))) {
      throw BeyondKernelLimits("a matrix product writing over its addend");
    }
  }
  if (o.numel == 0) return;
  // Blocks read a and b while others write out: an output over an input runs on the CPU.
  if (g.k > 0 && (overlap(out_range, byte_range(g.a, {sizes[0], g.n, g.k}, itemsize)) ||
                  overlap(out_range, byte_range(g.b, {sizes[0], g.k, g.p}, itemsize)))) {
    throw BeyondKernelLimits("a matrix product writing over its operands");
  }
  CudaDevice& device = device_at(o.device);
  if (CublasHandle* cublas = cublas_handle(device)) {
    // cuBLAS adds beta * out: the addend goes into out first (queued before the product). If
    // cuBLAS then declines, the jitted kernel reads the addend from self as always.
    if (std::optional<CublasGemmPlan> plan = plan_cublas_gemm(dtype, g)) {
      if (g.add && !same_view) broadcast_copy(args[op.out].u.tensor, self);
      if (cublas->run(*plan)) return;
    }
  }
  run_gemm(device, plan_gemm(GemmKernel{dtype}, g));
}

bp_error* gemm_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                      bp_value* results, size_t nresults) {
  const GemmOp& row = *static_cast<const GemmOp*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_gemm_op(row, args);
    return_tensor(results, nresults, args[row.out].u.tensor);
  });
}

}  // namespace

std::vector<KernelRegistration> gemm_registrations() {
  std::vector<KernelRegistration> out;
  for (const GemmOp& op : kGemmOps) {
    out.push_back({op.name, &gemm_kernel, const_cast<GemmOp*>(&op)});
  }
  return out;
}

}  // namespace bp::cuda
