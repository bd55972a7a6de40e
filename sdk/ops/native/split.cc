// The view ops that return lists: split and its overloads, chunk, tensor_split, unbind and
// broadcast_tensors. Each piece is a view of its input made by sdk/core/views.h (narrow, slice,
// select, expand), so one implementation serves every backend. Checks and messages are
// PyTorch 1.13's (aten/src/ATen/native/TensorShape.cpp), in its order. Also unsafe_split's out=
// ops, which copy the pieces into a list of outs through the dispatcher.
#include <algorithm>
#include <vector>

#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/core/int_array_ref.h"
#include "sdk/core/resize.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/core/views.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// The same view with a version counter of its own: what unsafe_split gives PyTorch's autograd
// (the pieces still share self's storage).
Tensor with_own_version_counter(const Tensor& view) {
  return Tensor(IntrusivePtr<TensorImpl>::make(view.storage(), view.dtype(), view.sizes(),
                                               view.strides(), view.storage_offset()));
}

std::vector<Tensor> with_own_version_counters(std::vector<Tensor> views) {
  for (Tensor& t : views) t = with_own_version_counter(t);
  return views;
}

// The out= of an op returning pieces, as PyTorch's out= ops generated from a functional one
// (torchgen's autogen, CompositeViewCopyKernels.cpp): one out per piece, every out resized to its
// piece (resize_output: a warning when it had elements), then each piece copied in as copy_ does
// (any dtype, any device copy_ takes). PyTorch 1.13 checks the count with an internal assertion;
// the message is that of its split_copy_Tensor_out, with `name` for the op.
void copy_pieces_into(const std::vector<Tensor>& pieces, absl::Span<const Tensor> out,
                      const char* name) {
  BP_CHECK(out.size() == pieces.size(), name, "() expected an out= argument of size ",
           pieces.size(), ", got size ", out.size());
  for (size_t i = 0; i < pieces.size(); ++i) resize_output(*out[i].impl(), pieces[i].sizes());
  for (size_t i = 0; i < pieces.size(); ++i) {
    Tensor written = out[i];  // the same tensor: copy_ takes it as Tensor&
    bp::copy_(written, pieces[i]);
  }
}

void check_tensor_split_input(const Tensor& self) {
  BP_CHECK(self.dim() > 0,
           "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
           self.dim(), " dims");
}

}  // namespace

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  BP_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  BP_CHECK(split_size >= 0,
           "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t dim_size = self.size(dim);
  BP_CHECK(split_size > 0 || dim_size == 0,
           "split_size can only be 0 if dimension size is 0, but got dimension size of ", dim_size);
  // A split_size of 0 (over a dim of size 0) gives one piece; a split_size past the dim's size
  // gives one piece too (PyTorch keeps this for compatibility).
  const int64_t num_splits =
      split_size == 0 ? 1 : std::max<int64_t>((dim_size + split_size - 1) / split_size, 1);
  const int64_t last_split_size = split_size - (split_size * num_splits - dim_size);
  std::vector<Tensor> splits;
  splits.reserve(num_splits);
  for (int64_t i = 0; i < num_splits; ++i) {
    splits.push_back(native::narrow(self, dim, i * split_size,
                                    i < num_splits - 1 ? split_size : last_split_size));
  }
  return splits;
}

std::vector<Tensor> split_sizes(const Tensor& self, IntArrayRef split_size, int64_t dim) {
  return native::split_with_sizes(self, split_size, dim);
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  BP_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  const int64_t dim_size = self.size(dim);
  // Every size is checked, and their sum, before any piece is made: a negative size is reported
  // as such rather than as narrow's out-of-range start.
  int64_t total = 0;
  for (int64_t length : split_sizes) {
    BP_CHECK(length >= 0,
             "split_with_sizes expects split_sizes have only non-negative entries, but got "
             "split_sizes=",
             int_list_string(split_sizes));
    total += length;
  }
  BP_CHECK(total == dim_size, "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
           " (input tensor's size at dimension ", dim,
           "), but got split_sizes=", int_list_string(split_sizes));
  std::vector<Tensor> splits;
  splits.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t length : split_sizes) {
    splits.push_back(native::narrow(self, dim, start, length));
    start += length;
  }
  return splits;
}

std::vector<Tensor> unsafe_split(const Tensor& self, int64_t split_size, int64_t dim) {
  return with_own_version_counters(native::split(self, split_size, dim));
}

std::vector<Tensor> unsafe_split_with_sizes(const Tensor& self, IntArrayRef split_sizes,
                                            int64_t dim) {
  return with_own_version_counters(native::split_with_sizes(self, split_sizes, dim));
}

