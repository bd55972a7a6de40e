#include "reference_backend/cuda/converted_copy.h"

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {

TensorRef converted_copy(bp_tensor* t, Dtype dtype) {
  const TensorMeta m = meta_of(t);
  bp_tensor* raw = nullptr;
  check(api()->tensor_empty(m.sizes.data(), m.sizes.size(), info(dtype).abi, m.device, &raw));
  TensorRef out(raw);
  static const Computation copy = copy_computation();
  const Dtype from = *dtype_from_abi(m.dtype);
  CudaDevice& device = device_at(m.device);
  const Iter iter = build_iter({out.get()}, {t}, BP_ITER_CHECK_ALL_SAME_DEVICE);
  for_each_32bit(iter.get(), [&](const bp_iter* part) {
    run_elementwise(device, plan_elementwise(copy, from, dtype, read_plan(part), {}));
  });
  return out;
}

void broadcast_copy(bp_tensor* dst, bp_tensor* src) {
  const TensorMeta d = meta_of(dst), s = meta_of(src);
  if (d.numel == 0) return;
  static const Computation copy = copy_computation();
  const Dtype from = *dtype_from_abi(s.dtype), to = *dtype_from_abi(d.dtype);
  CudaDevice& device = device_at(d.device);
  const Iter iter = build_iter({dst}, {src}, BP_ITER_CHECK_ALL_SAME_DEVICE);
  for_each_32bit(iter.get(), [&](const bp_iter* part) {
    run_elementwise(device, plan_elementwise(copy, from, to, read_plan(part), {}));
  });
}

}  // namespace bp::cuda
