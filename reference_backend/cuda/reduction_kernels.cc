// Kernels of the reductions, registered for each out= overload that is declared (by PyTorch's
// schemas; arguments found by name in op_arguments.inc): the host's Common key has run the op's
// meta function (dims, keepdim, the outputs' shapes and dtypes), and the kernel
//   1. converts the input to the dtype the reduction runs in if it differs (PyTorch's
//      make_reduction does self.to(dtype)),
//   2. views each output with the input's rank and stride 0 along the reduced dimensions,
//   3. builds a reduction plan and launches the jitted reduction (reduce_kernel.h).
// argmax / argmin without a dim reduce the flattened input. Plans beyond the kernels' limits
// (64-bit indexing) and dtype combinations without a kernel run on the CPU instead.
#include <algorithm>
#include <cmath>
#include <deque>

#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/kernels.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/op_arguments.h"
#include "reference_backend/cuda/plugin_state.h"
#include "reference_backend/cuda/reduce_kernel.h"

namespace bp::cuda {
namespace {

enum class RunsIn { kOutputDtype, kInputDtype };

struct ReductionSpec {
  const char* op;
  ReduceOp reduce;  // norms: the p of each call picks the kernel
  RunsIn runs_in;
  std::vector<const char*> outputs;
};

// PyTorch's out= overloads of the reductions.
const std::vector<ReductionSpec>& specs() {
  static const std::vector<ReductionSpec> kSpecs = {
      {"sum.IntList_out", ReduceOp::kSum, RunsIn::kOutputDtype, {"out"}},
      {"mean.out", ReduceOp::kMean, RunsIn::kOutputDtype, {"out"}},
      {"prod.int_out", ReduceOp::kProd, RunsIn::kOutputDtype, {"out"}},
      {"prod.out", ReduceOp::kProd, RunsIn::kOutputDtype, {"out"}},
      {"amax.out", ReduceOp::kAmax, RunsIn::kInputDtype, {"out"}},
      {"amin.out", ReduceOp::kAmin, RunsIn::kInputDtype, {"out"}},
      {"max.dim_max", ReduceOp::kMaxDim, RunsIn::kInputDtype, {"max", "max_values"}},
      {"min.dim_min", ReduceOp::kMinDim, RunsIn::kInputDtype, {"min", "min_indices"}},
      {"max.unary_out", ReduceOp::kAmax, RunsIn::kInputDtype, {"out"}},
      {"min.unary_out", ReduceOp::kAmin, RunsIn::kInputDtype, {"out"}},
      {"argmax.out", ReduceOp::kArgmax, RunsIn::kInputDtype, {"out"}},
      {"argmin.out", ReduceOp::kArgmin, RunsIn::kInputDtype, {"out"}},
      {"var.correction_out", ReduceOp::kVar, RunsIn::kInputDtype, {"out"}},
      {"std.correction_out", ReduceOp::kStd, RunsIn::kInputDtype, {"out"}},
      {"norm.out", ReduceOp::kNormTwo, RunsIn::kInputDtype, {"out"}},
      {"norm.dtype_out", ReduceOp::kNormTwo, RunsIn::kOutputDtype, {"out"}},
      {"linalg_vector_norm.out", ReduceOp::kNormTwo, RunsIn::kOutputDtype, {"out"}},
      {"all.out", ReduceOp::kAll, RunsIn::kInputDtype, {"out"}},
      {"all.dims_out", ReduceOp::kAll, RunsIn::kInputDtype, {"out"}},
      {"all.all_out", ReduceOp::kAll, RunsIn::kInputDtype, {"out"}},
      {"any.out", ReduceOp::kAny, RunsIn::kInputDtype, {"out"}},
      {"any.dims_out", ReduceOp::kAny, RunsIn::kInputDtype, {"out"}},
      {"any.all_out", ReduceOp::kAny, RunsIn::kInputDtype, {"out"}},
      {"logsumexp.out", ReduceOp::kLogSumExp, RunsIn::kOutputDtype, {"out"}},
  };
  return kSpecs;
}

// Where the arguments of one declared overload are.
struct ReductionKernel {
  const ReductionSpec* spec;
  int self, dim, keepdim, correction, p;
  std::vector<int> outputs;
};

bool is_norm(ReduceOp op) { return op >= ReduceOp::kNormZero && op <= ReduceOp::kNormP; }
bool is_index_only(ReduceOp op) { return op == ReduceOp::kArgmax || op == ReduceOp::kArgmin; }

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

// The norm kernel for order p.
ReduceOp norm_for(double p) {
  if (p == 0) return ReduceOp::kNormZero;
  if (p == 1) return ReduceOp::kNormOne;
  if (p == 2) return ReduceOp::kNormTwo;
  if (std::isinf(p)) return p > 0 ? ReduceOp::kNormInf : ReduceOp::kNormNegInf;
  return ReduceOp::kNormP;
}

TensorRef wrap(const TensorMeta& like, void* data, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides) {
  bp_tensor* t = nullptr;
  check(api()->tensor_wrap(data, sizes.data(), strides.data(), sizes.size(), like.dtype,
                           like.device, nullptr, nullptr, &t));
  return TensorRef(t);
}

TensorRef empty_like_sizes(const std::vector<int64_t>& sizes, int32_t dtype, bp_device device) {
  bp_tensor* t = nullptr;
  check(api()->tensor_empty(sizes.data(), sizes.size(), dtype, device, &t));
  return TensorRef(t);
}

void run_reduction(const ReductionKernel& k, const bp_value* args) {
  const ReductionSpec& spec = *k.spec;
  bp_tensor* self = args[k.self].u.tensor;
  const TensorMeta in = meta_of(self);
  const size_t ndim = in.sizes.size();
  std::vector<TensorMeta> outs;
  for (int o : k.outputs) outs.push_back(meta_of(args[o].u.tensor));
  if (outs[0].numel == 0) return;

  // Which dimensions are reduced.
  std::vector<bool> reduced(ndim, false);
  const bp_value* dims = argument(args, k.dim);
  bool flatten = false;
  auto mark = [&](int64_t d) {
    if (ndim == 0) return;
    reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(ndim) : d)] = true;
  };
  if (dims == nullptr || (dims->tag == BP_VALUE_INT_LIST && dims->u.ints.size == 0)) {
    reduced.assign(ndim, true);
    flatten = is_index_only(spec.reduce) || spec.reduce == ReduceOp::kMaxDim;
  } else if (dims->tag == BP_VALUE_INT) {
    mark(dims->u.i);
  } else {
    for (size_t i = 0; i < dims->u.ints.size; ++i) mark(dims->u.ints.data[i]);
  }
  const bool keepdim =
      k.keepdim >= 0 && args[k.keepdim].tag == BP_VALUE_BOOL && args[k.keepdim].u.b;

