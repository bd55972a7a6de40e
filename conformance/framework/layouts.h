// Sample tensors with the memory layouts the suite exercises: contiguous, transposed (not
// dense in row-major order), sliced with a step (gaps between elements), expanded (a stride 0),
// channels-last, and a non-zero storage offset.
//
//   Tensor t = make_tensor(src, ScalarType::kFloat32, {5, 7}, Layout::kTransposed);
//   t.strides();                                  // [1, 5]
//   Tensor n = wrapped_number(from_real(2.5), ScalarType::kFloat64);   // `x + 2.5`'s 2.5
//
// Tensors are built directly over a storage (no op is called), so that building inputs never
// depends on the ops under test. A layout that does not apply to the sizes (a transpose of a
// 1-d tensor, channels-last of a 3-d one) gives a contiguous tensor.
//
// Thread safety: pure functions (the ValueSource is the caller's).
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_LAYOUTS_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_LAYOUTS_H_

#include <string_view>

#include "conformance/framework/ref_tensor.h"
#include "conformance/framework/values.h"
#include "sdk/core/tensor.h"

namespace bp::conformance {

enum class Layout {
  kContiguous,
  kTransposed,    // the last two dims swapped in memory
  kSliced,        // every other element of a larger last dim, from offset 1
  kExpanded,      // the first dim of size > 1 has stride 0 (all its slices alias)
  kChannelsLast,  // NHWC memory order for 4-d tensors
  kOffset,        // contiguous, starting at element 5 of its storage
};
std::string_view layout_name(Layout layout);

// A CPU tensor of `dtype` and `sizes` laid out as `layout`, its values drawn from `src`.
Tensor make_tensor(ValueSource& src, ScalarType dtype, const Sizes& sizes, Layout layout,
                   const Domain& domain = {});
// A CPU tensor holding `values`, laid out as `layout` (kExpanded: as kContiguous, since values
// need not repeat).
Tensor lay_out(const RefTensor& values, Layout layout);
// A view of `base`'s storage with this geometry (its own version counter).
Tensor strided_view(const Tensor& base, const Sizes& sizes, const Sizes& strides, int64_t offset);
// `base` expanded to `sizes` (PyTorch's broadcasting: size-1 and missing leading dims get
// stride 0).
Tensor expanded_view(const Tensor& base, const Sizes& sizes);
// A zero-dim CPU tensor marked as a wrapped number: a number passed where a Tensor goes.
Tensor wrapped_number(const Wide& value, ScalarType type);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_LAYOUTS_H_
