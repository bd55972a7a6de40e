#include "sdk/iter/reduce.h"

#include <bitset>
#include <string>

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/resize.h"
#include "sdk/core/views.h"
#include "sdk/iter/cast_copy.h"

namespace bp {

int64_t ReduceDims::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

void ReduceDims::offsets_of_several_dims(int64_t index, int64_t* out) const {
  for (int t = 0; t < ntensors; ++t) out[t] = 0;
  for (size_t d = 0; d < sizes.size() && index != 0; ++d) {
    // The last dim takes what is left (index < numel()): no division.
    const bool last = d + 1 == sizes.size();
    const int64_t i = last ? index : index % sizes[d];
    index = last ? 0 : index / sizes[d];
    for (int t = 0; t < ntensors; ++t) out[t] += i * strides[d * ntensors + t];
  }
}

ReductionGeometry reduction_geometry(const TensorIteratorBase& iter, int input,
                                     bool contiguous_first) {
  ReductionGeometry g;
  const int nt = iter.ntensors();
  g.kept.ntensors = g.reduced.ntensors = nt;
  const int64_t in_size = static_cast<int64_t>(element_size(iter.dtype(input)));
  for (int pass = 0; pass < 2; ++pass) {
    // With contiguous_first, pass 0 takes the input's contiguous dim, pass 1 the others.
    for (int d = 0; d < iter.ndim(); ++d) {
      const bool contiguous = iter.strides(input)[d] == in_size && iter.shape()[d] > 1;
      if (contiguous_first && contiguous != (pass == 0)) continue;
      if (!contiguous_first && pass == 1) continue;
      ReduceDims& dims = iter.strides(0)[d] == 0 ? g.reduced : g.kept;
      if (iter.shape()[d] == 1) continue;  // extent 1: no offsets
      dims.sizes.push_back(iter.shape()[d]);
      for (int t = 0; t < nt; ++t) dims.strides.push_back(iter.strides(t)[d]);
    }
  }
  return g;
}

namespace {

using DimMask = std::bitset<64>;

DimMask make_dim_mask(IntArrayRef dims, int64_t ndim) {
  DimMask mask;
  if (dims.empty()) {
    mask.flip();
    return mask;
  }
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, ndim);
    BP_CHECK(!mask[d], "dim ", d, " appears multiple times in the list of dims");
    mask.set(d);
  }
  return mask;
}

// The result's shape: reduced dims 1 (keepdim) or gone.
DimVector reduced_shape(const Tensor& self, const DimMask& mask, bool keepdim) {
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) {
      shape.push_back(self.size(d));
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

void prepare_result(std::string_view name, Tensor& result, const Tensor& self, const DimMask& mask,
                    bool keepdim, ScalarType dtype) {
  BP_CHECK(!result.defined() || result.dtype() == dtype, name,
           ": provided dtype must match dtype of result. Got ", result.dtype(), " and ", dtype,
           ".");
  const DimVector shape = reduced_shape(self, mask, keepdim);
  if (!result.defined()) {
    result = native::empty(shape, dtype, self.device());
  } else if (result.sizes() != IntArrayRef(shape)) {
    resize_tensor(*result.impl(), shape);
  }
}

// `result` seen with the reduced dims as 1 (unsqueezed back when !keepdim).
Tensor review_result(const Tensor& result, int64_t ndim, const DimMask& mask, bool keepdim) {
  if (keepdim) return result;
  Tensor viewed = result;
  for (int64_t d = 0; d < ndim; ++d) {
    if (mask[d]) viewed = native::unsqueeze(viewed, d);
  }
  return viewed;
}

Tensor converted(const Tensor& self, ScalarType dtype) {
  if (self.dtype() == dtype) return self;
  Tensor copy = native::empty(self.sizes(), dtype, self.device());
  cast_copy(copy, self);
  return copy;
}

TensorIterator build_reduction(std::string_view name, Tensor* const* results,
                               const ScalarType* dtypes, int nresults, const Tensor& self,
                               IntArrayRef dims, bool keepdim, ScalarType in_dtype) {
  const int64_t ndim = self.dim();
  BP_CHECK(ndim <= 64, name, ": only tensors with up to 64 dims are supported");
  // A 0-dim tensor reduces over its (only) element: dims 0 / -1 are accepted.
  const DimMask mask = make_dim_mask(dims, std::max<int64_t>(ndim, 1));
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false).resize_outputs(false).is_reduction(true);
  config.check_all_same_dtype(false);
  for (int i = 0; i < nresults; ++i) {
    prepare_result(name, *results[i], self, mask, keepdim, dtypes[i]);
    config.add_owned_output(review_result(*results[i], ndim, mask, keepdim));
  }
  config.add_owned_input(converted(self, in_dtype));
  return config.build();
}

}  // namespace

TensorIterator make_reduction(std::string_view name, Tensor& result, const Tensor& self,
                              IntArrayRef dims, bool keepdim, ScalarType in_dtype,
                              ScalarType out_dtype) {
  Tensor* results[] = {&result};
  return build_reduction(name, results, &out_dtype, 1, self, dims, keepdim, in_dtype);
}

TensorIterator make_reduction(std::string_view name, Tensor& result1, Tensor& result2,
                              const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType dtype1,
                              ScalarType dtype2) {
  Tensor* results[] = {&result1, &result2};
  const ScalarType dtypes[] = {dtype1, dtype2};
  return build_reduction(name, results, dtypes, 2, self, dims, keepdim, self.dtype());
}

}  // namespace bp
