// CPU kernels of the extremes: amax and amin (vectorised folds), argmax and argmin (an index into
// the flattened input without a dim). max.dim and min.dim run the generic cpu::reduce.
#include <limits>
#include <optional>
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

// argmax's (argmin's) reduction: the extreme and its index, into a scratch tensor of values and
// the result.
template <typename V, bool kMax>
struct ExtremeWithIndexOps : math::ArgExtremeOps<V, kMax> {
  std::pair<V, int64_t> project(math::ValueIndex<V> acc) const { return {acc.value, acc.index}; }
};

// Reduces `self` over `dim` into `values` (self's dtype) and `indices` (int64), which have the
// reduced shape, comparing in self's compute type (float for float16 / bfloat16, which holds
// their values exactly).
template <bool kMax>
void extreme_with_index(std::string_view name, const Tensor& self, int64_t dim, bool keepdim,
                        const Tensor& values, const Tensor& indices) {
  Tensor values_handle = values, indices_handle = indices;  // make_reduction takes references
  TensorIterator iter =
      make_reduction(name, values_handle, indices_handle, self, IntArrayRef(&dim, 1), keepdim,
                     self.dtype(), ScalarType::kInt64);
  visit_dtype<structured_max_dim_max::kDtypes>(self.dtype(), [&](auto tag) {
    using V = opmath_t<typename decltype(tag)::type>;
    const ExtremeWithIndexOps<V, kMax> ops{};
    binary_kernel_reduce(iter, ops, ops.identity());
  });
}

// argmax / argmin. Over every dim the index is into the flattened input (C order), as in
// PyTorch: reduce a 1-d copy or view over its dim 0 into the result seen as 0-dim.
template <bool kMax>
void arg_extreme(std::string_view name, const Tensor& self, std::optional<int64_t> dim,
                 bool keepdim, const Tensor& out) {
  const int64_t flat[] = {-1};
  const Tensor input = dim ? self : bp::reshape(self, flat);
  const Tensor indices = dim ? out : native::view(out, {});
  const Tensor values = native::empty(indices.sizes(), self.dtype(), self.device());
  extreme_with_index<kMax>(name, input, dim.value_or(0), dim ? keepdim : false, values, indices);
}

// The vector form of math::Min (as VectorMax).
struct VectorMin {
  template <typename T, int kBytes>
  [[gnu::always_inline]] Vectorized<T, kBytes> operator()(Vectorized<T, kBytes> a,
                                                          Vectorized<T, kBytes> b) const {
    return minimum(b, a);  // minimum gives its first argument on equal values
  }
};

// The identity of min: inf for floating types, the highest value otherwise (true for bool).
template <typename T>
constexpr T highest() {
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::max();
  }
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

void amin_out(structured_amin_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
              const Tensor& out) {
  check_declared_dtype<structured_amin_out>("amin", self.dtype());
  TensorIterator iter = reduction_iterator("amin", out, self, dim, keepdim, self.dtype());
  visit_dtype<structured_amin_out::kDtypes>(self.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    fold<A, math::Min, VectorMin>(iter, highest<A>());
  });
}

void argmax_out(structured_argmax_out&, const Tensor& self, std::optional<int64_t> dim,
                bool keepdim, const Tensor& out) {
  check_declared_dtype<structured_argmax_out>("argmax", self.dtype());
  static_assert((structured_argmax_out::kDtypes & ~structured_max_dim_max::kDtypes) == 0,
                "argmax runs max.dim's kernel");
  arg_extreme<true>("argmax", self, dim, keepdim, out);
}

void argmin_out(structured_argmin_out&, const Tensor& self, std::optional<int64_t> dim,
                bool keepdim, const Tensor& out) {
  check_declared_dtype<structured_argmin_out>("argmin", self.dtype());
  static_assert((structured_argmin_out::kDtypes & ~structured_max_dim_max::kDtypes) == 0,
                "argmin runs max.dim's kernel over its dtypes");
  arg_extreme<false>("argmin", self, dim, keepdim, out);
}

}  // namespace bp::cpu
