#include "reference_backend/cuda/kernel_catalog.h"

#include <algorithm>
#include <complex>
#include <initializer_list>
#include <string>

#include "reference_backend/cuda/range_factories.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/ops/define_ops.h"
#include "sdk/ops/op_table.h"

namespace bp::cuda {
namespace {

// The functional variant of a structured out= op ("add.out" -> "add.Tensor").
const OpInfo* functional_of(const PointwiseOp& op) {
  for (const OpInfo& info : op_table()) {
    if (info.structured_group == op.name && info.kind == OpKind::kFunctional) return &info;
  }
  return nullptr;
}

// Whether out= factory `op` ("linspace.out") writes `dtype`, as its Meta kernel says for 0 to 1 in
// two steps, with `more` (logspace's base) before `out`.
bool factory_writes(const char* op, Dtype dtype, std::initializer_list<Value> more = {}) {
  define_ops();
  const OperatorHandle handle = Dispatcher::singleton().find_op_or_throw(std::string("bp::") + op);
  Stack stack{Value(Scalar(int64_t{0})), Value(Scalar(int64_t{1})), Value(int64_t{2})};
  stack.insert(stack.end(), more.begin(), more.end());
  stack.emplace_back(
      native::empty({2}, static_cast<ScalarType>(code(dtype)), Device(DeviceType::kMeta)));
  try {
    handle.call_boxed(&stack);
  } catch (const bp::Error&) {
    return false;  // linspace of bool, logspace of float16
  }
  return true;
}

// The static variants: vector widths 4, 2, 1 and strided.
void add_static(std::vector<ElementwiseKernel>& out, const Computation& c, Dtype dtype,
                Dtype out_dtype, uint32_t mask) {
  for (int vec : {4, 2, 1}) out.push_back({c, dtype, out_dtype, Variant::kVectorized, vec, mask});
  out.push_back({c, dtype, out_dtype, Variant::kStrided, 1, mask});
}

}  // namespace

std::optional<Dtype> natural_output(const PointwiseOp& op, Dtype dtype) {
  if (!op.supports(dtype)) return std::nullopt;
  const OpInfo* functional = functional_of(op);
  BP_INTERNAL_ASSERT(functional != nullptr, op.name, " has no functional variant");
  define_ops();
  const OperatorHandle handle =
      Dispatcher::singleton().find_op_or_throw("bp::" + std::string(functional->name));
  // The functional variant takes the out= op's arguments but `out`: tensor inputs (Meta tensors
  // of `dtype`, or bool), the math's Scalars (1 of dtype's kind, which does not promote the
  // inputs) and what the alternative's conditions need.
  const DtypeInfo& kind = info(dtype);
  const Scalar one = kind.is_complex    ? Scalar(std::complex<double>(1, 0))
                     : kind.is_floating ? Scalar(1.0)
                     : kind.is_integral ? Scalar(int64_t{1})
                                        : Scalar(true);
  Stack stack;
  for (int i = 0; i < op.num_arguments; ++i) {
    if (i == op.out) continue;
    const auto is = [i](const int* begin, int n) {
      return std::find(begin, begin + n, i) != begin + n;
    };
    if (is(op.inputs, op.num_inputs)) {
      const int k =
          static_cast<int>(std::find(op.inputs, op.inputs + op.num_inputs, i) - op.inputs);
      const ScalarType in = static_cast<ScalarType>(code(input_dtype(op, k, dtype)));
      stack.emplace_back(native::empty({2}, in, Device(DeviceType::kMeta)));
    } else if (is(op.args, op.num_args)) {
      const int j = static_cast<int>(std::find(op.args, op.args + op.num_args, i) - op.args);
      stack.push_back(sample_math_argument(op, j, one));
    } else {
      stack.push_back(condition_value(op, i));
    }
  }
  try {
    handle.call_boxed(&stack);
  } catch (const bp::Error&) {
    return std::nullopt;  // e.g. sub of bool tensors
  }
  return dtype_of_code(static_cast<int>(stack.at(0).ref<Tensor>().dtype()));
}

Dtype input_dtype(const PointwiseOp& op, int i, Dtype dtype) {
  return ((op.bool_inputs >> i) & 1u) ? Dtype::kBool : dtype;
}

Value condition_value(const PointwiseOp& op, int argument) {
  for (int k = 0; k < op.num_when; ++k) {
    if (op.when_args[k] == argument && op.when_values[k] != nullptr) {
      return Value(std::string_view(op.when_values[k]));
    }
  }
  return Value();
}

bool runs_static(const PointwiseOp& op, Dtype dtype) {
  return op.bool_inputs == 0 || dtype == Dtype::kBool;
}

Value sample_math_argument(const PointwiseOp& op, int j, const Scalar& scalar) {
  std::string_view type = op.arg_types[j];
  if (type.ends_with("?")) {
    if (op.if_none[j] != nullptr) return Value();
    type.remove_suffix(1);  // an alternative that runs when the argument is given
  }
  if (type == "Scalar") return Value(scalar);
  if (type == "int") return Value(int64_t{2});
  if (type == "float") return Value(0.25);
  if (type == "bool") return Value(true);
  const std::string_view values = op.choices[j];
  return Value(values.substr(values.rfind('|') + 1));
}

std::vector<ElementwiseKernel> kernels_of(const PointwiseOp& op) {
  std::vector<ElementwiseKernel> kernels;
  const Computation c = computation_of(op);
  // A single input is never a CPU scalar (the plan's device would be the CPU).
  const uint32_t masks = op.num_inputs > 1 ? 1u << op.num_inputs : 1u;
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    const std::optional<Dtype> out = natural_output(op, dtype);
    if (!op.supports(dtype) || !out) continue;
    for (uint32_t mask = 0; mask < masks; ++mask) {
      add_static(kernels, c, dtype, *out, mask);
      kernels.push_back({c, dtype, dtype, Variant::kDynamic, 1, mask});
    }
  }
  return kernels;
}

std::vector<ElementwiseKernel> copy_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int s = 0; s < kNumDtypes; ++s) {
    for (int d = 0; d < kNumDtypes; ++d) {
      add_static(kernels, copy_computation(), dtype_of_code(s), dtype_of_code(d), 0);
    }
  }
  return kernels;
}

std::vector<ElementwiseKernel> fill_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    add_static(kernels, fill_computation(), dtype_of_code(d), dtype_of_code(d), 0);
  }
  return kernels;
}

std::vector<ElementwiseKernel> arange_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    if (dtype == Dtype::kBool) continue;
    add_static(kernels, arange_computation(), arange_dtype(dtype), dtype, 0);
  }
  return kernels;
}

std::vector<ElementwiseKernel> linspace_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    if (!factory_writes("linspace.out", dtype)) continue;
    add_static(kernels, linspace_computation(), linspace_dtype(dtype), dtype, 0);
  }
  return kernels;
}

std::vector<ElementwiseKernel> logspace_kernels() {
  std::vector<ElementwiseKernel> kernels;
  for (int d = 0; d < kNumDtypes; ++d) {
    const Dtype dtype = dtype_of_code(d);
    if (!factory_writes("logspace.out", dtype, {Value(10.0)})) continue;
    add_static(kernels, logspace_computation(), dtype, dtype, 0);
  }
  return kernels;
}

}  // namespace bp::cuda
