/* Backplane C ABI: iteration plans, i.e. the host's TensorIterator for device kernels.
 *
 *   bp_tensor* outs[1] = {NULL};                   // allocated by the plan
 *   bp_tensor* ins[2] = {a, b};
 *   bp_iter_config config = {sizeof config};
 *   config.outputs = outs; config.noutputs = 1;
 *   config.inputs = ins; config.ninputs = 2;
 *   config.flags = BP_ITER_BINARY_OP;              // broadcast, promote, check overlap
 *   bp_iter* plan;
 *   bp_error* err = api->iter_build(&config, &plan);
 *   bp_iter_info info = {sizeof info};
 *   api->iter_info(plan, &info);                   // shape after coalescing, common dtype...
 *   bp_iter_operand op0 = {sizeof op0};
 *   api->iter_operand(plan, 0, &op0);              // data pointer, byte strides, dtype
 *   launch(info.ndim, info.shape, ...);
 *   api->iter_destroy(plan);
 *
 * The plan's dimension 0 is the fastest-moving one (the reverse of row-major order), as in
 * TensorIterator; strides are in bytes and 0 along broadcast dimensions.
 *
 * Which flags: BP_ITER_BINARY_OP for binary pointwise ops (add, mul: inputs promote to a common
 * dtype); BP_ITER_UNARY_OP for unary ops whose result has the input's dtype (neg, abs): every
 * operand must have one dtype; BP_ITER_UNARY_FLOAT_OP for unary ops with a floating result (exp,
 * sin, sqrt): integer and bool inputs promote to float32. With BP_ITER_UNARY_OP, exp of an int32
 * tensor fails in iter_build with "bp_api.iter_build: the iterator config requires one dtype
 * for every operand (BP_ITER_CHECK_ALL_SAME_DTYPE, part of BP_ITER_UNARY_OP), but output 0 is
 * float32 and input 0 is int32. ...", naming the flag that would accept it. An out= kernel
 * served through the Common key needs no flags: api->kernel_call_iter hands it the plan the op's
 * meta function built (api.h).
 *
 * Reductions: pass BP_ITER_IS_REDUCTION (and not BP_ITER_RESIZE_OUTPUTS) with outputs of the
 * input's rank that have size 1 or stride 0 along the reduced dimensions. The plan's outputs
 * then have stride 0 along the reduced dimensions; num_output_elements and num_reduce_dims
 * describe the split, and a 32-bit sub-plan that covers part of a reduced dimension says so with
 * should_accumulate / is_final_output. A reduction's out= kernel, called through the Common key,
 * gets its arguments in schema order, as the caller gave them; for
 *   sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None,
 *                   Tensor(a!) out)
 * - dim: BP_VALUE_NONE or an empty BP_VALUE_INT_LIST (every dimension), else an INT_LIST (or
 *   one BP_VALUE_INT) of dimensions that may be negative (count from the end: add self's ndim);
 * - keepdim: a BP_VALUE_BOOL;
 * - dtype: BP_VALUE_NONE or a BP_VALUE_DTYPE;
 * - out: already checked and resized by the op's meta function: the reduced shape (reduced
 *   dimensions kept with size 1 when keepdim, dropped otherwise) and the result dtype: the dtype=
 *   argument, else int64 for bool and integer inputs (sum and prod of int32 give int64, as in
 *   PyTorch), else self's dtype. Sums reduce in out's dtype.
 * For keepdim=False, view out with the input's rank before building the plan:
 * api->tensor_as_strided(out, self's sizes, strides with 0 along the reduced dimensions and
 * out's strides along the others, ndim, out's storage_offset, &view) (api.h, 0.3); the view
 * writes into out's memory. Use it as the plan's output, then release it.
 *
 * CPU plans: with BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE or BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS,
 * operands of another dtype than the common one are replaced by converted temporaries (other
 * devices are expected to cast while loading): call api->iter_cast_outputs after computing.
 *
 * Thread safety: a plan is used by one thread at a time; distinct plans are independent.
 */
#ifndef BACKPLANE_ITER_H_
#define BACKPLANE_ITER_H_