void unsafe_split_out(const Tensor& self, int64_t split_size, int64_t dim,
                      absl::Span<const Tensor> out) {
  copy_pieces_into(bp::unsafe_split(self, split_size, dim), out, "unsafe_split_Tensor_out");
}

void unsafe_split_with_sizes_out(const Tensor& self, IntArrayRef split_sizes, int64_t dim,
                                 absl::Span<const Tensor> out) {
  copy_pieces_into(bp::unsafe_split_with_sizes(self, split_sizes, dim), out,
                   "unsafe_split_with_sizes_out");
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  BP_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  BP_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t dim_size = self.size(dim);
  const int64_t split_size = (dim_size + chunks - 1) / chunks;
  // split would return one piece of a dim of size 0; chunk returns `chunks` empty pieces.
  if (split_size == 0 && dim_size == 0) {
    return native::split_with_sizes(self, std::vector<int64_t>(chunks, 0), dim);
  }
  return native::split(self, split_size, dim);
}

std::vector<Tensor> tensor_split_sections(const Tensor& self, int64_t sections, int64_t dim) {
  check_tensor_split_input(self);
  const int64_t d = wrap_dim(dim, self.dim());
  BP_CHECK(sections > 0, "number of sections must be larger than 0, got ", sections);
  const int64_t dim_size = self.size(d);
  // The first dim_size % sections pieces take one element more.
  const int64_t min_split_size = dim_size / sections;
  const int64_t num_splits_one_extra = dim_size % sections;
  std::vector<Tensor> splits;
  splits.reserve(sections);
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t size = i < num_splits_one_extra ? min_split_size + 1 : min_split_size;
    splits.push_back(native::slice(self, d, start, start + size));
    start += size;
  }
  return splits;
}

std::vector<Tensor> tensor_split_indices(const Tensor& self, IntArrayRef indices, int64_t dim) {
  check_tensor_split_input(self);
  const int64_t d = wrap_dim(dim, self.dim());
  // Slices between consecutive indices, clamped as slice clamps (so indices may go backwards or
  // past the end: those pieces are empty).
  std::vector<Tensor> splits;
  splits.reserve(indices.size() + 1);
  int64_t start = 0;
  for (int64_t end : indices) {
    splits.push_back(native::slice(self, d, start, end));
    start = end;
  }
  splits.push_back(native::slice(self, d, start, self.size(d)));
  return splits;
}

std::vector<Tensor> tensor_split_tensor_indices_or_sections(
    const Tensor& self, const Tensor& tensor_indices_or_sections, int64_t dim) {
  check_tensor_split_input(self);
  const Tensor& given = tensor_indices_or_sections;
  BP_CHECK(given.device().type == DeviceType::kCPU,
           "tensor_split expected tensor_indices_or_sections to be on cpu, but it's on ",
           given.device());
  BP_CHECK(given.dtype() == ScalarType::kInt64,
           "tensor_split expected tensor_indices_or_sections to have dtype of long, but got ",
           scalar_type_name(given.dtype()));
  BP_CHECK(given.dim() == 0 || given.dim() == 1,
           "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
           "one-dimensional tensor, but got a tensor with ",
           given.dim(), " dims");
  const int64_t* data = given.data_ptr<int64_t>();
  if (given.dim() == 0) return native::tensor_split_sections(self, *data, dim);
  // The indices may be strided (a view).
  std::vector<int64_t> indices(given.numel());
  for (int64_t i = 0; i < given.numel(); ++i) indices[i] = data[i * given.stride(0)];
  return native::tensor_split_indices(self, indices, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = wrap_dim(dim, self.dim());
  const int64_t size = self.size(dim);
  std::vector<Tensor> pieces;
  pieces.reserve(size);
  for (int64_t i = 0; i < size; ++i) pieces.push_back(native::select(self, dim, i));
  return pieces;
}

std::vector<Tensor> broadcast_tensors(absl::Span<const Tensor> tensors) {
  // Pairwise, in order, so that a mismatch is reported between the shape so far ("tensor a")
  // and the next tensor ("tensor b"), as PyTorch's expand_outplace does. Undefined tensors are
  // skipped and stay undefined.
  DimVector shape;
  bool first = true;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    shape = first ? DimVector(t.sizes().begin(), t.sizes().end()) : infer_size(shape, t.sizes());
    first = false;
  }
  std::vector<Tensor> result(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!t.defined()) continue;
    result[i] = t.sizes() == IntArrayRef(shape) ? t : native::expand(t, shape);
  }
  return result;
}

}  // namespace bp::native
