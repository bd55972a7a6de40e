#include "reference_backend/cuda/computation.h"

namespace bp::cuda {

std::string identifier(std::string text) {
  for (char& c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) c = '_';
  }
  return text;
}

Computation computation_of(const PointwiseOp& op) {
  Computation c;
  c.name = identifier(op.name);
  if (pointwise_alternatives(op.name).size() > 1) c.name += "_" + std::string(op.functor);
  c.num_inputs = op.num_inputs;
  c.num_args = op.num_args;
  c.uses_opmath = true;
  c.expression = std::string("bp::math::") + op.functor + "{}(";
  for (int i = 0; i < op.num_inputs; ++i) {
    const std::string in = "in[" + std::to_string(i) + "]";
    const bool as_bool = (op.bool_inputs >> i) & 1u;
    c.expression += (i ? ", " : "") + (as_bool ? "bp::jit::as_mask(" + in + ")" : in);
  }
  for (int j = 0; j < op.num_args; ++j) {
    c.expression += (op.num_inputs + j ? ", arg" : "arg") + std::to_string(j);
    const std::string_view type = op.arg_types[j];
    if (type == "float" || type == "float?") c.real_args |= 1u << j;
  }
  c.expression += ")";
  return c;
}

Computation copy_computation() { return {"copy", 1, 0, false, "in[0]"}; }

Computation fill_computation() { return {"fill", 0, 1, false, "arg0"}; }

Computation arange_computation() {
  Computation c{"arange", 0, 2, false, "arg0 + arg1 * compute_t(index)"};
  c.uses_index = true;
  return c;
}

Dtype range_dtype(Dtype dtype) {
  const DtypeInfo& i = info(dtype);
  if (i.is_complex) return Dtype::kComplex128;
  if (!i.is_floating) return Dtype::kInt64;
  return i.itemsize == 2 ? Dtype::kFloat32 : Dtype::kFloat64;
}

}  // namespace bp::cuda