#include "backplane/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TensorIteratorConfig's options: a flag set turns the option on, a flag left out turns it off.
 * PROMOTE_INPUTS_TO_COMMON_DTYPE and CAST_COMMON_DTYPE_TO_OUTPUTS switch CHECK_ALL_SAME_DTYPE off;
 * PROMOTE_INTEGER_INPUTS_TO_FLOAT needs PROMOTE_INPUTS_TO_COMMON_DTYPE. */
typedef enum bp_iter_flags {
  BP_ITER_CHECK_MEM_OVERLAP = 1 << 0,
  BP_ITER_CHECK_ALL_SAME_DTYPE = 1 << 1,
  BP_ITER_CHECK_ALL_SAME_DEVICE = 1 << 2,
  BP_ITER_ALLOW_CPU_SCALARS = 1 << 3,
  BP_ITER_PROMOTE_INPUTS_TO_COMMON_DTYPE = 1 << 4,
  BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT = 1 << 5,
  BP_ITER_CAST_COMMON_DTYPE_TO_OUTPUTS = 1 << 6,
  BP_ITER_ENFORCE_SAFE_CASTING_TO_OUTPUT = 1 << 7,
  BP_ITER_RESIZE_OUTPUTS = 1 << 8,
  BP_ITER_IS_REDUCTION = 1 << 9,
  /* What binary pointwise ops use (ATen's build_binary_op). */
  BP_ITER_BINARY_OP = (1 << 0) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 6) | (1 << 7) | (1 << 8),
  /* Unary pointwise ops whose result has the input's dtype (neg, abs, bitwise_not: ATen's
   * build_borrowing_unary_op): every operand of one dtype, or the build fails naming the operands
   * and their dtypes. */
  BP_ITER_UNARY_OP = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 8),
  /* Unary pointwise ops with a floating result (exp, sin, sqrt, sigmoid: ATen's
   * build_borrowing_unary_float_op): integer and bool inputs promote to the default float dtype
   * (float32), which is the common dtype and the dtype of an output the plan allocates; a given
   * output must be a dtype the result casts to safely. On the CPU an integer input is replaced by a
   * converted temporary; other devices convert while loading (the operand keeps its dtype). */
  BP_ITER_UNARY_FLOAT_OP =
      (1 << 0) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8)
} bp_iter_flags;

typedef struct bp_iter_config {
  size_t struct_size;
  bp_tensor* const* outputs; /* borrowed; an entry may be NULL: the plan allocates it */
  size_t noutputs;
  bp_tensor* const* inputs; /* borrowed */
  size_t ninputs;
  uint32_t flags; /* bp_iter_flags */
} bp_iter_config;

typedef struct bp_iter_info {
  size_t struct_size;
  size_t ndim;
  const int64_t* shape; /* borrowed: valid while the plan lives; fastest dimension first */
  size_t ntensors;      /* operands: outputs first, then inputs */
  size_t noutputs;
  int64_t numel;
  int32_t common_dtype; /* a bp_dtype, or 0 when the plan computed none */
  bool is_contiguous;   /* one dimension, every operand with stride == itemsize */
  bool has_contiguous_first_dim;
  bool can_use_32bit_indexing;
  bool is_reduction;
  /* (0.1) Reductions (0 / false otherwise): */
  int64_t num_output_elements; /* output elements the plan computes */
  int32_t num_reduce_dims;     /* dimensions along which the outputs have stride 0 */
  bool should_accumulate;      /* a sub-plan: accumulate into the outputs, do not overwrite */
  bool is_final_output;        /* a sub-plan that writes the final value (true for whole plans) */
} bp_iter_info;

typedef struct bp_iter_operand {
  size_t struct_size;
  const int64_t* strides; /* bytes, ndim entries; borrowed like bp_iter_info.shape */
  void* data;             /* the first element the plan visits */
  int32_t dtype;          /* a bp_dtype: the tensor's element type */
  bp_device device;
  bool is_output;
  bool is_read_write; /* an output that is also an input (in-place) */
  bool is_scalar;     /* stride 0 (or extent 1) along every dimension */
  bool is_cpu_scalar; /* a zero-dim CPU tensor in a plan on another device: read it on host */
} bp_iter_operand;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_ITER_H_ */
