// RefTensor: a tensor as the references see it: a dtype, sizes and the elements in row-major
// order in wide precision, with no strides. And the bridges to bp::Tensor (CPU): reading any
// strided tensor into a RefTensor, writing values into one, and index arithmetic.
//
//   RefTensor r = read_tensor(t);                   // t: a CPU tensor, any strides
//   r.at({1, 2});                                   // the element at index [1, 2]
//   Tensor host = make_contiguous(r);               // a new contiguous CPU tensor holding r
//   for_each_index({2, 3}, [&](const Index& idx) { ... });   // [0, 0], [0, 1], ... [1, 2]
//
// Thread safety: value types and pure functions.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_REF_TENSOR_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_REF_TENSOR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/framework/wide.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::conformance {

using Index = std::vector<int64_t>;
using Sizes = std::vector<int64_t>;

struct RefTensor {
  ScalarType dtype = ScalarType::kFloat32;
  Sizes sizes;
  std::vector<Wide> values;  // row-major; values.size() == numel()

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  int64_t numel() const;
  // The element at `index` (one entry per dim).
  const Wide& at(const Index& index) const;
  // The element at `index` of a tensor broadcast to more dims: `index` is aligned to the
  // trailing dims, and dims of size 1 repeat.
  const Wide& at_broadcast(const Index& index) const;
};

// A RefTensor of `dtype` and `sizes` with every element `fill` (already in dtype's kind).
RefTensor filled(ScalarType dtype, Sizes sizes, Wide fill);
// Every element cast to `dtype`.
RefTensor cast(const RefTensor& t, ScalarType dtype);

// The product of `sizes` (1 for no dims).
int64_t numel_of(const Sizes& sizes);
// Row-major strides of `sizes`.
Sizes contiguous_strides_of(const Sizes& sizes);
// Calls `f(index)` for every index of `sizes` in row-major order (once with {} for no dims,
// never for zero elements).
void for_each_index(const Sizes& sizes, const std::function<void(const Index&)>& f);
// The broadcast shape of `a` and `b`; false when they do not broadcast.
bool broadcast_sizes(const Sizes& a, const Sizes& b, Sizes* out);
// "[2, 3]".
std::string sizes_string(const Sizes& sizes);

// Element access on raw memory of `dtype`.
Wide read_element(const void* p, ScalarType dtype);
// Writes `w` (an element of `dtype`) to `p`.
void write_element(void* p, ScalarType dtype, const Wide& w);

// The elements of a CPU tensor (any sizes, strides and offset) in row-major order.
RefTensor read_tensor(const Tensor& t);
// Every element of a CPU tensor's whole storage in storage order, as a 1-d tensor of its dtype
// (elements outside the tensor's view included).
RefTensor storage_elements(const Tensor& host);
// Writes `values` (row-major, values.numel() == t.numel()) into a CPU tensor's elements, through
// its strides. Writing into a tensor whose elements overlap keeps the last write.
void write_tensor(const Tensor& t, const RefTensor& values);
// A new contiguous CPU tensor holding `values`.
Tensor make_contiguous(const RefTensor& values);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_REF_TENSOR_H_
