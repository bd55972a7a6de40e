#include "sdk/core/views.h"

#include <algorithm>
#include <bitset>
#include <limits>
#include <optional>
#include <string>

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/promotion.h"

namespace bp {
namespace {

// A view of `self` with this geometry; the caller guarantees it stays inside the storage.
// A view of self's storage; `dtype` reads its bytes as another element type (view_as_real).
Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                 std::optional<ScalarType> dtype = std::nullopt) {
  const TensorImpl& base = *self.impl();
  return Tensor(IntrusivePtr<TensorImpl>::make(base.storage(), dtype.value_or(base.dtype()), sizes,
                                               strides, storage_offset, base.version_counter()));
}

void check_in_bounds_for_storage(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                 size_t itemsize, const Storage& storage) {
  size_t storage_size_bytes = compute_storage_nbytes(sizes, strides, itemsize);
  if (storage_size_bytes == 0) return;  // A tensor with no elements fits any storage.
  size_t required = storage_size_bytes + static_cast<size_t>(storage_offset) * itemsize;
  BP_CHECK(required <= storage.nbytes(), "setStorage: sizes ", int_list_string(sizes), ", strides ",
           int_list_string(strides), ", storage offset ", storage_offset, ", and itemsize ",
           itemsize, " requiring a storage size of ", required,
           " are out of bounds for storage of size ", storage.nbytes());
}

// Strides that let a tensor of (old_sizes, old_strides) be viewed with new_sizes, or nullopt
// when some new dim would span two non-contiguous chunks (PyTorch's computeStride).
std::optional<DimVector> compute_stride(IntArrayRef old_sizes, IntArrayRef old_strides,
                                        IntArrayRef new_sizes) {
  if (old_sizes.empty()) return DimVector(new_sizes.size(), 1);
  const int64_t numel = multiply_integers(old_sizes);
  if (numel == 0 && old_sizes == new_sizes)
    return DimVector(old_strides.begin(), old_strides.end());
  if (numel == 0) return contiguous_strides(new_sizes);
  DimVector new_strides(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  // Walk old dims from the innermost, grouping them into chunks that are contiguous with each
  // other; each chunk must be covered exactly by a run of new dims.
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    if (tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        new_strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

// Without the dims of size 1 that are in `candidates`.
Tensor squeeze_where(const Tensor& self, const std::bitset<64>& candidates) {
  BP_CHECK(self.dim() <= 64, "squeeze: tensors with more than 64 dimensions are not supported");
  DimVector sizes;
  DimVector strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (candidates[d] && self.sizes()[d] == 1) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

}  // namespace

namespace native {

DimVector infer_size_of_view(IntArrayRef shape, int64_t numel) {
  DimVector result(shape.begin(), shape.end());
  int64_t known = 1;
  std::optional<size_t> infer_dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      BP_CHECK(!infer_dim, "only one dimension can be inferred");
      infer_dim = d;
    } else {
      BP_CHECK(shape[d] >= 0, "invalid shape dimension ", shape[d]);
      known *= shape[d];
    }
  }
  bool fits = numel == known || (infer_dim && known > 0 && numel % known == 0);
  BP_CHECK(fits, "shape '", int_list_string(shape), "' is invalid for input of size ", numel);
  if (infer_dim) {
    // With zero elements the -1 could be anything: NumPy and PyTorch refuse to guess.
    BP_CHECK(known != 0, "cannot reshape tensor of 0 elements into shape ", int_list_string(shape),
             " because the unspecified dimension size -1 can be any value and is ambiguous");
    result[*infer_dim] = numel / known;
  }
  return result;
}

Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                  std::optional<int64_t> storage_offset) {
  BP_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  check_strides_nonnegative(strides);
  check_size_nonnegative(sizes);
  int64_t offset = storage_offset.value_or(self.storage_offset());
  BP_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  check_in_bounds_for_storage(sizes, strides, offset, self.itemsize(), self.storage());
  return make_view(self, sizes, strides, offset);
}

Tensor alias(const Tensor& self) {
  return make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

std::optional<Tensor> try_view(const Tensor& self, IntArrayRef shape) {
  DimVector sizes = infer_size_of_view(shape, self.numel());
  std::optional<DimVector> strides = compute_stride(self.sizes(), self.strides(), sizes);
  if (!strides) return std::nullopt;
  return make_view(self, sizes, *strides, self.storage_offset());
}

Tensor view(const Tensor& self, IntArrayRef shape) {
  std::optional<Tensor> result = try_view(self, shape);
  BP_CHECK(result.has_value(),
           "view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return *std::move(result);
}

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  std::optional<Tensor> result = try_view(self, shape);
  BP_CHECK_NOT_IMPLEMENTED(result.has_value(), "native::reshape only makes views; reshaping ", self,
                           " to ", int_list_string(shape),
                           " needs a copy: call bp::reshape (sdk/ops)");
  return *std::move(result);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t ndim = self.dim();
  BP_CHECK(ndim == static_cast<int64_t>(dims.size()),
           "permute(sparse_coo): number of dimensions in the tensor input does not match the "
           "length of the "
           "desired ordering of dimensions i.e. input.dim() = ",
           ndim, " is not equal to len(dims) = ", dims.size());
  DimVector sizes(ndim);
  DimVector strides(ndim);
  std::vector<bool> seen(ndim, false);
  for (int64_t i = 0; i < ndim; ++i) {
    int64_t d = wrap_dim(dims[i], ndim);
    BP_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t ndim = self.dim();
  dim0 = wrap_dim(dim0, ndim);
  dim1 = wrap_dim(dim1, ndim);
  if (dim0 == dim1) return native::alias(self);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  std::swap(sizes[dim0], sizes[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor t(const Tensor& self) {
  BP_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(),
           "D");
  return native::transpose(self, 0, self.dim() < 2 ? 0 : 1);
}

Tensor expand(const Tensor& self, IntArrayRef sizes, bool implicit) {
  (void)implicit;  // Only autograd and tracing care whether the user or broadcasting expanded.
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const int64_t tensor_dim = self.dim();
  BP_CHECK(
      ndim >= tensor_dim, "expand(", legacy_type_name(self), "{", int_list_string(self.sizes()),
      "}, size=", int_list_string(sizes), "): the number of sizes provided (", ndim,
      ") must be greater or equal to the number of dimensions in the tensor (", tensor_dim, ")");
  DimVector new_sizes(ndim);
  DimVector new_strides(ndim);
  // Align dims from the right; new dims are leading.
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t dim = tensor_dim - 1 - (ndim - 1 - i);
    int64_t size = dim >= 0 ? self.sizes()[dim] : 1;
    int64_t stride =
        dim >= 0 ? self.strides()[dim] : (i + 1 < ndim ? new_sizes[i + 1] * new_strides[i + 1] : 1);
    int64_t target = sizes[i];
    if (target == -1) {
      BP_CHECK(dim >= 0, "The expanded size of the tensor (", target,
               ") isn't allowed in a leading, non-existing dimension ", i);
      target = size;
    }
    BP_CHECK(target >= 0, "Trying to create tensor with negative dimension ", target, ": ",
             int_list_string(sizes));
    if (size != target) {
      BP_CHECK(size == 1, "The expanded size of the tensor (", target,
               ") must match the existing size (", size, ") at non-singleton dimension ", i,
               ".  Target sizes: ", int_list_string(sizes),
               ".  Tensor sizes: ", int_list_string(self.sizes()));
      size = target;
      stride = 0;
    }
    new_sizes[i] = size;
    new_strides[i] = stride;
  }
  return make_view(self, new_sizes, new_strides, self.storage_offset());
}

Tensor expand_as(const Tensor& self, const Tensor& other) {
  return native::expand(self, other.sizes());
}

Tensor squeeze(const Tensor& self) { return squeeze_where(self, std::bitset<64>().set()); }

Tensor squeeze(const Tensor& self, int64_t dim) {
  std::bitset<64> candidates;
  int64_t d = wrap_dim(dim, self.dim());
  if (self.dim() > 0) candidates.set(d);
  return squeeze_where(self, candidates);
}

Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  std::bitset<64> candidates;
  for (int64_t dim : dims) {
    int64_t d = wrap_dim(dim, self.dim());
    BP_CHECK(self.dim() <= 64, "squeeze: tensors with more than 64 dimensions are not supported");
    BP_CHECK(self.dim() == 0 || !candidates[d], "dim ", d,
             " appears multiple times in the list of dims");
    if (self.dim() > 0) candidates.set(d);
  }
  return squeeze_where(self, candidates);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t ndim = self.dim();
  dim = wrap_dim(dim, ndim + 1);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  int64_t new_stride = dim >= ndim ? 1 : sizes[dim] * strides[dim];
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, new_stride);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  const int64_t ndim = self.dim();
  BP_CHECK_INDEX(ndim != 0, "select() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, ndim);
  const int64_t size = self.sizes()[dim];
  BP_CHECK_INDEX(index >= -size && index < size, "select(): index ", index,
                 " out of range for tensor of size ", int_list_string(self.sizes()),
                 " at dimension ", dim);
  if (index < 0) index += size;
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  int64_t offset = self.storage_offset() + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return make_view(self, sizes, strides, offset);
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  const int64_t ndim = self.dim();
  BP_CHECK_INDEX(ndim != 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = wrap_dim(dim, ndim);
  BP_CHECK(step > 0, "slice step must be positive");
  const int64_t size = self.sizes()[dim];
  int64_t start_val = start.value_or(0);
  int64_t end_val = end.value_or(std::numeric_limits<int64_t>::max());
  if (start_val < 0) start_val += size;
  if (end_val < 0) end_val += size;
  start_val = std::clamp<int64_t>(start_val, 0, size);
  end_val = std::clamp<int64_t>(end_val, start_val, size);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  int64_t offset = self.storage_offset() + start_val * strides[dim];
  sizes[dim] = (end_val - start_val + step - 1) / step;
  strides[dim] *= step;
  return make_view(self, sizes, strides, offset);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  BP_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  BP_CHECK(length >= 0, "narrow(): length must be non-negative.");
  const int64_t size = self.size(dim);
  BP_CHECK_INDEX(start >= -size && start <= size,
                 "start out of range (expected to be in range of [", -size, ", ", size,
                 "], but got ", start, ")");
  if (start < 0) start += size;
  BP_CHECK(start <= size - length, "start (", start, ") + length (", length,
           ") exceeds dimension size (", size, ").");
  return native::slice(self, dim, start, start + length, 1);
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1_in, int64_t dim2_in) {
  const int64_t ndim = self.dim();
  const int64_t dim1 = wrap_dim(dim1_in, ndim);
  const int64_t dim2 = wrap_dim(dim2_in, ndim);
  BP_CHECK(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_in, ", ", dim2_in);
  const int64_t size1 = self.sizes()[dim1];
  const int64_t size2 = self.sizes()[dim2];
  int64_t diag_size = offset >= 0 ? std::max<int64_t>(std::min(size1, size2 - offset), 0)
                                  : std::max<int64_t>(std::min(size1 + offset, size2), 0);
  int64_t storage_offset = self.storage_offset();
  // An offset past the end gives an empty diagonal; leave the storage offset alone then.
  if (diag_size > 0) {
    storage_offset += offset >= 0 ? offset * self.strides()[dim2] : -offset * self.strides()[dim1];
  }
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  const int64_t diag_stride = strides[dim1] + strides[dim2];
  for (int64_t d : {std::max(dim1, dim2), std::min(dim1, dim2)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(diag_size);
  strides.push_back(diag_stride);
  return make_view(self, sizes, strides, storage_offset);
}

Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t ndim = self.dim();
  dimension = wrap_dim(dimension, ndim);
  const int64_t max_size = ndim == 0 ? 1 : self.sizes()[dimension];
  BP_CHECK(size <= max_size, "maximum size for tensor at dimension ", dimension, " is ", max_size,
           " but size is ", size);
  BP_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  BP_CHECK(step > 0, "step is ", step, " but must be > 0");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  DimVector strides(self.strides().begin(), self.strides().end());
  if (ndim > 0) {
    sizes[dimension] = (sizes[dimension] - size) / step + 1;
    strides[dimension] *= step;
  }
  sizes.push_back(size);
  strides.push_back(ndim == 0 ? 1 : self.strides()[dimension]);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor view_as_real(const Tensor& self) {
  BP_CHECK(is_complex(self.dtype()), "view_as_real is only supported for complex tensors");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  sizes.push_back(2);
  DimVector strides;
  for (int64_t s : self.strides()) strides.push_back(2 * s);
  strides.push_back(1);
  return make_view(self, sizes, strides, 2 * self.storage_offset(), to_real_type(self.dtype()));
}

Tensor view_as_complex(const Tensor& self) {
  const ScalarType dtype = self.dtype();
  BP_CHECK(dtype == ScalarType::kFloat16 || dtype == ScalarType::kFloat32 ||
               dtype == ScalarType::kFloat64,
           "view_as_complex is only supported for half, float and double tensors, but got a "
           "tensor of scalar type: ",
           dtype);
  BP_CHECK(self.dim() != 0, "Input tensor must have one or more dimensions");
  BP_CHECK(self.sizes().back() == 2, "Tensor must have a last dimension of size 2");
  BP_CHECK(self.strides().back() == 1, "Tensor must have a last dimension with stride 1");
  DimVector strides;
  for (int64_t s : self.strides().subspan(0, self.dim() - 1)) {
    BP_CHECK(s % 2 == 0, "Tensor must have a stride divisible by 2 for all but last dimension");
    strides.push_back(s / 2);
  }
  BP_CHECK(self.storage_offset() % 2 == 0, "Tensor must have a storage_offset divisible by 2");
  // PyTorch's checks all pass a float16 tensor, which it views as complex32.
  BP_CHECK_NOT_IMPLEMENTED(dtype != ScalarType::kFloat16,
                           "view_as_complex: a float16 tensor would be complex32 (ComplexHalf), a "
                           "dtype Backplane does not have");
  return make_view(self, self.sizes().subspan(0, self.dim() - 1), strides,
                   self.storage_offset() / 2, to_complex_type(dtype));
}

}  // namespace native
}  // namespace bp
