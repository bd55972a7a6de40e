// Broadcasting: the shape that several shapes expand to (NumPy's and PyTorch's rule).
//
//   infer_size({3, 1}, {4});              // [3, 4]
//   infer_size({2, 3}, {4});              // throws "The size of tensor a (3) must match the size
//                                         //   of tensor b (4) at non-singleton dimension 1"
//   infer_size({{2, 1, 4}, {3, 1}, {}});  // [2, 3, 4]
//
// Shapes are aligned from the right; missing leading dims count as 1; a dim of size 1 stretches
// to the other size. Thread safety: pure functions.
#ifndef BACKPLANE_SDK_CORE_BROADCAST_H_
#define BACKPLANE_SDK_CORE_BROADCAST_H_

#include <initializer_list>

#include "absl/types/span.h"
#include "sdk/core/int_array_ref.h"

namespace bp {

// The broadcast shape of `a` and `b`. Errors (kInvalidArgument): "The size of tensor a (3) must
// match the size of tensor b (4) at non-singleton dimension 1" (dims numbered in the result).
DimVector infer_size(IntArrayRef a, IntArrayRef b);

// The broadcast shape of all `shapes`, folded left to right with the two-shape rule (so the
// message's "a" is the shape broadcast so far); [] for none.
DimVector infer_size(absl::Span<const IntArrayRef> shapes);
inline DimVector infer_size(std::initializer_list<IntArrayRef> shapes) {
  return infer_size(absl::Span<const IntArrayRef>(shapes.begin(), shapes.size()));
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_BROADCAST_H_
