// The ops along one dim the plugin jits: every structured op declared with `scan:` or
// `normalize:` (sdk/ops/*.yaml), as rows the codegen writes (codegen/emit_cuda.cc,
// along_dim_ops.inc). Nothing here names an op: a new declaration appears in this table and runs
// on CUDA.
//
//   const AlongDimOp* cumsum = find_along_dim_op("cumsum.out");
//   cumsum->family;     // AlongDimFamily::kScan
//   cumsum->functor;    // "SumOps": bp::math::SumOps<T> in reference_backend/math/reduction.h
//   cumsum->dim;        // 1: the boxed argument index of `dim`
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_OPS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_OPS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

enum class AlongDimFamily {
  kScan,       // `scan: Ops`: a running reduction, with an ops struct of math/reduction.h
  kNormalize,  // `normalize: Functor`: a functor of math/normalization.h
};

struct AlongDimOp {
  const char* name;       // "cumsum.out"
  const char* base_name;  // "cumsum": how error messages name the op
  AlongDimFamily family;
  const char* functor;  // "SumOps" (a template over the dtype), "Softmax"
  uint32_t dtypes;      // bit code(d): output dtype d is supported
  int self;             // boxed argument indices of `self`, `dim` and the output
  int dim;
  int out;
  int indices;         // scans of values and indices (cummax): the indices output; else -1
  int num_arguments;   // arguments in the schema
  const char* source;  // "sdk/ops/scans.yaml:8"

  bool supports(Dtype dtype) const { return in_mask(dtypes, dtype); }
};

std::span<const AlongDimOp> along_dim_ops();
// The row of `name` ("cumsum.out"), or nullptr.
const AlongDimOp* find_along_dim_op(std::string_view name);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_ALONG_DIM_OPS_H_
