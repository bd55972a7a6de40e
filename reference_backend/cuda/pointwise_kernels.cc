// Kernels of the pointwise ops (every op declared with `math:`) and fill_. A pointwise op's out=
// kernel runs over the plan the host's Common key hands it (api->kernel_call_iter): the op's meta
// function already checked the call, allocated the output and built the TensorIterator, whose
// common dtype S is the dtype the math runs in (promoted inputs, float for exp(int), float for
// pow(int, 2.5)...) and whose operands keep their own dtypes. For each 32-bit part of that plan
// the kernel plans and launches the jitted kernel: static kernels for inputs of dtype S (storing
// the output's dtype), the dynamic-cast kernel otherwise.
#include <deque>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"
#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda {
namespace {

// What a pointwise kernel needs, made once per op at registration.
struct PointwiseKernel {
  const PointwiseOp* op;
  Computation computation;
};

void run_pointwise(const PointwiseKernel& k, const bp_value* args) {
  const PointwiseOp& op = *k.op;
  const bp_iter* plan = handed_plan(args);
  bp_iter_info plan_info{};
  plan_info.struct_size = sizeof plan_info;
  check(api()->iter_info(plan, &plan_info));
  bp_iter_operand out{};
  out.struct_size = sizeof out;
  check(api()->iter_operand(plan, 0, &out));
  const std::optional<Dtype> common = dtype_from_abi(plan_info.common_dtype);
  const std::optional<Dtype> out_dtype = dtype_from_abi(out.dtype);
  BP_CUDA_INTERNAL_CHECK(common.has_value() && out_dtype.has_value(),
                         "a pointwise plan without a common dtype");
  const Dtype dtype = *common;
  BP_CUDA_CHECK(op.supports(dtype), BP_ERROR_NOT_IMPLEMENTED, '"', op.base_name,
                "\" not implemented for '", info(dtype).name, "'");
  std::vector<jit::Value> values;
  for (int j = 0; j < op.num_args; ++j) {
    values.push_back(math_argument(op, j, args[op.args[j]], compute_dtype(dtype)));
  }
  CudaDevice& device = device_of(args[op.out].u.tensor);
  for_each_32bit(plan, [&](const bp_iter* part) {
    run_elementwise(device,
                    plan_elementwise(k.computation, dtype, *out_dtype, read_plan(part), values));
  });
}

bp_error* pointwise_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                           bp_value* results, size_t nresults) {
  const PointwiseKernel& k = *static_cast<const PointwiseKernel*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_pointwise(k, args);
    return_tensor(results, nresults, args[k.op->out].u.tensor);
  });
}

// fill_.Scalar(Tensor(a!) self, Scalar value): the value checked (fill_(uint8, 300) is an
// error, as on the CPU), converted once, stored by a kernel with no inputs. Not a structured op:
// the kernel builds its plan over `self` (no promotion, no checks: flags 0).
bp_error* fill_kernel(void*, const bp_op* op, const bp_value* args, size_t nargs, bp_value* results,
                      size_t nresults) {
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    bp_tensor* self = args[0].u.tensor;
    const TensorMeta meta = meta_of(self);
    const Dtype dtype = *dtype_from_abi(meta.dtype);
    check_scalar_fits(args[1], dtype);
    const jit::Value value = scalar_as(args[1], dtype);
    static const Computation fill = fill_computation();
    const Iter iter = build_iter({self}, {}, 0);
    CudaDevice& device = device_of(self);
    for_each_32bit(iter.get(), [&](const bp_iter* part) {
      run_elementwise(device, plan_elementwise(fill, dtype, dtype, read_plan(part), {&value, 1}));
    });
    return_tensor(results, nresults, self);
  });
}

}  // namespace

std::vector<KernelRegistration> pointwise_registrations() {
  // Kernels live as long as the process: registrations point at them.
  static std::deque<PointwiseKernel>* kernels = [] {
    auto* list = new std::deque<PointwiseKernel>();
    for (const PointwiseOp& op : pointwise_ops()) list->push_back({&op, computation_of(op)});
    return list;
  }();
  std::vector<KernelRegistration> out;
  for (PointwiseKernel& k : *kernels) out.push_back({k.op->name, &pointwise_kernel, &k});
  out.push_back({"fill_.Scalar", &fill_kernel, nullptr});
  return out;
}

}  // namespace bp::cuda
