#include "sdk/structured/along_dim_meta.h"

#include "sdk/core/overlap.h"
#include "sdk/core/tensor_options.h"

namespace bp::meta {
namespace {

// Declares output `index` (of `self`'s sizes), after checking `dim` and any given output.
void set_output(MetaBase& meta, int64_t index, const Tensor& self, int64_t dim, ScalarType dtype) {
  wrap_dim(dim, self.dim());  // only checks: the kernel wraps it again
  // Lines write their elements in turn: an output whose elements share memory (an expanded
  // self, in place) would be read after being overwritten.
  if (const Tensor& out = meta.maybe_get_output(index); out.defined()) {
    assert_no_internal_overlap(out);
  }
  meta.set_output_contiguous(index, self.sizes(),
                             TensorOptions{dtype, self.device(), std::nullopt});
}

}  // namespace

void cumulative_op(MetaBase& meta, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype) {
  const Tensor& out = meta.maybe_get_output(0);
  ScalarType result;
  if (out.defined()) {
    result = dtype.value_or(out.dtype());
  } else {
    result = dtype.value_or(is_integral(self.dtype(), /*include_bool=*/true) ? ScalarType::kInt64
                                                                             : self.dtype());
  }
  set_output(meta, 0, self, dim, result);
}

void cumulative_extreme_op(MetaBase& meta, const Tensor& self, int64_t dim) {
  set_output(meta, 0, self, dim, self.dtype());
  set_output(meta, 1, self, dim, ScalarType::kInt64);
}

void logcumsumexp_op(MetaBase& meta, const Tensor& self, int64_t dim) {
  set_output(meta, 0, self, dim, self.dtype());
}

void softmax_op(MetaBase& meta, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  set_output(meta, 0, self, dim, dtype.value_or(self.dtype()));
}

}  // namespace bp::meta
