#include "reference_backend/cuda/reduction_catalog.h"

#include <string_view>

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/schema.h"
#include "sdk/ops/define_ops.h"
#include "sdk/ops/op_table.h"

namespace bp::cuda {
namespace {

// The functional variant of a structured out= op ("sum.IntList_out" -> "sum.dim_IntList").
const OpInfo* functional_of(const ReductionOp& op) {
  for (const OpInfo& info : op_table()) {
    if (info.structured_group == op.name && info.kind == OpKind::kFunctional) return &info;
  }
  return nullptr;
}

// A value for each argument of a functional reduction: the input as a Meta tensor of `type`,
// dim 0 where one is required, None where the argument may be None; a ScalarType argument is
// `dtype_arg` when given (optional or not), else None or the input's type.
std::optional<Value> argument_for(const Argument& a, ScalarType type,
                                  std::optional<ScalarType> dtype_arg) {
  const Type& t = a.type;
  if (t.kind == TypeKind::kScalarType && !t.is_list && dtype_arg) return Value(*dtype_arg);
  if (t.optional) return Value(std::nullopt);
  switch (t.kind) {
    case TypeKind::kTensor:
      if (t.is_list) return std::nullopt;
      return Value(native::empty({2, 3}, type, Device(DeviceType::kMeta)));
    case TypeKind::kInt:
      return t.is_list ? Value(std::vector<int64_t>{0}) : Value(int64_t{0});
    case TypeKind::kBool:
      return Value(false);
    case TypeKind::kScalarType:
      return Value(type);
    case TypeKind::kScalar:
      return Value(Scalar(2.0));
    default:
      return std::nullopt;
  }
}

// The kernel of a functional call of `op` over an input of `dtype`, with `dtype_arg` for the
// ScalarType argument if given: nullopt when the meta function refuses the call.
std::optional<ReduceKernel> reduction_of_call(const ReductionOp& op, Dtype dtype,
                                              std::optional<Dtype> dtype_arg) {
  if (!op.supports(dtype)) return std::nullopt;
  const OpInfo* functional = functional_of(op);
  BP_INTERNAL_ASSERT(functional != nullptr, op.name, " has no functional variant");
  define_ops();
  const OperatorHandle handle =
      Dispatcher::singleton().find_op_or_throw("bp::" + std::string(functional->name));
  const ScalarType type = static_cast<ScalarType>(code(dtype));
  Stack stack;
  std::optional<ScalarType> scalar_type_arg;
  if (dtype_arg) scalar_type_arg = static_cast<ScalarType>(code(*dtype_arg));
  // The kernel's dtype when `reduce_in` names the ScalarType argument (the functional op has the
  // out= op's arguments up to its outputs).
  std::optional<Dtype> named_dtype;
  for (const Argument& a : parse_schema(functional->schema).arguments) {
    std::optional<Value> v = argument_for(a, type, scalar_type_arg);
    BP_INTERNAL_ASSERT(v.has_value(), functional->name, ": no value for argument ", a.name);
    if (static_cast<int>(stack.size()) == op.in && v->tag() == Value::Tag::kScalarType) {
      named_dtype = dtype_of_code(static_cast<int>(v->ref<ScalarType>()));
    }
    stack.push_back(std::move(*v));
  }
  try {
    handle.call_boxed(&stack);
  } catch (const bp::Error&) {
    return std::nullopt;  // e.g. norm of complex64 into dtype=complex64
  }
  // The functional op returns the out= op's outputs, in order.
  auto output_dtype = [&](int o) {
    return dtype_of_code(static_cast<int>(stack.at(static_cast<size_t>(o)).ref<Tensor>().dtype()));
  };
  ReduceKernel kernel{&op, named_dtype.value_or(dtype), Dtype::kInt64};
  for (int o = op.num_outputs; o-- > 0;) {
    if (op.outputs[o] == op.in) kernel.dtype = output_dtype(o);
    if (op.result(o) == ReduceResult::kValue) kernel.out = output_dtype(o);
  }
  return kernel;
}

}  // namespace

std::optional<ReduceKernel> natural_reduction(const ReductionOp& op, Dtype dtype) {
  return reduction_of_call(op, dtype, std::nullopt);
}

std::vector<ReduceKernel> reduction_kernels() {
  std::vector<ReduceKernel> kernels;
  std::set<std::string> seen;
  auto add = [&](const std::optional<ReduceKernel>& k) {
    if (k && seen.insert(k->entry_name()).second) kernels.push_back(*k);
  };
  for (const ReductionOp& op : reduction_ops()) {
    const bool takes_dtype =
        std::string_view(functional_of(op)->schema).find("ScalarType") != std::string_view::npos;
    for (int d = 0; d < kNumDtypes; ++d) {
      add(natural_reduction(op, dtype_of_code(d)));
      // norm(x, dtype=float64) reduces a float32 input into float64: a kernel of its own.
      for (int a = 0; takes_dtype && a < kNumDtypes; ++a) {
        add(reduction_of_call(op, dtype_of_code(d), dtype_of_code(a)));
      }
    }
  }
  return kernels;
}

std::set<std::string> reduction_families() {
  std::set<std::string> families;
  for (const ReductionOp& op : reduction_ops()) families.insert(family_of(op));
  return families;
}

}  // namespace bp::cuda
