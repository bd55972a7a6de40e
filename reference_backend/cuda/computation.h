// A computation: what an elementwise kernel computes for one element, as kernel source. The
// elementwise loops (jit/elementwise.cuh) load the inputs around it and store its result; a fused
// kernel (later) is a computation built from several ops' math.
//
//   Computation add = computation_of(*find_pointwise_op("add.out"));
//   add.expression;   // "bp::math::Add{}(in[0], in[1], arg0)"
//   add.num_inputs;   // 2 tensor inputs
//   add.args;         // {ArgType::kCompute}: one Scalar argument (alpha), passed by value in
//                     // the compute type
//
// Thread safety: values.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_COMPUTATION_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_COMPUTATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "reference_backend/cuda/pointwise_ops.h"

namespace bp::cuda {

// The type of a computation's argument in kernel source, which is also the dtype the host
// passes its value in (arg_dtype).
enum class ArgType : uint8_t {
  kCompute,  // the compute type (add's alpha)
  kReal,     // the compute type's real part type (a `float` argument of a complex op)
  kInt64,    // int64_t whatever the compute type (linspace's steps)
  kFloat64,  // double whatever the compute type (logspace's base)
};
// The dtype of an argument of type `type` in a computation running in `compute`.
Dtype arg_dtype(ArgType type, Dtype compute);

struct Computation {
  std::string name;  // a C identifier naming the computation in kernel names: "add_out"
  int num_inputs = 0;
  // The arguments arg0, arg1, ..., passed by value (after any by-value inputs).
  std::vector<ArgType> args;
  // True: inputs convert to compute_dtype(S) (float for float16) as the CPU's opmath does;
  // false: the computation works in S itself (copies and fills).
  bool uses_opmath = true;
  // A C++ expression over `in[0..num_inputs)` (of the compute type `compute_t`) and `arg0..`
  // (of their ArgTypes).
  std::string expression;
  // The expression also reads `index`, the element's linear index in the plan (uint32_t): a
  // factory's computation (range_factories.h). Meaningful for one-dimensional plans run in one
  // part.
  bool uses_index = false;

  int num_args() const { return static_cast<int>(args.size()); }
};

// The computation of a pointwise op (one row: an op, or one alternative of its math list): its
// math functor applied to its inputs (bp::jit::as_mask(in[i]) for an input read as bool: 0 / 1) and
// arguments. An alternative's name adds its functor ("clamp_out_ClampMin").
Computation computation_of(const PointwiseOp& op);
// out = in[0] converted to the output's dtype (copy_ between dtypes and layouts).
Computation copy_computation();
// out = arg0 (fill_).
Computation fill_computation();
// The range factories' computations (arange, linspace, logspace) are in range_factories.h.

// `text` with every character outside [A-Za-z0-9_] replaced by '_'.
std::string identifier(std::string text);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_COMPUTATION_H_
