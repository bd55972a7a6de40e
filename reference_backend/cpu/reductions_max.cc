// CPU kernels of the extremes: amax and amin (vectorised folds), argmax and argmin (an index into
// the flattened input without a dim; contiguous lines scanned on vectors). max.dim and min.dim run
// the generic cpu::reduce.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
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

// The types whose contiguous lines ArgExtremeReducer scans on vectors: those whose lanes hold
// an index of the same size (4 or 8 bytes).
template <typename V>
inline constexpr bool kScansOnVectors = std::is_same_v<V, float> || std::is_same_v<V, double> ||
                                        std::is_same_v<V, int32_t> || std::is_same_v<V, int64_t>;

// argmax's (argmin's) Reducer: binary_kernel_reduce's, except on contiguous lines of V, which it
// scans on vectors. Each lane keeps its extreme and the index where the lane first reached it
// (a strict comparison keeps the earlier of equal values; a lane's first NaN wins and stays),
// then the lanes join the accumulator by ArgExtremeOps::combine, which picks the lowest index
// among equal values or NaNs: the element-by-element fold's result.
template <typename V, bool kMax>
struct ArgExtremeReducer : ElementwiseReducer<ExtremeWithIndexOps<V, kMax>, math::ValueIndex<V>> {
  using Base = ElementwiseReducer<ExtremeWithIndexOps<V, kMax>, math::ValueIndex<V>>;
  using acc_t = math::ValueIndex<V>;

  template <int kWidth>
  [[gnu::always_inline]] void inner(acc_t& acc, const char* p, int64_t stride, int64_t len,
                                    int64_t idx0) const {
    if constexpr (kScansOnVectors<V>) {
      if (this->dtype == scalar_type_of<V> && stride == static_cast<int64_t>(sizeof(V))) {
        scan<kWidth>(acc, reinterpret_cast<const V*>(p), len, idx0);
        return;
      }
    }
    Base::template inner<kWidth>(acc, p, stride, len, idx0);
  }

  template <int kWidth>
  [[gnu::always_inline]] void scan(acc_t& acc, const V* v, int64_t len, int64_t idx0) const {
    using Vec = Vectorized<V, kWidth>;
    using Raw = typename Vec::Raw;
    using Lanes = typename Vec::Mask;  // signed integers of V's size: indices, masks
    constexpr int kW = Vec::size();
    // Indices relative to a block's start fit 4-byte lanes.
    constexpr int64_t kBlock = int64_t{1} << 30;
    Lanes iota;
    for (int lane = 0; lane < kW; ++lane) iota[lane] = lane;
    int64_t b = 0;
    while (len - b >= kW) {
      const int64_t n = std::min(len - b, kBlock) / kW * kW;
      Raw best = Vec::loadu(v + b).raw();
      Lanes at = iota, index = iota;
      for (int64_t i = kW; i < n; i += kW) {
        index += kW;
        const Raw x = Vec::loadu(v + b + i).raw();
        Lanes take = kMax ? x > best : x < best;
        if constexpr (std::is_floating_point_v<V>) take |= (x != x) & (best == best);
        best = take ? x : best;
        at = take ? index : at;
      }
      for (int lane = 0; lane < kW; ++lane) {
        acc = this->ops.combine(acc, acc_t{best[lane], idx0 + b + at[lane]});
      }
      b += n;
    }
    for (; b < len; ++b) acc = this->ops.reduce(acc, v[b], idx0 + b);
  }
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
    const ArgExtremeReducer<V, kMax> reducer{{ops, ops.identity(), iter, iter.input_dtype()}};
    run_reduction(iter, reducer, /*contiguous_first=*/true);
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
