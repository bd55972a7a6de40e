// PyTorch's rules for the memory of new tensors and views, written for the references of
// factories, copies and views: which strides a copy "preserving the layout" gets, the strides a
// view of another shape gets (computeStride), size inference for -1, and whether a number fits
// a dtype (checked conversions of fill values).
//
//   Sizes s = preserved_strides(host_self, std::nullopt);   // empty_like, clone, _to_copy
//   std::optional<Sizes> v = view_strides({2, 3}, {3, 1}, {6});   // {1}; nullopt: not a view
//   ExpectedOutput o = view_of(host_self, sizes, strides, offset); // values read through them
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_FAMILIES_MEMORY_RULES_H_
#define BACKPLANE_CONFORMANCE_FAMILIES_MEMORY_RULES_H_

#include <optional>
#include <string>

#include "conformance/framework/expected.h"
#include "conformance/framework/ref_args.h"
#include "sdk/core/memory_format.h"
#include "sdk/core/tensor.h"

namespace bp::conformance {

// The strides of a copy of `self` in `format` (nullopt or kPreserve: keep self's strides when
// it is non-overlapping and dense, else the layout its strides suggest; PyTorch's empty_like).
Sizes preserved_strides(const Tensor& self, std::optional<MemoryFormat> format);
// Row-major (or channels-last) strides of `sizes` in `format` (not kPreserve).
Sizes format_strides(const Sizes& sizes, MemoryFormat format);

// PyTorch's computeStride: the strides of a view of (sizes, strides) with `shape` (same number of
// elements), or nullopt when no view can have it.
std::optional<Sizes> view_strides(const Sizes& sizes, const Sizes& strides, const Sizes& shape);
// `shape` with its -1 inferred for `numel` elements. Throws RefError with PyTorch's messages
// ("shape '[5, 5]' is invalid for input of size 24", "only one dimension can be inferred").
Sizes infer_size(const std::vector<int64_t>& shape, int64_t numel);

// The expected result of a view of `self`: the values read through (sizes, strides, offset)
// from self's storage, those exact strides and offset, sharing self's storage.
ExpectedOutput view_of(const Tensor& self, const Sizes& sizes, const Sizes& strides,
                       int64_t offset);

// Throws RefError "value cannot be converted to type uint8_t without overflow" when a checked
// conversion of `value` to `dtype` overflows (c10::checked_convert's rules).
void check_fits(const ScalarArg& value, ScalarType dtype);

// The sizes and strides of a host tensor as vectors.
Sizes sizes_of(const Tensor& t);
Sizes strides_of(const Tensor& t);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FAMILIES_MEMORY_RULES_H_
