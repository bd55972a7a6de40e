// What the CPU reduction kernels (reductions_*.cc) share: building the reduction iterator over
// the outputs the meta function sized, the declared-dtype check, and running an associative fold
// on vectors where the accumulator allows.
//
//   void amax_out(structured_amax_out& op, const Tensor& self, IntArrayRef dim, bool keepdim,
//                 const Tensor& out) {
//     check_declared_dtype<structured_amax_out>("amax", self.dtype());
//     TensorIterator iter = reduction_iterator("amax", out, self, dim, keepdim, self.dtype());
//     ...  fold<float, math::Max, VectorMax>(iter, lowest<float>());
//   }
//
// Thread safety: as the reduction kernels of sdk/iter/reduce.h (the ops run on several threads).
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_H_

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "reference_backend/cpu/pointwise.h"
#include "reference_backend/math/reduction.h"
#include "sdk/core/error.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/reduce.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::cpu {

// Dtype masks for visit_dtype.
inline constexpr uint32_t kFloatingDtypes =
    scalar_type_mask(ScalarType::kFloat16) | scalar_type_mask(ScalarType::kBFloat16) |
    scalar_type_mask(ScalarType::kFloat32) | scalar_type_mask(ScalarType::kFloat64);
inline constexpr uint32_t kFloatingOrComplexDtypes = kFloatingDtypes |
                                                     scalar_type_mask(ScalarType::kComplex64) |
                                                     scalar_type_mask(ScalarType::kComplex128);

// The iterator of reducing `self` over `dims` (empty: every dim) into `out`, which the op's meta
// function already sized and typed; `self` is read as `in_dtype` (converted first when it
// differs). See make_reduction (sdk/iter/reduce.h).
TensorIterator reduction_iterator(std::string_view name, const Tensor& out, const Tensor& self,
                                  IntArrayRef dims, bool keepdim, ScalarType in_dtype);

// Raises kNotImplemented "\"argmax\" not implemented for 'bool'" (PyTorch's message shape) unless
// the op's declaration lists `dtype` (Op: the op's structured class).
template <typename Op>
void check_declared_dtype(std::string_view name, ScalarType dtype) {
  check_dtype_supported(dtype, Op::kDtypes, name);
}

// The identity of max: -inf for floating types, the lowest value otherwise (false for bool).
template <typename T>
constexpr T lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return -std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::lowest();
  }
}

// The vector form of math::Max: Vectorized's NaN-propagating maximum, keeping the later of equal
// values (b), as ATen's vector loop does.
struct VectorMax {
  template <typename T, int kBytes>
  [[gnu::always_inline]] Vectorized<T, kBytes> operator()(Vectorized<T, kBytes> a,
                                                          Vectorized<T, kBytes> b) const {
    return maximum(b, a);  // maximum gives its first argument on equal values
  }
};

namespace reductions_detail {

struct Unchanged {
  template <typename A>
  A operator()(A acc) const {
    return acc;
  }
};

// An associative fold as reduction ops, for accumulators without vectors (bool, complex).
template <typename A, typename Fold, typename Project>
struct FoldOps {
  Project project_fn;
  A reduce(A acc, A x, int64_t) const { return Fold{}(acc, x); }
  A combine(A a, A b) const { return Fold{}(a, b); }
  auto project(A acc) const { return project_fn(acc); }
};

// binary_kernel_reduce keeps accumulators in a std::vector, whose bool specialisation has no
// data(): bool accumulators travel wrapped in a struct.
struct BoolAccumulator {
  bool value;
};
template <typename Ops>
struct BoolAccumulatorOps {
  Ops ops;
  BoolAccumulator reduce(BoolAccumulator acc, bool x, int64_t index) const {
    return {ops.reduce(acc.value, x, index)};
  }
  BoolAccumulator combine(BoolAccumulator a, BoolAccumulator b) const {
    return {ops.combine(a.value, b.value)};
  }
  auto project(BoolAccumulator acc) const { return ops.project(acc.value); }
};

}  // namespace reductions_detail

// binary_kernel_reduce(iter, ops, initial), also for bool accumulators.
template <typename Ops, typename A>
void reduce_elementwise(const TensorIteratorBase& iter, const Ops& ops, A initial) {
  if constexpr (std::is_same_v<A, bool>) {
    binary_kernel_reduce(iter, reductions_detail::BoolAccumulatorOps<Ops>{ops},
                         reductions_detail::BoolAccumulator{initial});
  } else {
    binary_kernel_reduce(iter, ops, initial);
  }
}

