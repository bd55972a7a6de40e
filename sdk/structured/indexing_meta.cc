#include "sdk/structured/indexing_meta.h"

#include <algorithm>
#include <string>

#include "sdk/core/error.h"
#include "sdk/core/overlap.h"
#include "sdk/core/tensor_options.h"

namespace bp::meta {
namespace {

// PyTorch's ensure_nonempty_dim / ensure_nonempty_size: a 0-dim tensor counts as [1].
int64_t nonempty_dim(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t nonempty_size(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }

void check_same_device(const Tensor& self, const Tensor& other) {
  BP_CHECK(other.device() == self.device(),
           "Expected all tensors to be on the same device, but found at least two devices, ",
           self.device(), " and ", other.device(), "!");
}

TensorOptions options_of(const Tensor& self) {
  return TensorOptions{self.dtype(), self.device(), std::nullopt};
}

// PyTorch's scatter_gather_dtype_check("scatter", ...) and scatter_shape_check.
void check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  if (index.numel() != 0) {
    BP_CHECK(index.dtype() == ScalarType::kInt64, "scatter(): Expected dtype int64 for index");
  }
  if (src != nullptr) {
    BP_CHECK(self.dtype() == src->dtype(),
             "scatter(): Expected self.dtype to be equal to src.dtype");
  }
  if (index.numel() == 0) return;
  BP_CHECK(nonempty_dim(self) == nonempty_dim(index),
           "Index tensor must have the same number of dimensions as self tensor");
  bool wrong_shape = false;
  for (int64_t d = 0; d < nonempty_dim(self) && !wrong_shape; ++d) {
    const int64_t index_size = nonempty_size(index, d);
    if (d != dim && index_size > nonempty_size(self, d)) wrong_shape = true;
    if (src != nullptr && d < nonempty_dim(*src) && index_size > nonempty_size(*src, d)) {
      wrong_shape = true;
    }
  }
  if (src == nullptr) {
    BP_CHECK(!wrong_shape, "Expected index ", int_list_string(index.sizes()),
             " to be smaller than self ", int_list_string(self.sizes()), " apart from dimension ",
             dim);
    return;
  }
  BP_CHECK(nonempty_dim(*src) == nonempty_dim(index),
           "Index tensor must have the same number of dimensions as src tensor");
  BP_CHECK(!wrong_shape, "Expected index ", int_list_string(index.sizes()),
           " to be smaller than self ", int_list_string(self.sizes()), " apart from dimension ",
           dim, " and to be smaller size than src ", int_list_string(src->sizes()));
}

void declare_scatter(MetaBase& meta, const Tensor& self, const Tensor& index, const Tensor* src) {
  check_same_device(self, index);
  if (src != nullptr) check_same_device(self, *src);
  const Tensor& out = meta.maybe_get_output(0);
  if (out.defined()) {
    // The kernel reads index and src while it writes out.
    assert_no_internal_overlap(out);
    assert_no_overlap(out, index);
    if (src != nullptr) assert_no_overlap(out, *src);
  }
  meta.set_output_contiguous(0, self.sizes(), options_of(self));
}

void check_reduce(std::string_view reduce) {
  BP_CHECK(reduce == "add" || reduce == "multiply",
           "reduce argument must be either add or multiply.");
}

}  // namespace

void index_select_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim());
  BP_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  BP_CHECK(index.dtype() == ScalarType::kInt64 || index.dtype() == ScalarType::kInt32,
           "index_select(): Expected dtype int32 or int64 for index");
  // PyTorch 1.13 returns a 0-dim result for any number of indices (and reads past them);
  // later versions refuse, as here.
  BP_CHECK(!(self.dim() == 0 && index.numel() != 1),
           "index_select(): Index to scalar can have only 1 value, got ", index.numel(),
           " value(s)");
  check_same_device(self, index);
  const Tensor& given = meta.maybe_get_output(0);
  if (given.defined()) {
    BP_CHECK(given.dtype() == self.dtype(),
             "index_select(): self and result must have the same scalar type");
    assert_no_internal_overlap(given);
    assert_no_overlap(given, self);
    assert_no_overlap(given, index);
  }
  std::vector<int64_t> sizes(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) sizes[static_cast<size_t>(d)] = index.numel();
  meta.set_output_contiguous(0, sizes, options_of(self));
  if (self.dim() > 1 && index.numel() != 0 && self.numel() == 0) {
    BP_CHECK(self.size(d) > 0, "index_select(): self indexing axis dim should be positive");
  }
}

void gather_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim());
  check_same_device(self, index);
  meta.set_output_contiguous(0, index.sizes(), options_of(self));
  const Tensor& out = meta.maybe_get_output(0);
  // The kernel reads self and index while it writes out.
  assert_no_internal_overlap(out);
  assert_no_overlap(out, self);
  assert_no_partial_overlap(out, index);
  if (index.numel() == 0) return;
  BP_CHECK(index.dtype() == ScalarType::kInt64, "gather(): Expected dtype int64 for index");
  BP_CHECK(nonempty_dim(self) == nonempty_dim(index),
           "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t i = 0; i < nonempty_dim(self); ++i) {
    if (i == d) continue;
    BP_CHECK(nonempty_size(index, i) <= nonempty_size(self, i), "Size does not match at dimension ",
             i, " expected index ", int_list_string(index.sizes()), " to be smaller than self ",
             int_list_string(self.sizes()), " apart from dimension ", d);
  }
}

void scatter_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                const Tensor& src) {
  check_scatter(self, wrap_dim(dim, self.dim()), index, &src);
  declare_scatter(meta, self, index, &src);
}

void scatter_value_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                      const Scalar& value) {
  (void)value;
  check_scatter(self, wrap_dim(dim, self.dim()), index, nullptr);
  declare_scatter(meta, self, index, nullptr);
}

void scatter_reduce_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& src, std::string_view reduce) {
  scatter_op(meta, self, dim, index, src);
  check_reduce(reduce);
}

void scatter_value_reduce_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                             const Scalar& value, std::string_view reduce) {
  scatter_value_op(meta, self, dim, index, value);
  check_reduce(reduce);
}

}  // namespace bp::meta
