#include "conformance/framework/reduce.h"

#include <string>

#include "conformance/framework/expected.h"

namespace bp::conformance {

int64_t wrap_dim_or_throw(int64_t dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n) {
    throw RefError{"Dimension out of range (expected to be in range of [" + std::to_string(-n) +
                   ", " + std::to_string(n - 1) + "], but got " + std::to_string(dim) + ")"};
  }
  return dim < 0 ? dim + n : dim;
}

std::vector<bool> reduced_dims(int64_t ndim, const std::optional<std::vector<int64_t>>& dims,
                               bool empty_means_all) {
  std::vector<bool> reduced(static_cast<size_t>(ndim), false);
  if (!dims || (dims->empty() && empty_means_all)) {
    reduced.assign(static_cast<size_t>(ndim), true);
    return reduced;
  }
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(ndim, 1)), false);
  for (int64_t d : *dims) {
    const int64_t w = wrap_dim_or_throw(d, ndim);
    if (seen[static_cast<size_t>(w)]) {
      throw RefError{"dim " + std::to_string(w) + " appears multiple times in the list of dims"};
    }
    seen[static_cast<size_t>(w)] = true;
    if (ndim > 0) reduced[static_cast<size_t>(w)] = true;
  }
  return reduced;
}

std::vector<RefTensor> reduce(const RefTensor& input, const std::vector<bool>& reduced,
                              bool keepdim, const std::vector<ScalarType>& out_dtypes,
                              const SliceFn& f) {
  Sizes out_sizes, kept_sizes, slice_sizes;
  for (size_t d = 0; d < input.sizes.size(); ++d) {
    if (reduced[d]) {
      slice_sizes.push_back(input.sizes[d]);
      if (keepdim) out_sizes.push_back(1);
    } else {
      kept_sizes.push_back(input.sizes[d]);
      out_sizes.push_back(input.sizes[d]);
    }
  }
  std::vector<RefTensor> outs;
  for (ScalarType t : out_dtypes) outs.push_back(RefTensor{t, out_sizes, {}});
  std::vector<Wide> slice;
  for_each_index(kept_sizes, [&](const Index& kept) {
    slice.clear();
    Index full(input.sizes.size());
    for_each_index(slice_sizes, [&](const Index& inner) {
      size_t k = 0, r = 0;
      for (size_t d = 0; d < input.sizes.size(); ++d) full[d] = reduced[d] ? inner[r++] : kept[k++];
      slice.push_back(input.at(full));
    });
    const std::vector<Wide> results = f(slice);
    for (size_t o = 0; o < outs.size(); ++o) {
      outs[o].values.push_back(cast(results[o], outs[o].dtype, outs[o].dtype));
    }
  });
  return outs;
}

}  // namespace bp::conformance