// Reduces `iter` with the associative fold `Fold` (math::Sum, ...) in accumulator type A, from
// `identity`, then maps each result through `project`: on Vectorized<A> with `VecFold` when A is
// a SIMD type (binary_kernel_reduce_vec), one element at a time otherwise (binary_kernel_reduce).
// Inputs of other dtypes are converted to A as they are read.
template <typename A, typename Fold, typename VecFold = Fold,
          typename Project = reductions_detail::Unchanged>
void fold(const TensorIteratorBase& iter, A identity, const Project& project = Project()) {
  if constexpr (pointwise_detail::kSimdType<A>) {
    binary_kernel_reduce_vec(
        iter, [](A a, A b) -> A { return Fold{}(a, b); },
        // Generic and inlined: runs on the vectors of the CPU's ISA (see reduce.h).
        [](auto a, auto b) __attribute__((always_inline)) { return VecFold{}(a, b); }, identity,
        project);
  } else {
    reduce_elementwise(iter, reductions_detail::FoldOps<A, Fold, Project>{project}, identity);
  }
}

// A reduction's Scalar / number argument as a double (`if_none` for None), for cpu::reduce.
inline double reduce_arg(const Scalar& v, double) { return v.to<double>(); }
template <typename T>
requires std::is_arithmetic_v<T>
double reduce_arg(T v, double) { return static_cast<double>(v); }
template <typename T>
double reduce_arg(const std::optional<T>& v, double if_none) {
  return v ? reduce_arg(*v, if_none) : if_none;
}

namespace reductions_detail {

// Ops whose project gives a math::ValueIndex, projecting the pair the two outputs receive.
template <typename Ops>
struct ValueAndIndex : Ops {
  auto project(typename Ops::acc_t acc) const {
    const auto r = Ops::project(acc);
    return std::pair(r.value, r.index);
  }
};

}  // namespace reductions_detail

// The CPU kernel of reductions declared with `reduce: Ops(args)` and no `dispatch: CPU`
// (generated, e.g. for all.out: reduce<math::AllOps, 0xFFFu>("all", self, IntArrayRef(&dim, 1),
// keepdim, self.dtype(), {call.output(0)})): reduces `self`, read as `in_dtype` (the declared
// `reduce_in`), over `dims` into the outputs the meta function sized, with Ops<in_dtype's type>
// built from `args` (its arg_t each), one element at a time (binary_kernel_reduce). One output
// receives project()'s value; two receive a ValueIndex's value and index.
//
// Errors: an input dtype outside kDtypes (kNotImplemented): "\"all\" not implemented for
// 'complex64'".
template <template <typename> class Ops, uint32_t kDtypes, typename... Args>
void reduce(std::string_view name, const Tensor& self, IntArrayRef dims, bool keepdim,
            ScalarType in_dtype, std::initializer_list<Tensor> outputs, Args... args) {
  check_dtype_supported(self.dtype(), kDtypes, name);
  check_dtype_supported(in_dtype, kDtypes, name);
  const std::vector<Tensor> outs(outputs);
  visit_dtype<kDtypes>(in_dtype, [&](auto tag) {
    using O = Ops<typename decltype(tag)::type>;
    const O ops = [&] {
      if constexpr (sizeof...(Args) > 0) {
        return O{static_cast<typename O::arg_t>(args)...};
      } else {
        return O{};
      }
    }();
    using R = decltype(ops.project(ops.identity()));
    BP_INTERNAL_ASSERT(outs.size() == (math::is_value_index_v<R> ? 2u : 1u), name,
                       ": the reduction's outputs do not match its ops struct");
    if constexpr (!math::is_value_index_v<R>) {
      TensorIterator iter = reduction_iterator(name, outs[0], self, dims, keepdim, in_dtype);
      reduce_elementwise(iter, ops, ops.identity());
    } else {
      Tensor values = outs[0], indices = outs[1];  // make_reduction takes references
      TensorIterator iter =
          make_reduction(name, values, indices, self, dims, keepdim, in_dtype, indices.dtype());
      const reductions_detail::ValueAndIndex<O> pair_ops{ops};
      binary_kernel_reduce(iter, pair_ops, ops.identity());
    }
  });
}

}  // namespace bp::cpu

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_REDUCTIONS_H_
