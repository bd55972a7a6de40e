// What the plugin must know about a pointwise op's meta function to run its math: the host's
// Common key runs the meta function (every check, the output's shape and dtype) before calling the
// plugin's out= kernel, so the plugin only rebuilds the iteration plan to get strides, and needs
// from the meta function just the common dtype rule and the natural output dtype.
//
//   const MetaKind* kind = find_meta_kind("unary_float_op");
//   kind->iter_flags;     // includes BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT
//   kind->output;         // OutputDtype::kCommon: the output has the common dtype
//
// A meta function missing here leaves its ops to the CPU fallback; meta_kinds_test fails for
// every math op whose meta function is missing, naming it.
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_

#include <cstdint>
#include <string_view>

#include "reference_backend/cuda/dtypes.h"

namespace bp::cuda {

// The functional variant's output dtype, given the common dtype S.
enum class OutputDtype {
  kCommon,  // S
  kBool,    // comparisons, isnan
  kReal,    // the real type of S (abs: complex64 -> float32)
};

struct MetaKind {
  std::string_view meta;  // "binary_op" (sdk/structured/pointwise_meta.h)
  uint32_t iter_flags;    // bp_iter_flags for the plugin's own plan over the checked operands
  OutputDtype output;
  // The op computes in its output's dtype, not in the inputs' common dtype: the meta function
  // converted the inputs to a dtype that also depends on Scalar arguments (pow(int, 2.5) is
  // float), and the output has it.
  bool computes_in_output_dtype = false;
};

// The kind of meta function `meta`, or nullptr when the plugin does not know it.
const MetaKind* find_meta_kind(std::string_view meta);

// The output dtype of `kind`'s functional variant for common dtype `common`.
Dtype natural_output_dtype(const MetaKind& kind, Dtype common);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_
