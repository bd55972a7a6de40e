// The view ops written with other ops (reshape and flatten, which copy when no view fits) and the
// in-place view ops (transpose_, ...), which give self the geometry of the matching view. The
// views themselves are sdk/core/views.h.
#include "sdk/core/views.h"

#include <optional>

#include "sdk/core/error.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// Gives `self` the sizes, strides and storage offset of `view` (a view of self): what PyTorch's
// in-place view ops do. No element changes, so the version counter stays.
Tensor& take_geometry(Tensor& self, const Tensor& view) {
  self.impl()->set_sizes_and_strides(view.sizes(), view.strides());
  self.impl()->set_storage_offset(view.storage_offset());
  return self;
}

}  // namespace

Tensor reshape_or_clone(const Tensor& self, IntArrayRef shape) {
  if (std::optional<Tensor> view = native::try_view(self, shape)) return *std::move(view);
  return bp::clone(self, MemoryFormat::kContiguous).view(shape);
}

Tensor flatten_using_ints(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  start_dim = wrap_dim(start_dim, self.dim());
  end_dim = wrap_dim(end_dim, self.dim());
  BP_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return bp::reshape(self, {1});
  if (start_dim == end_dim) return self;
  // The merged size is computed, not inferred with -1: with zero elements -1 would be ambiguous.
  IntArrayRef sizes = self.sizes();
  DimVector shape(sizes.begin(), sizes.begin() + start_dim);
  shape.push_back(multiply_integers(sizes.subspan(start_dim, end_dim - start_dim + 1)));
  shape.insert(shape.end(), sizes.begin() + end_dim + 1, sizes.end());
  return bp::reshape(self, shape);
}

Tensor& as_strided_(Tensor& self, IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset) {
  return take_geometry(self, native::as_strided(self, size, stride, storage_offset));
}

Tensor& transpose_(Tensor& self, int64_t dim0, int64_t dim1) {
  return take_geometry(self, native::transpose(self, dim0, dim1));
}

Tensor& t_(Tensor& self) {
  // PyTorch's check_t names the op called: "t_()" here ("t()" in native::t).
  BP_CHECK(self.dim() <= 2, "t_() expects a tensor with <= 2 dimensions, but self is ", self.dim(),
           "D");
  return take_geometry(self, native::t(self));
}

Tensor& squeeze_(Tensor& self) { return take_geometry(self, native::squeeze(self)); }

Tensor& squeeze_(Tensor& self, int64_t dim) {
  return take_geometry(self, native::squeeze(self, dim));
}

Tensor& squeeze_(Tensor& self, IntArrayRef dim) {
  return take_geometry(self, native::squeeze(self, dim));
}

Tensor& unsqueeze_(Tensor& self, int64_t dim) {
  return take_geometry(self, native::unsqueeze(self, dim));
}

}  // namespace bp::native
