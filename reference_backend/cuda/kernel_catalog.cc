#include "reference_backend/cuda/kernel_catalog.h"

#include <algorithm>
#include <complex>
#include <string>

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
  // of `dtype`) and the math's Scalars (1 of dtype's kind, which does not promote the inputs).
  const ScalarType type = static_cast<ScalarType>(code(dtype));
  const DtypeInfo& kind = info(dtype);
  const Scalar one = kind.is_complex    ? Scalar(std::complex<double>(1, 0))
                     : kind.is_floating ? Scalar(1.0)
                     : kind.is_integral ? Scalar(int64_t{1})
                                        : Scalar(true);
  // Input `bool_input` (>= 0) is a bool tensor instead: an op whose meta function takes a bool
  // mask beside values of `dtype` (masked_fill), whose kernels cast the mask while loading.
  const auto output_dtype = [&](int bool_input) -> std::optional<Dtype> {
    Stack stack;
    for (int i = 0; i < op.num_arguments; ++i) {
      if (i == op.out) continue;
      const int* input = std::find(op.inputs, op.inputs + op.num_inputs, i);
      if (input != op.inputs + op.num_inputs) {
        const bool is_bool = input - op.inputs == bool_input;
        stack.emplace_back(native::empty({2}, is_bool ? ScalarType::kBool : type,
                                         Device(DeviceType::kMeta)));
      } else {
        const int j = static_cast<int>(std::find(op.args, op.args + op.num_args, i) - op.args);
        BP_INTERNAL_ASSERT(j < op.num_args, op.name, ": argument ", i,
                           " is neither a tensor input nor a math argument");
        stack.push_back(sample_math_argument(op, j, one));
      }
    }
    try {
      handle.call_boxed(&stack);
    } catch (const bp::Error&) {
      return std::nullopt;  // e.g. sub of bool tensors
    }
    return dtype_of_code(static_cast<int>(stack.at(0).ref<Tensor>().dtype()));
  };
  for (int bool_input = -1; bool_input < op.num_inputs; ++bool_input) {
    if (const std::optional<Dtype> out = output_dtype(bool_input)) return out;
    if (op.num_inputs == 1) break;
  }
  return std::nullopt;
}

Value sample_math_argument(const PointwiseOp& op, int j, const Scalar& scalar) {
  const std::string_view type = op.arg_types[j];
  if (type == "Scalar") return Value(scalar);
  if (type.ends_with("?")) return Value();
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

}  // namespace bp::cuda
