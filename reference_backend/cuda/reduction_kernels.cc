// Kernels of the reductions, registered for every out= op declared with `reduce:` (the rows of
// reduction_ops.inc: the ops struct, its arguments, where self, dim, keepdim and the outputs
// are): the host's Common key has run the op's meta function (dims, keepdim, the outputs' shapes
// and dtypes), and the kernel
//   1. converts the input to the dtype the reduction runs in if it differs (PyTorch's
//      make_reduction does self.to(dtype)),
//   2. views each output with the input's rank and stride 0 along the reduced dimensions,
//   3. builds a reduction plan and launches the jitted reduction (reduce_kernel.h).
// Reductions with an index output (argmax) reduce the flattened input when given no dim. Plans
// that need 64-bit indexing run in 32-bit parts (plan_reduce_parts, as PyTorch's reduce kernels
// split them); plans beyond the kernels' other limits and input dtypes the declaration does not
// list run on the CPU instead (whose kernel raises the op's error).
#include <cstdlib>
#include <string>
#include <vector>

#include "reference_backend/cuda/converted_copy.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/plugin_state.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {
namespace {

const bp_value* argument(const bp_value* args, int index) {
  return index < 0 || args[index].tag == BP_VALUE_NONE ? nullptr : &args[index];
}

double as_double(const bp_value& v) {
  switch (v.tag) {
    case BP_VALUE_BOOL:
      return v.u.b ? 1 : 0;
    case BP_VALUE_INT:
      return static_cast<double>(v.u.i);
    case BP_VALUE_COMPLEX:
      return v.u.c.re;
    default:
      return v.u.d;
  }
}

// The ops struct's arguments as doubles: each given value, or what the declaration says None
// means.
std::vector<double> ops_arguments(const ReductionOp& op, const bp_value* args) {
  std::vector<double> values;
  for (int i = 0; i < op.num_args; ++i) {
    if (const bp_value* v = argument(args, op.args[i])) {
      values.push_back(as_double(*v));
    } else {
      BP_CUDA_INTERNAL_CHECK(op.if_none[i] != nullptr, "a None argument without a meaning");
      values.push_back(std::strtod(op.if_none[i], nullptr));
    }
  }
  return values;
}

TensorRef wrap(const TensorMeta& like, void* data, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides) {
  bp_tensor* t = nullptr;
  check(api()->tensor_wrap(data, sizes.data(), strides.data(), sizes.size(), like.dtype,
                           like.device, nullptr, nullptr, &t));
  return TensorRef(t);
}

void run_reduction(const ReductionOp& op, const bp_value* args) {
  bp_tensor* self = args[op.self].u.tensor;
  const TensorMeta in = meta_of(self);
  const size_t ndim = in.sizes.size();
  std::vector<TensorMeta> outs;
  for (int o = 0; o < op.num_outputs; ++o) outs.push_back(meta_of(args[op.outputs[o]].u.tensor));
  if (outs[0].numel == 0) return;

  // Which dimensions are reduced.
  std::vector<bool> reduced(ndim, false);
  const bp_value* dims = argument(args, op.dim);
  bool flatten = false;
  auto mark = [&](int64_t d) {
    if (ndim == 0) return;
    reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(ndim) : d)] = true;
  };
  if (dims == nullptr || (dims->tag == BP_VALUE_INT_LIST && dims->u.ints.size == 0)) {
    reduced.assign(ndim, true);
    flatten = op.has_index_output();
  } else if (dims->tag == BP_VALUE_INT) {
    mark(dims->u.i);
  } else {
    for (size_t i = 0; i < dims->u.ints.size; ++i) mark(dims->u.ints.data[i]);
  }
  const bool keepdim =
      op.keepdim >= 0 && args[op.keepdim].tag == BP_VALUE_BOOL && args[op.keepdim].u.b;

  // The kernel: reduced in the dtype of the tensor the declaration names, stored in the dtype of
  // the first value output.
  const Dtype in_dtype = *dtype_from_abi(in.dtype);
  if (!op.supports(in_dtype)) {
    throw BeyondKernelLimits(std::string(op.name) + " is not declared for " +
                             std::string(info(in_dtype).name));
  }
  Dtype out_dtype = Dtype::kInt64;
  for (int o = op.num_outputs; o-- > 0;) {
    if (op.result(o) == ReduceResult::kValue) out_dtype = *dtype_from_abi(outs[o].dtype);
  }
  // A tensor's dtype, or a ScalarType argument's, self's when None (norm(x, dtype=float64)
  // reduces x.to(dtype)).
  const bp_value& reduce_in = args[op.in];
  const std::optional<Dtype> reduce_dtype =
      reduce_in.tag == BP_VALUE_DTYPE  ? dtype_from_abi(reduce_in.u.dtype)
      : reduce_in.tag == BP_VALUE_NONE ? std::optional<Dtype>(in_dtype)
                                       : dtype_from_abi(meta_of(reduce_in.u.tensor).dtype);
  BP_CUDA_INTERNAL_CHECK(reduce_dtype.has_value(), "a reduction in an unknown dtype");
  const ReduceKernel kernel{&op, *reduce_dtype, out_dtype};
  CudaDevice& device = device_at(in.device);

  // The input, in the kernel's dtype (and flattened for argmax / argmin without a dim).
  TensorRef converted, flat;
  bp_tensor* input = self;
  if (in_dtype != kernel.dtype || (flatten && !is_contiguous(self))) {
    converted = converted_copy(self, kernel.dtype);
    input = converted.get();
  }
  const TensorMeta input_meta = meta_of(input);
  std::vector<TensorRef> views;
  std::vector<bp_tensor*> view_ptrs;
  if (flatten) {
    flat = wrap(input_meta, input_meta.data, {in.numel}, {1});
    input = flat.get();
    for (const TensorMeta& o : outs) {
      views.push_back(wrap(o, o.data, {in.numel}, {0}));
      view_ptrs.push_back(views.back().get());
    }
  } else {
    for (const TensorMeta& o : outs) {
      // The output with the input's rank: stride 0 along reduced dims.
      std::vector<int64_t> strides(ndim, 0);
      size_t out_dim = 0;
      for (size_t d = 0; d < ndim; ++d) {
        if (reduced[d]) {
          if (keepdim) ++out_dim;
          continue;
        }
        strides[d] = o.strides[out_dim++];
      }
      views.push_back(wrap(o, o.data, in.sizes, strides));
      view_ptrs.push_back(views.back().get());
    }
  }

  const Iter iter = build_iter(view_ptrs, {input},
                               BP_ITER_IS_REDUCTION | BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE |
                                   BP_ITER_CHECK_ALL_SAME_DEVICE);
  // Plans beyond 32-bit indexing run in 32-bit parts whose partial results are combined.
  run_reduce(device, plan_reduce_parts(kernel, read_plan(iter.get()),
                                       reduce_values(ops_arguments(op, args))));
}

bp_error* reduction_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                           bp_value* results, size_t nresults) {
  const ReductionOp& r = *static_cast<const ReductionOp*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_reduction(r, args);
    for (size_t o = 0; o < nresults && o < static_cast<size_t>(r.num_outputs); ++o) {
      return_tensor(results + o, 1, args[r.outputs[o]].u.tensor);
    }
  });
}

}  // namespace

std::vector<KernelRegistration> reduction_registrations() {
  std::vector<KernelRegistration> out;
  for (const ReductionOp& op : reduction_ops()) {
    // The row is immutable and lives as long as the plugin.
    out.push_back({op.name, &reduction_kernel, const_cast<ReductionOp*>(&op)});
  }
  return out;
}

}  // namespace bp::cuda
