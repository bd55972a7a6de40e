// The view ops written with other ops (reshape and flatten, which copy when no view fits) and the
// in-place view ops (transpose_, ...), which give self the geometry of the matching view. The
// views themselves are sdk/core/views.h.
#include "sdk/core/views.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

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

Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  BP_CHECK(source.size() == destination.size(),
           "movedim: Invalid source or destination dims: source (", int_list_string(source),
           " dims) should contain the same number of dims as destination (",
           int_list_string(destination), " dims)");
  const int64_t ndim = self.dim();
  // Wrapped (a 0-dim tensor takes 0 and -1), then each used once, in PyTorch's order.
  DimVector src, dst;
  for (int64_t d : source) src.push_back(wrap_dim(d, ndim));
  for (int64_t d : destination) dst.push_back(wrap_dim(d, ndim));
  for (const auto& [dims, given, name] :
       {std::tuple{&src, source, "source"}, std::tuple{&dst, destination, "destination"}}) {
    for (size_t i = 0; i < dims->size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        BP_CHECK((*dims)[i] != (*dims)[j], "movedim: repeated dim in `", name, "` (",
                 int_list_string(given), ")");
      }
    }
  }
  if (ndim == 0) return bp::alias(self);
  // Result dim dst[i] is self's dim src[i]; the other result dims take the unmoved dims of self
  // in order.
  DimVector order(ndim, -1);
  std::vector<bool> moved(ndim, false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[dst[i]] = src[i];
    moved[src[i]] = true;
  }
  int64_t next = 0;
  for (int64_t& d : order) {
    if (d != -1) continue;
    while (moved[next]) ++next;
    d = next++;
  }
  return bp::permute(self, order);
}

Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return bp::movedim(self, IntArrayRef(&source, 1), IntArrayRef(&destination, 1));
}

Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return bp::movedim(self, source, destination);
}

Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination) {
  return bp::movedim(self, source, destination);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = wrap_dim(dim, self.dim());
  BP_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  const int64_t n = self.size(dim);
  DimVector inferred;
  try {
    inferred = native::infer_size_of_view(sizes, n);
  } catch (const Error& e) {
    // PyTorch rewords the two errors its infer_size throws as std::runtime_error and lets the
    // others through.
    const std::string what = e.what();
    BP_CHECK(what.find("is invalid for input of size") == std::string::npos,
             "unflatten: Provided sizes ", int_list_string(sizes),
             " don't multiply up to the size of dim ", dim, " (", n, ") in the input tensor");
    BP_CHECK(what != "only one dimension can be inferred", "unflatten got an unexpected error:\n",
             what);
    throw;
  }
  DimVector shape(self.sizes().begin(), self.sizes().end());
  shape.erase(shape.begin() + dim);
  shape.insert(shape.begin() + dim, inferred.begin(), inferred.end());
  return self.view(shape);
}

Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return self.expand(size); }

Tensor real(const Tensor& self) {
  if (!is_complex(self.dtype())) return self;
  return bp::select(bp::view_as_real(self), -1, 0);
}

Tensor imag(const Tensor& self) {
  BP_CHECK(is_complex(self.dtype()),
           "imag is not implemented for tensors with non-complex dtypes.");
  return bp::select(bp::view_as_real(self), -1, 1);
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
