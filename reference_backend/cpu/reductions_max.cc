// CPU kernels of the extremes: amax and amin (vectorised folds), argmax and argmin (an index into
// the flattened input without a dim; contiguous lines scanned on vectors). max.dim and min.dim run
// the generic cpu::reduce.
#include <algorithm>
#include <cstdint>
#include <cstring>
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

// amax's (amin's) fold, scalar and vector, as types a Reducer can name.
template <bool kMax>
struct ExtremeOp {
  template <typename T>
  T operator()(T a, T b) const {
    return kMax ? math::Max{}(a, b) : math::Min{}(a, b);
  }
};
template <typename A, bool kMax>
struct ScalarExtreme {
  A operator()(A a, A b) const { return ExtremeOp<kMax>{}(a, b); }
};
template <bool kMax>
struct VectorExtreme {
  template <typename T, int kBytes>
  [[gnu::always_inline]] Vectorized<T, kBytes> operator()(Vectorized<T, kBytes> a,
                                                          Vectorized<T, kBytes> b) const {
    return kMax ? VectorMax{}(a, b) : VectorMin{}(a, b);
  }
};

// amax's (amin's) Reducer: binary_kernel_reduce_vec's, with a lean path for a contiguous row of
// A, the common case (rows of 256 floats took 1.07x PyTorch's time through the general one): the
// same vector accumulators, so the same result, then the lanes folded without a branch per lane
// (VecReducer's scalar op tests for NaN at each; here one vector test, and the exact fold only
// when a lane is NaN), and a plain store when the output is of type A.
template <typename A, bool kMax>
struct ExtremeReducer : reduce_detail::VecReducer<ScalarExtreme<A, kMax>, VectorExtreme<kMax>,
                                                  reduce_detail::Identity> {
  using Base = reduce_detail::VecReducer<ScalarExtreme<A, kMax>, VectorExtreme<kMax>,
                                         reduce_detail::Identity>;
  using acc_t = A;
  // Ahead of the row being read: rows of 256 floats read 24 GB/s at 4 KiB, 28 at 8 KiB.
  static constexpr int64_t kPrefetchBytes = 8192;

  template <int kIsaWidth>
  [[gnu::always_inline]] void inner(A& acc, const char* p, int64_t stride, int64_t len,
                                    int64_t idx0) const {
    if (this->dtype == scalar_type_of<A> && stride == Base::kSize) {
      acc = this->op(acc, row<Base::template width<kIsaWidth>()>(p, len));
      return;
    }
    Base::template inner<kIsaWidth>(acc, p, stride, len, idx0);
  }

  // The extreme of the n values at v, as VecReducer::inner folds them.
  template <int kWidth>
  [[gnu::always_inline]] A row(const char* v, int64_t n) const {
    using Vec = Vectorized<A, kWidth>;
    constexpr int64_t kLanes = Base::kLanes, kSize = Base::kSize;
    constexpr int64_t kParts = kLanes / Vec::size();
    const VectorExtreme<kMax> vop;
    Vec a[4][kParts];
    for (auto& r : a) {
      for (Vec& part : r) part = Vec(this->ident);
    }
    int64_t i = 0;
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
      const char* q = v + i * kSize;
      for (int64_t line = 0; line < 4 * kLanes * kSize; line += 64) {
        __builtin_prefetch(q + kPrefetchBytes + line);
      }
#pragma GCC unroll 4
      for (int k = 0; k < 4; ++k) {
#pragma GCC unroll 4
        for (int64_t part = 0; part < kParts; ++part) {
          a[k][part] = vop(a[k][part], Vec::loadu(q + (k * kParts + part) * kWidth));
        }
      }
    }
    Vec all[kParts];
    typename Vec::Mask nan_lanes{};
    for (int64_t part = 0; part < kParts; ++part) {
      all[part] = vop(vop(a[0][part], a[1][part]), vop(a[2][part], a[3][part]));
      if constexpr (std::is_floating_point_v<A>) {
        const typename Vec::Raw r = all[part].raw();
        nan_lanes |= r != r;
      }
    }
    // Whether any lane is NaN, as 8-byte words ORed together: a loop over the lanes went
    // through the stack, one load, test and or per lane (a fifth of amax's time on rows of 256).
    uint64_t words[sizeof(nan_lanes) / 8];
    copy_bytes(words, &nan_lanes, sizeof(nan_lanes));
    uint64_t any = 0;
    for (const uint64_t w : words) any |= w;
    const bool nan = any != 0;
    // Without NaN, math::Max (Min) is this compare and select, which compiles to one max (min).
    A s = all[0][0];
    for (int64_t part = 0; part < kParts; ++part) {
      for (int lane = 0; lane < Vec::size(); ++lane) {
        const A l = all[part][lane];
        if (nan) {
          s = this->op(s, l);
        } else {
          s = (kMax ? s < l : l < s) ? l : s;
        }
      }
    }
    for (; i < n; ++i) s = this->op(s, reduce_detail::load<A>(v, i));
    return s;
  }

  void store(char** out, A acc) const {
    if (this->iter.dtype(0) == scalar_type_of<A>) {
      std::memcpy(out[0], &acc, sizeof(A));  // store_converted's dispatch costs more
    } else {
      Base::store(out, acc);
    }
  }
};

// Reduces `iter` (amax's or amin's iterator) in accumulator type A.
template <typename A, bool kMax>
void extreme(const TensorIteratorBase& iter) {
  const A ident = kMax ? lowest<A>() : highest<A>();
  if constexpr (pointwise_detail::kSimdType<A>) {
    const ScalarExtreme<A, kMax> op;
    const VectorExtreme<kMax> vop;
    const reduce_detail::Identity project;
    const ExtremeReducer<A, kMax> red{{op, vop, project, ident, iter, iter.input_dtype()}};
    run_reduction(iter, red, /*contiguous_first=*/true);
  } else {
    fold<A, ExtremeOp<kMax>>(iter, ident);
  }
}

}  // namespace

void amax_out(structured_amax_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
              const Tensor& out) {
  check_declared_dtype<structured_amax_out>("amax", self.dtype());
  TensorIterator iter = reduction_iterator("amax", out, self, dim, keepdim, self.dtype());
  visit_dtype<structured_amax_out::kDtypes>(self.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    extreme<A, true>(iter);
  });
}

void amin_out(structured_amin_out&, const Tensor& self, IntArrayRef dim, bool keepdim,
              const Tensor& out) {
  check_declared_dtype<structured_amin_out>("amin", self.dtype());
  TensorIterator iter = reduction_iterator("amin", out, self, dim, keepdim, self.dtype());
  visit_dtype<structured_amin_out::kDtypes>(self.dtype(), [&](auto tag) {
    using A = opmath_t<typename decltype(tag)::type>;
    extreme<A, false>(iter);
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
