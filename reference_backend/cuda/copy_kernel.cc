// copy_(Tensor(a!) self, Tensor src, bool non_blocking) for every pair of devices among CUDA and
// the CPU, any dtypes and any strides (src broadcast to self):
//   - same dtype, same shape, both contiguous: one byte copy (device to device, host to device
//     or device to host);
//   - otherwise on one device: the jitted copy kernel (strides and dtype conversion);
//   - across the host boundary: the data crosses contiguous in its own dtype (a CPU copy_ makes
//     a host tensor contiguous when needed), then the copy kernel converts on the device.
// Copies to the host return when the data is there; the others are queued on the device's
// stream (non_blocking is accepted and ignored).
#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/op_arguments.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

constexpr bp_device kCpu = {BP_DEVICE_CPU, -1};

bool is_cuda(const TensorMeta& m) { return m.device.device_type == state()->device_type; }

size_t nbytes(const TensorMeta& m) {
  return static_cast<size_t>(m.numel) * info(*dtype_from_abi(m.dtype)).itemsize;
}

TensorRef empty(const std::vector<int64_t>& sizes, int32_t dtype, bp_device device) {
  bp_tensor* t = nullptr;
  check(api()->tensor_empty(sizes.data(), sizes.size(), dtype, device, &t));
  return TensorRef(t);
}

// copy_ on the CPU backend (through the host's dispatcher).
void cpu_copy(bp_tensor* dst, bp_tensor* src) {
  const bp_op* copy = nullptr;
  check(api()->op_find("copy_", &copy));
  bp_value args[3] = {};
  args[0].tag = BP_VALUE_TENSOR;
  args[0].u.tensor = dst;
  args[1].tag = BP_VALUE_TENSOR;
  args[1].u.tensor = src;
  args[2].tag = BP_VALUE_BOOL;
  args[2].u.b = false;
  bp_value result{};
  size_t nresults = 0;
  check(api()->op_call(copy, args, 3, &result, 1, &nresults));
  if (nresults == 1 && result.tag == BP_VALUE_TENSOR) api()->tensor_release(result.u.tensor);
}

bool same_layout(const TensorMeta& a, const TensorMeta& b, const bp_tensor* ta,
                 const bp_tensor* tb) {
  return a.dtype == b.dtype && a.sizes == b.sizes && is_contiguous(ta) && is_contiguous(tb);
}

// dst <- src, both on `device`.
void device_copy(CudaDevice& device, bp_tensor* dst, bp_tensor* src) {
  const TensorMeta d = meta_of(dst), s = meta_of(src);
  if (d.numel == 0) return;
  if (same_layout(d, s, dst, src)) {
    if (d.data != s.data) device.copy_within(d.data, s.data, nbytes(d));
    return;
  }
  static const Computation copy = copy_computation();
  const Dtype from = *dtype_from_abi(s.dtype), to = *dtype_from_abi(d.dtype);
  const Iter iter =
      build_iter({dst}, {src}, BP_ITER_CHECK_MEM_OVERLAP | BP_ITER_CHECK_ALL_SAME_DEVICE);
  for_each_32bit(iter.get(), [&](const bp_iter* part) {
    run_elementwise(device, plan_elementwise(copy, from, to, read_plan(part), {}));
  });
}

// `src` (on the host) contiguous: itself, or a contiguous CPU copy held in `keep`.
bp_tensor* host_contiguous(bp_tensor* src, const TensorMeta& s, TensorRef& keep) {
  if (is_contiguous(src)) return src;
  keep = empty(s.sizes, s.dtype, kCpu);
  cpu_copy(keep.get(), src);
  return keep.get();
}

void copy(bp_tensor* dst, bp_tensor* src) {
  const TensorMeta d = meta_of(dst), s = meta_of(src);
  if (d.numel == 0) return;
  if (is_cuda(d) && is_cuda(s)) {
    CudaDevice& to = device_at(d.device);
    CudaDevice& from = device_at(s.device);
    if (&to == &from) return device_copy(to, dst, src);
    // Another GPU: bring src over contiguous in its dtype (unified addressing), then convert.
    TensorRef compact = empty(s.sizes, s.dtype, s.device);
    device_copy(from, compact.get(), src);
    from.synchronize();
    TensorRef staged = empty(s.sizes, s.dtype, d.device);
    to.copy_within(meta_of(staged.get()).data, meta_of(compact.get()).data, nbytes(s));
    return device_copy(to, dst, staged.get());
  }
  if (is_cuda(d)) {  // host -> device
    CudaDevice& to = device_at(d.device);
    if (same_layout(d, s, dst, src)) return to.copy_from_host(d.data, s.data, nbytes(d));
    TensorRef keep;
    bp_tensor* host = host_contiguous(src, s, keep);
    TensorRef staged = empty(s.sizes, s.dtype, d.device);
    to.copy_from_host(meta_of(staged.get()).data, meta_of(host).data, nbytes(s));
    return device_copy(to, dst, staged.get());
  }
  // device -> host
  CudaDevice& from = device_at(s.device);
  if (same_layout(d, s, dst, src)) return from.copy_to_host(d.data, s.data, nbytes(d));
  TensorRef staged = empty(d.sizes, d.dtype, s.device);
  device_copy(from, staged.get(), src);
  if (is_contiguous(dst)) return from.copy_to_host(d.data, meta_of(staged.get()).data, nbytes(d));
  TensorRef host = empty(d.sizes, d.dtype, kCpu);
  from.copy_to_host(meta_of(host.get()).data, meta_of(staged.get()).data, nbytes(d));
  cpu_copy(dst, host.get());
}

struct CopyArguments {
  int self = 0, src = 1;
};

bp_error* copy_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                      bp_value* results, size_t nresults) {
  const CopyArguments& a = *static_cast<const CopyArguments*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    copy(args[a.self].u.tensor, args[a.src].u.tensor);
    return_tensor(results, nresults, args[a.self].u.tensor);
  });
}

}  // namespace

std::vector<KernelRegistration> copy_registrations() {
  static CopyArguments arguments;
  const std::optional<OpArguments> declared = find_op_arguments("copy_");
  if (!declared) return {};
  arguments.self = declared->index_of("self");
  arguments.src = declared->index_of("src");
  return {{"copy_", &copy_kernel, &arguments}};
}

}  // namespace bp::cuda
