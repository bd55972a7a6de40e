// What the plugin must know about a pointwise op's meta function to run its math: the host's
// Common key runs the meta function (every check, the output's shape and dtype) before calling the
// plugin's out= kernel, so the plugin only rebuilds the iteration plan to get strides, and needs
// from the meta function just the common dtype rule and the natural output dtype.
//
//   const MetaKind* kind = find_meta_kind("unary_float_op");
//   kind->iter_flags;     // includes BP_ITER_PROMOTE_INTEGER_INPUTS_TO_FLOAT
//   kind->bool_output;    // false: the output has the common dtype
//
// A meta function missing here leaves its ops to the CPU fallback; meta_kinds_test fails for
// every math op whose meta function is missing, naming it.
//
// Thread safety: immutable.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_

#include <cstdint>
#include <string_view>

namespace bp::cuda {

struct MetaKind {
  std::string_view meta;  // "binary_op" (sdk/structured/pointwise_meta.h)
  uint32_t iter_flags;    // bp_iter_flags for the plugin's own plan over the checked operands
  bool bool_output;       // the functional variant's output is bool (comparisons, isnan)
};

// The kind of meta function `meta`, or nullptr when the plugin does not know it.
const MetaKind* find_meta_kind(std::string_view meta);

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_META_KINDS_H_
