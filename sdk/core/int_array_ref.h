// Lists of sizes, strides and dims: the view type every shape API takes, and the small vector
// that holds them.
//
//   DimVector sizes = {2, 3};
//   IntArrayRef ref = sizes;                      // borrowed view, no copy
//   int64_t n = multiply_integers(ref);           // 6
//   std::string s = int_list_string(ref);         // "[2, 3]", as PyTorch prints sizes
//
// Thread safety: plain values and pure functions.
#ifndef BACKPLANE_SDK_CORE_INT_ARRAY_REF_H_
#define BACKPLANE_SDK_CORE_INT_ARRAY_REF_H_

#include <cstdint>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace bp {

// A borrowed, read-only list of int64 (PyTorch's IntArrayRef). Converts implicitly from
// DimVector, std::vector<int64_t> and braced lists ({2, 3}); valid while the source lives.
using IntArrayRef = absl::Span<const int64_t>;

// An owned list of sizes or strides; five entries fit without a heap allocation, which covers
// almost every tensor (PyTorch's DimVector).
using DimVector = absl::InlinedVector<int64_t, 5>;

// The product of the values (1 for an empty list).
inline int64_t multiply_integers(IntArrayRef values) {
  int64_t product = 1;
  for (int64_t v : values) product *= v;
  return product;
}

// The values as PyTorch prints an IntArrayRef in messages: "[2, 3]", "[]".
inline std::string int_list_string(IntArrayRef values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  out += "]";
  return out;
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_INT_ARRAY_REF_H_
