// The pointwise ops the plugin jits: every structured op declared with `math:` (sdk/ops/*.yaml),
// as rows the codegen writes (codegen/emit_cuda.cc, pointwise_ops.inc). Nothing here names an op:
// a new declaration with `math:` appears in this table and runs on CUDA.
//
//   const PointwiseOp* add = find_pointwise_op("add.out");
//   add->functor;        // "Add": bp::math::Add in reference_backend/math
//   add->inputs[1];      // 1: the boxed argument index of `other`
//   add->args[0];        // 2: `alpha`, the functor's first Scalar argument
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_POINTWISE_OPS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_POINTWISE_OPS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "backplane/types.h"
#include "reference_backend/cuda/dtypes.h"
#include "reference_backend/cuda/jit/kernel_args.h"

namespace bp::cuda {

struct PointwiseOp {
  const char* name;          // "add.out"
  const char* base_name;     // "add": how error messages name the op
  const char* functor;       // "Add"
  const char* meta;          // the meta function: "add_op" (for messages)
  uint32_t dtypes;           // bit code(d): common dtype d is supported
  int num_inputs;            // tensor inputs of the functor, in TensorIterator order
  int inputs[4];             // their boxed argument indices
  int num_args;              // arguments of the functor after its tensor inputs (numbers, str)
  int args[4];               // their boxed argument indices
  const char* arg_types[4];  // their schema types: "Scalar", "int", "float?", "str"
  const char* if_none[4];    // for an optional one, the number None stands for: "-1"
  const char* choices[4];    // for a str one, its values: "none|tanh" (the functor gets the index)
  int out;                   // the boxed argument index of `out`
  int num_arguments;         // arguments in the schema
  const char* source;        // "sdk/ops/binary.yaml:14"

  bool supports(Dtype dtype) const { return in_mask(dtypes, dtype); }
};

std::span<const PointwiseOp> pointwise_ops();
// The functor argument j of `op` given as boxed `value`, in the compute type `to`: a number
// (Scalar, int, float, bool) converted as scalar_as, None as the number the declaration gives,
// a str as the index of its value. Errors: BP_ERROR_INTERNAL for a value the meta function should
// have refused (a str not listed, None without a meaning).
jit::Value math_argument(const PointwiseOp& op, int j, const bp_value& value, Dtype to);
// The row of `name` ("add.out"), or nullptr.
const PointwiseOp* find_pointwise_op(std::string_view name);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_POINTWISE_OPS_H_
