// View operations: new tensors over the same storage with other sizes, strides or offset
// (PyTorch's semantics and error messages).
//
//   Tensor t = empty({2, 3, 4}, ScalarType::kFloat32, Device(DeviceType::kCPU));
//   Tensor a = transpose(t, 0, 2);        // sizes [4, 3, 2], strides [1, 4, 12]
//   Tensor b = select(t, 1, -1);          // sizes [2, 4], offset 8
//   Tensor c = view(t, {6, -1});          // sizes [6, 4]
//   Tensor d = expand(unsqueeze(t, 0), {5, 2, 3, 4});  // stride 0 on the new dim
//   try_view(a, {-1});                    // nullopt: `a` cannot be viewed as 1-d
//
// Every view shares its base's storage and version counter (is_alias_of(base) is true). These are
// the CompositeExplicit kernels of the view ops (sdk/ops/views.yaml); `reshape` and `flatten`,
// which copy when no view fits, are composites of the ops in sdk/ops/native/views.cc (sdk/core
// calls no ops).
//
// Dims may be negative (counted from the end); out-of-range dims raise IndexError
// "Dimension out of range (expected to be in range of [-3, 2], but got 3)".
//
// Thread safety: safe to call concurrently; they only read their input's metadata.
#ifndef BACKPLANE_SDK_CORE_VIEWS_H_
#define BACKPLANE_SDK_CORE_VIEWS_H_

#include <cstdint>
#include <optional>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/tensor.h"

namespace bp {

namespace native {

// A view with exactly these sizes, strides and storage offset (default: self's offset).
// Errors: lengths differ ("mismatch in length of strides and shape"), negative strides
// ("as_strided: Negative strides are not supported at the moment, got strides: [..]"), a
// negative offset, and out-of-bounds geometry ("setStorage: sizes [..], strides [..], storage
// offset .., and itemsize .. requiring a storage size of .. are out of bounds for storage of size
// ..").
Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                  std::optional<int64_t> storage_offset = std::nullopt);

// A view with the same geometry (a new TensorImpl sharing storage and version counter).
Tensor alias(const Tensor& self);

// `shape` with its -1 (at most one) replaced so that it holds `numel` elements (PyTorch's
// infer_size): the sizes `view` and `unflatten` give. Errors: "shape '[2, 5]' is invalid for
// input of size 6", "only one dimension can be inferred", "invalid shape dimension -2", and for
// -1 with zero elements "cannot reshape tensor of 0 elements into shape [0, -1] because the
// unspecified dimension size -1 can be any value and is ambiguous".
DimVector infer_size_of_view(IntArrayRef shape, int64_t numel);

// A view with sizes `shape` (one entry may be -1: inferred). Errors: "shape '[2, 5]' is invalid
// for input of size 6", "only one dimension can be inferred", "invalid shape dimension -2",
// "view size is not compatible with input tensor's size and stride (at least one dimension spans
// across two contiguous subspaces). Use .reshape(...) instead."
Tensor view(const Tensor& self, IntArrayRef shape);

// The view `view` would return when self's strides allow one, else nullopt (the `reshape` op then
// copies). Errors: those of `view` about the shape itself.
std::optional<Tensor> try_view(const Tensor& self, IntArrayRef shape);

// Deprecated: the view half of the `reshape` op, kept for callers below sdk/ops (they cannot call
// ops). Use bp::reshape, which copies when needed, on every device. Errors: those of try_view,
// and kNotImplemented when a copy would be needed.
Tensor reshape(const Tensor& self, IntArrayRef shape);

// Dims reordered: result dim i is self's dim dims[i]. Errors: "permute(sparse_coo): number of
// dimensions in the tensor input does not match the length of the desired ordering of dimensions
// i.e. input.dim() = 2 is not equal to len(dims) = 3" (PyTorch's text, also for dense tensors),
// "permute(): duplicate dims are not allowed."
Tensor permute(const Tensor& self, IntArrayRef dims);

// Dims dim0 and dim1 swapped.
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);

// transpose(self, 0, 1) for 2-d, an alias for 0-d and 1-d. Errors: "t() expects a tensor with <=
// 2 dimensions, but self is 3D".
Tensor t(const Tensor& self);

// A view with sizes `sizes` (at least self.dim() entries; new dims go first; -1 keeps a size;
// size-1 dims stretch with stride 0). `implicit` (PyTorch's: whether broadcasting, not the user,
// expanded) does not change the result. Errors: PyTorch's "expand(torch.FloatTensor{[2, 3]},
// size=[3]): the number of sizes provided (1) must be greater or equal to the number of
// dimensions in the tensor (2)", "The expanded size of the tensor (4) must match the existing
// size (3) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]", "The
// expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0".
Tensor expand(const Tensor& self, IntArrayRef sizes, bool implicit = false);
Tensor expand_as(const Tensor& self, const Tensor& other);

// Without dims of size 1: all of them, `dim` only, or those of `dims` (dims of another size are
// kept). Errors: "dim 1 appears multiple times in the list of dims".
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor squeeze(const Tensor& self, IntArrayRef dims);

// A new dim of size 1 at `dim` (in [-dim()-1, dim()]).
Tensor unsqueeze(const Tensor& self, int64_t dim);

// The slice at `index` (negative counts from the end) of `dim`, which disappears. Errors
// (kIndexError): "select() cannot be applied to a 0-dim tensor.", "select(): index 3 out of range
// for tensor of size [2, 3] at dimension 1".
Tensor select(const Tensor& self, int64_t dim, int64_t index);

// Elements start, start+step, ... before end of `dim`; start and end are wrapped once when
// negative and clamped to [0, size] (nullopt: 0 and size). Errors: "slice step must be positive",
// kIndexError "slice() cannot be applied to a 0-dim tensor."
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);

// Elements [start, start + length) of `dim`. Errors: "narrow() cannot be applied to a 0-dim
// tensor.", "narrow(): length must be non-negative.", kIndexError "start out of range (expected
// to be in range of [-3, 3], but got 4)", "start (2) + length (2) exceeds dimension size (3)."
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);

// The diagonal of dims dim1 and dim2 (removed; the diagonal becomes the last dim), `offset`
// above (> 0) or below (< 0) the main one. Errors: "diagonal dimensions cannot be identical 0, 0".
Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);

// Windows of `size` elements every `step` along `dimension` (which shrinks to the number of
// windows), the window as a new last dim; a 0-dim tensor gives one window of size 0 or 1. Errors:
// "maximum size for tensor at dimension 1 is 3 but size is 4", "size is -1 but must be >= 0",
// "step is 0 but must be > 0".
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);

// A complex tensor's storage read as its parts: a real tensor with a new last dim of size 2 (real,
// imaginary), strides doubled. Errors: "view_as_real is only supported for complex tensors".
Tensor view_as_real(const Tensor& self);

// The inverse: a float32 / float64 tensor whose last dim has size 2 and stride 1, its other
// strides and its storage offset even, read as complex. Errors, in PyTorch's order:
// "view_as_complex is only supported for half, float and double tensors, but got a tensor of
// scalar type: int32", "Input tensor must have one or more dimensions", "Tensor must have a last
// dimension of size 2", "Tensor must have a last dimension with stride 1", "Tensor must have a
// stride divisible by 2 for all but last dimension", "Tensor must have a storage_offset divisible
// by 2"; then kNotImplemented for float16, which PyTorch views as complex32, a dtype Backplane
// does not have.
Tensor view_as_complex(const Tensor& self);

}  // namespace native
}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_VIEWS_H_
