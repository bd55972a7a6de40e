#include "reference_backend/cuda/computation.h"

namespace bp::cuda {

std::string identifier(std::string text) {
  for (char& c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) c = '_';
  }
  return text;
}

Dtype arg_dtype(ArgType type, Dtype compute) {
  switch (type) {
    case ArgType::kCompute:
      return compute;
    case ArgType::kReal:
      return real_dtype(compute);
    case ArgType::kInt64:
      return Dtype::kInt64;
    case ArgType::kFloat64:
      return Dtype::kFloat64;
  }
  return compute;
}

Computation computation_of(const PointwiseOp& op) {
  Computation c;
  c.name = identifier(op.name);
  if (pointwise_alternatives(op.name).size() > 1) c.name += "_" + std::string(op.functor);
  c.num_inputs = op.num_inputs;
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
    const bool real = type == "float" || type == "float?";
    c.args.push_back(real ? ArgType::kReal : ArgType::kCompute);
  }
  c.expression += ")";
  return c;
}

Computation copy_computation() {
  Computation c;
  c.name = "copy";
  c.num_inputs = 1;
  c.uses_opmath = false;
  c.expression = "in[0]";
  return c;
}

Computation fill_computation() {
  Computation c;
  c.name = "fill";
  c.args = {ArgType::kCompute};
  c.uses_opmath = false;
  c.expression = "arg0";
  return c;
}

}  // namespace bp::cuda
