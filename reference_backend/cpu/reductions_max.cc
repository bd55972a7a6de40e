// CPU kernels of the maxima: amax (a vectorised fold) and argmax (an index into the flattened
// input without a dim). max.dim runs the generic cpu::reduce.
#include <string_view>
#include <utility>

#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/reductions.h"
#include "reference_backend/math/reduction.h"
#include "sdk/core/empty.h"
#include "sdk/core/views.h"
#include "sdk/ops/ops.h"

namespace bp::cpu {
namespace {

// argmax's reduction: the maximum and its index, into a scratch tensor of values and the result.
template <typename V>
struct MaxWithIndexOps : math::ArgMaxOps<V> {
  std::pair<V, int64_t> project(math::ValueIndex<V> acc) const { return {acc.value, acc.index}; }
};

// Reduces `self` over `dim` into `values` (self's dtype) and `indices` (int64), which have the
// reduced shape, comparing in self's compute type (float for float16 / bfloat16, which holds
// their values exactly).
void max_with_index(std::string_view name, const Tensor& self, int64_t dim, bool keepdim,
                    const Tensor& values, const Tensor& indices) {
  Tensor values_handle = values, indices_handle = indices;  // make_reduction takes references
  TensorIterator iter =
      make_reduction(name, values_handle, indices_handle, self, IntArrayRef(&dim, 1), keepdim,
                     self.dtype(), ScalarType::kInt64);
  visit_dtype<structured_max_dim_max::kDtypes>(self.dtype(), [&](auto tag) {
    using V = opmath_t<typename decltype(tag)::type>;
    const MaxWithIndexOps<V> ops{};
    binary_kernel_reduce(iter, ops, ops.identity());
  });
}

}  // namespace

void amax_out(structured_amax_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
              const Tensor& out) {
  check_declared_dtype<structured_amax_out>("amax", self.dtype());
  TensorIterator iter = reduction_iterator("amax", out, self, dim, keepdim, self.dtype());
  visit_dtype<structured_amax_out::kDtypes>(self.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    fold<A, math::Max, VectorMax>(iter, lowest<A>());
  });
}

void argmax_out(structured_argmax_out&, const Tensor& self, std::optional<int64_t> dim,
                bool keepdim, const Tensor& out) {
  check_declared_dtype<structured_argmax_out>("argmax", self.dtype());
  static_assert((structured_argmax_out::kDtypes & ~structured_max_dim_max::kDtypes) == 0,
                "argmax runs max.dim's kernel");
  // Over every dim the index is into the flattened input (C order), as in PyTorch: reduce a 1-d
  // copy or view over its dim 0 into the result seen as 0-dim.
  const int64_t flat[] = {-1};
  const Tensor input = dim ? self : bp::reshape(self, flat);
  const Tensor indices = dim ? out : native::view(out, {});
  const Tensor values = native::empty(indices.sizes(), self.dtype(), self.device());
  max_with_index("argmax", input, dim.value_or(0), dim ? keepdim : false, values, indices);
}

}  // namespace bp::cpu
