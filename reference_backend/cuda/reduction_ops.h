// The reductions the plugin jits: every structured op declared with `reduce:` (sdk/ops/*.yaml),
// as rows the codegen writes (codegen/emit_cuda.cc, reduction_ops.inc). Nothing here names an op:
// a new declaration with `reduce:` appears in this table and runs on CUDA.
//
//   const ReductionOp* var = find_reduction_op("var.correction_out");
//   var->ops;            // "VarianceOps": bp::math::VarianceOps<T> (reference_backend/math)
//   var->args[0];        // 2: the boxed argument index of `correction`
//   var->if_none[0];     // "1": what a None correction means
//   var->in;             // 0: elements are reduced in the dtype of `self`
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_OPS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_OPS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

// What an output receives: the numbers of the table (codegen's ReduceResult) and of the kernel
// template (jit/reduce.cuh).
enum class ReduceResult : int { kValue = 0, kIndex = 1 };

struct ReductionOp {
  const char* name;        // "var.correction_out"
  const char* base_name;   // "var": how error messages name the op
  const char* ops;         // "VarianceOps"
  uint32_t dtypes;         // bit code(d): input dtype d is supported
  int self;                // the boxed argument index of the input
  int dim;                 // of the reduced dims, or -1 (every dim is reduced)
  int keepdim;             // of keepdim, or -1
  int in;                  // of what gives the dtype elements are reduced in: self, an output
                           // or a ScalarType argument
  int num_args;            // arguments of the ops struct
  int args[4];             // their boxed argument indices
  const char* if_none[4];  // what None means for each, as a number, or nullptr
  int num_outputs;         // 1 or 2
  int outputs[2];          // the outputs' boxed argument indices
  int results[2];          // what each receives (a ReduceResult)
  int num_arguments;       // arguments in the schema
  const char* source;      // "sdk/ops/reductions.yaml:108"

  bool supports(Dtype dtype) const { return in_mask(dtypes, dtype); }
  ReduceResult result(int output) const { return static_cast<ReduceResult>(results[output]); }
  // Whether an output receives indices (argmax, max.dim): without dims, the flattened input is
  // reduced, as PyTorch's argmax does.
  bool has_index_output() const;
};

std::span<const ReductionOp> reduction_ops();
// The row of `name` ("var.correction_out"), or nullptr.
const ReductionOp* find_reduction_op(std::string_view name);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_REDUCTION_OPS_H_