  // The kernel.
  const Dtype out_dtype = *dtype_from_abi(outs[0].dtype);
  const Dtype in_dtype = *dtype_from_abi(in.dtype);
  ReduceKernel kernel{spec.reduce, spec.runs_in == RunsIn::kOutputDtype ? out_dtype : in_dtype,
                      out_dtype};
  double p = 2;
  if (is_norm(spec.reduce)) {
    if (const bp_value* pv = argument(args, k.p)) p = as_double(*pv);
    kernel.op = norm_for(p);
  }
  if (!is_supported(kernel)) {
    throw BeyondKernelLimits(std::string("no CUDA kernel for ") + spec.op + " of " +
                             std::string(info(in_dtype).name) + " into " +
                             std::string(info(out_dtype).name));
  }
  CudaDevice& device = device_at(in.device);

  // The input, in the kernel's dtype (and flattened for argmax / argmin without a dim).
  TensorRef converted, flat;
  bp_tensor* input = self;
  if (in_dtype != kernel.dtype || (flatten && !is_contiguous(self))) {
    converted = empty_like_sizes(in.sizes, info(kernel.dtype).abi, in.device);
    static const Computation copy = copy_computation();
    const Iter iter = build_iter({converted.get()}, {self}, BP_ITER_CHECK_ALL_SAME_DEVICE);
    for_each_32bit(iter.get(), [&](const bp_iter* part) {
      run_elementwise(device, plan_elementwise(copy, in_dtype, kernel.dtype, read_plan(part), {}));
    });
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
  bp_iter_info plan_info{};
  plan_info.struct_size = sizeof plan_info;
  check(api()->iter_info(iter.get(), &plan_info));
  if (!plan_info.can_use_32bit_indexing) {
    throw BeyondKernelLimits("a CUDA reduction that needs 64-bit indexing");
  }

  // The reduction's parameters.
  std::vector<jit::Value> values;
  int64_t count = 1;
  for (size_t d = 0; d < ndim; ++d) {
    if (reduced[d]) count *= in.sizes[d];
  }
  bp_value v{};
  if (spec.reduce == ReduceOp::kMean) {
    v.tag = BP_VALUE_INT;
    v.u.i = count;
    values.push_back(scalar_as(v, compute_dtype(out_dtype)));
  } else if (spec.reduce == ReduceOp::kVar || spec.reduce == ReduceOp::kStd) {
    const bp_value* correction = argument(args, k.correction);
    v.tag = BP_VALUE_INT;
    v.u.i = 1;
    values.push_back(scalar_as(correction != nullptr ? *correction : v, kernel.accumulator()));
  } else if (is_norm(kernel.op)) {
    v.tag = BP_VALUE_DOUBLE;
    v.u.d = p;
    values.push_back(scalar_as(v, kernel.accumulator()));
  }
  run_reduce(device, plan_reduce(kernel, read_plan(iter.get()), values));
}

bp_error* reduction_kernel(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                           bp_value* results, size_t nresults) {
  const ReductionKernel& k = *static_cast<const ReductionKernel*>(user_data);
  return run_or_fall_back(op, args, nargs, results, nresults, [&] {
    run_reduction(k, args);
    for (size_t r = 0; r < nresults && r < k.outputs.size(); ++r) {
      return_tensor(results + r, 1, args[k.outputs[r]].u.tensor);
    }
  });
}

}  // namespace

std::vector<KernelRegistration> reduction_registrations() {
  static std::deque<ReductionKernel>* kernels = [] {
    auto* list = new std::deque<ReductionKernel>();
    for (const ReductionSpec& spec : specs()) {
      const std::optional<OpArguments> declared = find_op_arguments(spec.op);
      if (!declared || declared->index_of("self") < 0) continue;
      ReductionKernel k{&spec,
                        declared->index_of("self"),
                        declared->index_of("dim"),
                        declared->index_of("keepdim"),
                        declared->index_of("correction"),
                        std::max(declared->index_of("p"), declared->index_of("ord")),
                        {}};
      bool complete = true;
      for (const char* name : spec.outputs) {
        k.outputs.push_back(declared->index_of(name));
        complete = complete && k.outputs.back() >= 0;
      }
      if (complete) list->push_back(std::move(k));
    }
    return list;
  }();
  std::vector<KernelRegistration> out;
  for (ReductionKernel& k : *kernels) out.push_back({k.spec->op, &reduction_kernel, &k});
  return out;
}

}  // namespace bp::cuda
