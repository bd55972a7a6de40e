// Kernels of the pointwise ops (every op declared with `math:`) and fill_. A pointwise op's out=
// kernel runs over the plan the host's Common key hands it (api->kernel_call_iter): the op's meta
// function already checked the call, allocated the output and built the TensorIterator, whose
// common dtype S is the dtype the math runs in (promoted inputs, float for exp(int), float for
// pow(int, 2.5)...) and whose operands keep their own dtypes. For each 32-bit part of that plan
// the kernel plans and launches the jitted kernel: static kernels for inputs of dtype S (storing
// the output's dtype), the dynamic-cast kernel otherwise. An op whose math is a list of
// alternatives runs the first that applies to the call's arguments; an op with a `divisor`
// checks it for zeros first (integer dtypes).
#include <deque>
#include <span>
#include <vector>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {
namespace {

// What a pointwise kernel needs, made once per op at registration: its rows (one, or the
// alternatives of its math list) and their computations.
struct PointwiseKernel {
  std::span<const PointwiseOp> rows;
  std::vector<Computation> computations;
};

// PyTorch's integer division by zero error ("ZeroDivisionError"), raised before anything is
// written: when the common dtype is an integer type, whether the divisor holds a zero. A CPU
// scalar is read on the host; a device tensor is reduced on the device with all.out's kernel
// (AllOps: all of its elements non-zero) into one bool, read back (which waits for the stream).
void check_no_zero_divisor(const PointwiseOp& op, const bp_value* args, const IterPlan& plan,
                           Dtype dtype) {
  if (op.divisor < 0 || !info(dtype).is_integral) return;
  const PlanOperand& in = plan.input(op.divisor);
  bool all_non_zero = true;
  if (in.is_cpu_scalar) {
    all_non_zero = value_to_double(element_as(in.data, in.dtype, dtype, dtype), dtype) != 0;
  } else {
    bp_tensor* divisor = args[op.inputs[op.divisor]].u.tensor;
    const TensorMeta m = meta_of(divisor);
    if (m.numel == 0) return;
    const ReductionOp* all = find_reduction_op("all.out");
    BP_CUDA_INTERNAL_CHECK(all != nullptr, "no all.out reduction for the zero divisor check");
    // all.out's result dtype: uint8 for uint8, else bool (one byte either way).
    const Dtype d = *dtype_from_abi(m.dtype);
    const Dtype flag_dtype = d == Dtype::kUInt8 ? Dtype::kUInt8 : Dtype::kBool;
    bp_tensor* raw = nullptr;
    const int64_t no_sizes[1] = {0};
    check(api()->tensor_empty(no_sizes, 0, info(flag_dtype).abi, m.device, &raw));
    const TensorRef flag_tensor(raw);
    const TensorMeta f = meta_of(flag_tensor.get());
    // The flag viewed with the divisor's sizes and stride 0: a reduction over every dim.
    const std::vector<int64_t> zeros(m.sizes.size(), 0);
    bp_tensor* view_raw = nullptr;
    check(api()->tensor_wrap(f.data, m.sizes.data(), zeros.data(), m.sizes.size(),
                             info(flag_dtype).abi, m.device, nullptr, nullptr, &view_raw));
    const TensorRef view(view_raw);
    // The flags of the reductions' own plans (reduction_kernels.cc).
    const Iter iter = build_iter({view.get()}, {divisor},
                                 BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE |
                                     BP_ITER_CHECK_ALL_SAME_DEVICE);
    CudaDevice& device = device_at(m.device);
    const ReduceKernel kernel{all, d, flag_dtype};
    // In 32-bit parts when the divisor needs 64-bit indexing.
    run_reduce(device, plan_reduce_parts(kernel, read_plan(iter.get()), {}));
    uint8_t flag = 0;
    device.copy_to_host(&flag, f.data, 1);
    all_non_zero = flag != 0;
  }
  BP_CUDA_CHECK(all_non_zero, BP_ERROR_INVALID_ARGUMENT, "ZeroDivisionError");
}

void run_pointwise(const PointwiseKernel& k, const bp_value* args) {
  const PointwiseOp* chosen = select_alternative(k.rows, args);
  BP_CUDA_INTERNAL_CHECK(chosen != nullptr, "a call no alternative of the op's math applies to");
  const PointwiseOp& op = *chosen;
  const Computation& computation = k.computations[static_cast<size_t>(chosen - k.rows.data())];
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
  BP_CUDA_CHECK(op.supports(dtype), BP_ERROR_NOT_IMPLEMENTED, '"', op.error_name,
                "\" not implemented for '", info(dtype).name, "'");
  std::vector<jit::Value> values;
  for (int j = 0; j < op.num_args; ++j) {
    values.push_back(math_argument(op, j, args[op.args[j]], dtype));
  }
  check_no_zero_divisor(op, args, read_plan(plan), dtype);
  CudaDevice& device = device_of(args[op.out].u.tensor);
  for_each_32bit(plan, [&](const bp_iter* part) {
    run_elementwise(device,
                    plan_elementwise(computation, dtype, *out_dtype, read_plan(part), values));
  });
}

bp_error* pointwise_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                           bp_value* results, size_t nresults) {
  const PointwiseKernel& k = *static_cast<const PointwiseKernel*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_pointwise(k, args);
    return_tensor(results, nresults, args[k.rows.front().out].u.tensor);
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
  // Kernels live as long as the library: registrations point at them, and the plugin's unload
  // removes every registration before the host unloads the library (which destroys them).
  static std::deque<PointwiseKernel> kernels = [] {
    std::deque<PointwiseKernel> list;
    for (const PointwiseOp& op : pointwise_ops()) {
      const std::span<const PointwiseOp> rows = pointwise_alternatives(op.name);
      if (&op != rows.data()) continue;  // a later alternative of an op already added
      PointwiseKernel k{rows, {}};
      for (const PointwiseOp& row : rows) k.computations.push_back(computation_of(row));
      list.push_back(std::move(k));
    }
    return list;
  }();
  std::vector<KernelRegistration> out;
  for (PointwiseKernel& k : kernels) out.push_back({k.rows.front().name, &pointwise_kernel, &k});
  out.push_back({"fill_.Scalar", &fill_kernel, nullptr});
  return out;
}

}  // namespace bp::cuda
