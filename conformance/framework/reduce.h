// Naive reductions for references: which dims a dim list names (PyTorch's wrapping and errors),
// and a plain loop that hands each output position the elements it reduces.
//
//   std::vector<bool> r = reduced_dims(self.dim(), a.optional_ints("dim"));
//   RefTensor sum = reduce(self, r, keepdim, {ScalarType::kInt64},
//                          [](const std::vector<Wide>& xs) { ...; return std::vector{w}; })[0];
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_REDUCE_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_REDUCE_H_

#include <functional>
#include <optional>
#include <vector>

#include "conformance/framework/ref_tensor.h"

namespace bp::conformance {

// `dim` wrapped into [0, ndim) (a 0-dim tensor accepts -1 and 0). Throws RefError "Dimension out
// of range (expected to be in range of [-2, 1], but got 2)".
int64_t wrap_dim_or_throw(int64_t dim, int64_t ndim);

// One flag per dim of a tensor with `ndim` dims: reduced or not. nullopt, and an empty list when
// `empty_means_all`, reduce every dim. Throws RefError for dims out of range and for "dim 0
// appears multiple times in the list of dims".
std::vector<bool> reduced_dims(int64_t ndim, const std::optional<std::vector<int64_t>>& dims,
                               bool empty_means_all = true);

// The elements one output position reduces, in row-major order; returns one value per output
// (in that output dtype's kind; rounded to it here).
using SliceFn = std::function<std::vector<Wide>(const std::vector<Wide>& slice)>;

// Reduces `input` over the dims flagged in `reduced`: outputs have the remaining sizes (with 1s
// for reduced dims when `keepdim`) and dtypes `out_dtypes`.
std::vector<RefTensor> reduce(const RefTensor& input, const std::vector<bool>& reduced,
                              bool keepdim, const std::vector<ScalarType>& out_dtypes,
                              const SliceFn& f);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_REDUCE_H_
