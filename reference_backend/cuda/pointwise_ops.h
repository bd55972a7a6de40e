// The pointwise ops the plugin jits: every structured op declared with `math:` (sdk/ops/*.yaml),
// as rows the codegen writes (codegen/emit_cuda.cc, pointwise_ops.inc). Nothing here names an op:
// a new declaration with `math:` appears in this table and runs on CUDA. An op whose `math:` is
// a list of alternatives (clamp: Clamp, ClampMin or ClampMax by the bounds given; div's rounding
// modes) has one row per alternative, consecutive, and a call runs the first that applies
// (select_alternative).
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
  const char* error_name;    // how dtype errors name it: "add"; an alternative's "div_trunc"
  uint32_t bool_inputs;      // bit i: input i is read as bool (where's condition)
  int divisor;               // the input it divides by (ZeroDivisionError for integers), or -1
  int num_when;              // conditions on arguments for this alternative to apply
  int when_args[2];          // their boxed argument indices
  const char* when_values[2];  // the str value each must have; nullptr: None

  bool supports(Dtype dtype) const { return in_mask(dtypes, dtype); }
};

std::span<const PointwiseOp> pointwise_ops();
// The dtype functor argument j of `op` reaches the functor in, for common dtype `dtype`: the
// compute type (float for float16), or its real part type for a `float` argument (a real number
// by its schema: nan_to_num's replacements for complex inputs).
Dtype math_argument_dtype(const PointwiseOp& op, int j, Dtype dtype);
// The functor argument j of `op` given as boxed `value`, for common dtype `dtype`, in
// math_argument_dtype: a number (Scalar, int, float, bool) converted as scalar_as, None as the
// number the declaration gives (or the largest / lowest finite value of `dtype`'s real part
// type for `max` / `lowest`), a str as the index of its value. Errors: BP_ERROR_INTERNAL for a
// value the meta function should have refused (a str not listed, None without a meaning).
jit::Value math_argument(const PointwiseOp& op, int j, const bp_value& value, Dtype dtype);
// The row of `name` ("add.out"), or nullptr (the first alternative of a list).
const PointwiseOp* find_pointwise_op(std::string_view name);
// Every row of `name`: one, or its alternatives in order (empty when `name` has none).
std::span<const PointwiseOp> pointwise_alternatives(std::string_view name);
// Whether `row` applies to a call with boxed arguments `args`: each condition holds, each optional
// tensor input it reads is given, and each optional argument without a None number is given.
bool alternative_applies(const PointwiseOp& row, const bp_value* args);
// The first of `rows` that applies to `args`, or nullptr (a call the meta function refuses).
const PointwiseOp* select_alternative(std::span<const PointwiseOp> rows, const bp_value* args);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_POINTWISE_OPS_H_
