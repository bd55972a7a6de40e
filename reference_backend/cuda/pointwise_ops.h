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

#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

struct PointwiseOp {
  const char* name;       // "add.out"
  const char* base_name;  // "add": how error messages name the op
  const char* functor;    // "Add"
  const char* meta;       // the meta function: "add_op" (for messages)
  uint32_t dtypes;        // bit code(d): common dtype d is supported
  int num_inputs;         // tensor inputs of the functor, in TensorIterator order
  int inputs[4];          // their boxed argument indices
  int num_args;           // Scalar arguments of the functor
  int args[4];            // their boxed argument indices
  int out;                // the boxed argument index of `out`
  int num_arguments;      // arguments in the schema
  const char* source;     // "sdk/ops/binary.yaml:14"

  bool supports(Dtype dtype) const { return in_mask(dtypes, dtype); }
};

std::span<const PointwiseOp> pointwise_ops();
// The row of `name` ("add.out"), or nullptr.
const PointwiseOp* find_pointwise_op(std::string_view name);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_POINTWISE_OPS_H_
