#include "sdk/core/broadcast.h"

#include <algorithm>

#include "sdk/core/error.h"

namespace bp {

DimVector infer_size(IntArrayRef a, IntArrayRef b) {
  const int64_t dims_a = static_cast<int64_t>(a.size());
  const int64_t dims_b = static_cast<int64_t>(b.size());
  const int64_t ndim = std::max(dims_a, dims_b);
  DimVector result(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t offset = ndim - 1 - i;
    int64_t size_a = dims_a - 1 - offset >= 0 ? a[dims_a - 1 - offset] : 1;
    int64_t size_b = dims_b - 1 - offset >= 0 ? b[dims_b - 1 - offset] : 1;
    BP_CHECK(size_a == size_b || size_a == 1 || size_b == 1, "The size of tensor a (", size_a,
             ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", i);
    result[i] = size_a == 1 ? size_b : size_a;
  }
  return result;
}

DimVector infer_size(absl::Span<const IntArrayRef> shapes) {
  DimVector result;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i == 0) {
      result.assign(shapes[0].begin(), shapes[0].end());
    } else if (IntArrayRef(result) != shapes[i]) {
      result = infer_size(result, shapes[i]);
    }
  }
  return result;
}

}  // namespace bp
