// pointwise: runs a scalar math functor (reference_backend/math) over a built TensorIterator in
// its common dtype: the CPU kernel of every op declared with `math:`.
//
//   // Generated for add.out (declared `math: Add(alpha)`, `dtypes: all`):
//   pointwise<math::Add, 0xFFFu>(call, "add", alpha);
//
// For each dtype in kDtypes the functor runs in the compute type M of the common dtype S (float
// for float16 / bfloat16, S otherwise), with the Scalar arguments converted to M (checked):
//   out = Out(F{}(M(in0), M(in1), ..., M(scalar0), ...))
// where Out is S when F returns M, else F's result type (bool for predicates). The number of
// tensor inputs is deduced from F (the smallest count it accepts with the scalars after them).
// Functors marked kVectorized also run on Vectorized<M> when S is M and a SIMD type (float,
// double, integers; a functor may narrow that with `template <typename T> static constexpr bool
// kVectorizedFor`): cpu_kernel_vec with the same functor, on vectors of the ISA's width; a
// predicate's (a functor returning bool: the comparisons) gives masks on vectors, stored as bools
// into a bool output and as 1 / 0 into an output of dtype S. Tensor input k with bit k set in
// kBoolInputs (declared `math: MaskedFill(mask=bool, value)`) is read as bool (the meta function
// keeps it so) and reaches F as 0 / 1 of M. Operands
// of other dtypes than the loop's types are converted by cpu_kernel's dynamic casting; outputs
// computed in a temporary are written back (cast_outputs).
//
// Errors: a common dtype outside kDtypes (kNotImplemented): "\"add\" not implemented for
// 'bool'" (PyTorch's message shape); a Scalar argument out of the compute type's range
// (kInvalidArgument, as Scalar::to).
//
// Thread safety: as cpu_kernel (the functor runs on several threads for large iterators).
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_POINTWISE_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_POINTWISE_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sdk/core/error.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/iter/loops.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::cpu {

// The type a kernel computes in for element type S.
template <typename S>
using opmath_t =
    std::conditional_t<std::is_same_v<S, Half> || std::is_same_v<S, BFloat16>, float, S>;

namespace pointwise_detail {

template <size_t, typename T>
using Repeat = T;

// Whether F accepts N values of M followed by the extras.
template <typename F, typename M, typename Seq, typename... Extras>
struct AcceptsN;
template <typename F, typename M, size_t... I, typename... Extras>
struct AcceptsN<F, M, std::index_sequence<I...>, Extras...>
    : std::is_invocable<const F&, Repeat<I, M>..., Extras...> {};

// The number of tensor inputs F takes (1 to 4).
template <typename F, typename M, typename... Extras>
constexpr size_t tensor_arity() {
  if constexpr (AcceptsN<F, M, std::make_index_sequence<1>, Extras...>::value)
    return 1;
  else if constexpr (AcceptsN<F, M, std::make_index_sequence<2>, Extras...>::value)
    return 2;
  else if constexpr (AcceptsN<F, M, std::make_index_sequence<3>, Extras...>::value)
    return 3;
  else if constexpr (AcceptsN<F, M, std::make_index_sequence<4>, Extras...>::value)
    return 4;
  else
    static_assert(sizeof(F) == 0, "math functor not callable with 1 to 4 inputs of this type");
}

// F's result type for N inputs of M and the extras.
template <typename F, typename M, typename Seq, typename... Extras>
struct ResultOf;
template <typename F, typename M, size_t... I, typename... Extras>
struct ResultOf<F, M, std::index_sequence<I...>, Extras...> {
  using type = std::invoke_result_t<const F&, Repeat<I, M>..., Extras...>;
};

template <typename T>
inline constexpr bool kSimdType = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

// Whether F's vector form runs for compute type M: F::kVectorizedFor<M> where F declares it (a
// functor whose vector form is fast for some types only: DivFloor), else for every SIMD type.
template <typename F, typename M>
constexpr bool vectorized_for() {
  if constexpr (requires { F::template kVectorizedFor<M>; }) {
    return F::template kVectorizedFor<M>;
  } else {
    return true;
  }
}

// Tensor input I is read as bool (bit I of kBoolInputs: masked_fill's mask, where's condition)
// whatever S is; F receives it as 0 / 1 of M (vectors: lanes of 0 / 1), as the CUDA plugin gives
// it.
template <uint32_t kBoolInputs, size_t I, typename S>
using InputOf = std::conditional_t<((kBoolInputs >> I) & 1u) != 0, bool, S>;

// The scalar loop body: Out(S...) with F applied in M.
template <typename F, uint32_t kBoolInputs, typename S, typename M, typename Out, typename Seq,
          typename... Extras>
struct ScalarBody;
template <typename F, uint32_t kBoolInputs, typename S, typename M, typename Out, size_t... I,
          typename... Extras>
struct ScalarBody<F, kBoolInputs, S, M, Out, std::index_sequence<I...>, Extras...> {
  std::tuple<Extras...> extras;
  Out operator()(InputOf<kBoolInputs, I, S>... in) const {
    return std::apply(
        [&](const Extras&... e) { return static_cast<Out>(F{}(static_cast<M>(in)..., e...)); },
        extras);
  }
};

// The vector loop body: Vectorized<M, W>(Vectorized<M, W>...) for the width W of the ISA the
// loop runs with (cpu_kernel_vec's generic vops): 16-byte vectors on the SSE2 path, so the
// vector math (vec_math.h) picks the functions of that ISA.
// kOnes: F is a predicate (its vector form gives comparison masks) whose output has the inputs'
// dtype: the masks become 1 / 0 of M (ATen's Vectorized::lt and friends).
template <typename F, typename M, typename Seq, bool kOnes, typename... Extras>
struct VectorBody;
template <typename F, typename M, size_t... I, bool kOnes, typename... Extras>
struct VectorBody<F, M, std::index_sequence<I...>, kOnes, Extras...> {
  // 64-byte vectors on AVX-512 for functors that say their vector form makes no comparisons
  // (loops.h's isa_width), or that it is fast there for M (F::kWideVectorsFor<M>: DivFloor's
  // float and double comparisons stay AVX-512 mask compares at 64 bytes, measured).
  static constexpr bool kWideVectors = [] {
    if constexpr (requires { F::template kWideVectorsFor<M>; }) {
      return F::template kWideVectorsFor<M>;
    } else if constexpr (requires { F::kWideVectors; }) {
      return F::kWideVectors;
    } else {
      return false;
    }
  }();
  // The bool input whose clear elements leave input 0 as it is (loops.h's kept_where_clear).
  static constexpr int kKeptWhereClear = [] {
    if constexpr (requires { F::kKeptWhereClear; }) {
      return F::kKeptWhereClear;
    } else {
      return -1;
    }
  }();
  std::tuple<Extras...> extras;
  // F and all it calls must be inlined into the loop cpu_kernel_vec compiles per ISA: vectors
  // passed to an out-of-line function would cross an ABI boundary (GCC passes 32- and 64-byte
  // vectors in memory in code compiled for the baseline ISA, where the loop passes registers),
  // which crashes. So the path to F is always_inline, and flatten inlines what F calls; GCC may
  // still refuse flatten for a large F (its stack frame limits), which then marks its call
  // operator BP_MATH_ALWAYS_INLINE (reference_backend/math/traits.h).
  template <int kBytes, VecIsa kIsa, typename Vec = Vectorized<M, kBytes, kIsa>>
  [[gnu::always_inline, gnu::flatten]] Vec operator()(
      Repeat<I, Vectorized<M, kBytes, kIsa>>... in) const {
    if constexpr (kOnes) {
      const VectorBody<F, M, std::index_sequence<I...>, false, Extras...> masks{extras};
      return blendv(Vec(M(0)), Vec(M(1)), masks(in...));
    } else {
      return call(std::index_sequence_for<Extras...>(), in...);
    }
  }

 private:
  template <size_t... K, typename Vec, typename... In>
  [[gnu::always_inline]] Vec call(std::index_sequence<K...>, Vec first, In... rest) const {
    // An argument F takes by a type of its own (an int choice) stays a scalar, the same for
    // every lane, so F may branch on it; one it takes as T is broadcast into a vector.
    if constexpr (std::is_invocable_v<const F&, Vec, In..., const Extras&...>) {
      return F{}(first, rest..., std::get<K>(extras)...);
    } else {
      return F{}(first, rest..., Vec(std::get<K>(extras))...);
    }
  }
};

}  // namespace pointwise_detail

// Runs F over `iter` for element type S with already-converted extra arguments (M each); tensor
// inputs whose bit is set in kBoolInputs are read as bool.
template <typename F, uint32_t kBoolInputs, typename S, typename... Extras>
void run_pointwise(TensorIteratorBase& iter, const Extras&... extras) {
  using M = opmath_t<S>;
  constexpr size_t kInputs = pointwise_detail::tensor_arity<F, M, Extras...>();
  using Seq = std::make_index_sequence<kInputs>;
  using R = typename pointwise_detail::ResultOf<F, M, Seq, Extras...>::type;
  using Out = std::conditional_t<std::is_same_v<R, M>, S, R>;
  const pointwise_detail::ScalarBody<F, kBoolInputs, S, M, Out, Seq, Extras...> scalar{{extras...}};
  if constexpr (requires { F::kVectorized; }) {
    if constexpr (F::kVectorized && std::is_same_v<S, M> && pointwise_detail::kSimdType<S> &&
                  pointwise_detail::vectorized_for<F, M>()) {
      if constexpr (std::is_same_v<Out, S>) {
        const pointwise_detail::VectorBody<F, M, Seq, false, Extras...> vector{{extras...}};
        cpu_kernel_vec(iter, scalar, vector);
        return;
      } else if constexpr (std::is_same_v<Out, bool>) {
        // A predicate: vectorised into a bool output (the masks stored as bools) and into one
        // of the inputs' dtype (1 / 0, where PyTorch vectorises comparisons); any other output
        // dtype takes the casting loop.
        if (iter.dtype(0) == ScalarType::kBool) {
          const pointwise_detail::VectorBody<F, M, Seq, false, Extras...> vector{{extras...}};
          cpu_kernel_vec(iter, scalar, vector);
          return;
        }
        if (iter.dtype(0) == scalar_type_of<S>) {
          const pointwise_detail::ScalarBody<F, kBoolInputs, S, M, S, Seq, Extras...> ones{
              {extras...}};
          const pointwise_detail::VectorBody<F, M, Seq, true, Extras...> vector{{extras...}};
          cpu_kernel_vec(iter, ones, vector);
          return;
        }
      }
    }
  }
  cpu_kernel(iter, scalar);
}

// Errors (kNotImplemented) unless `dtype` is in the mask `dtypes`: "\"add\" not implemented for
// 'bool'".
inline void check_dtype_supported(ScalarType dtype, uint32_t dtypes, std::string_view op_name) {
  BP_CHECK_NOT_IMPLEMENTED((dtypes & scalar_type_mask(dtype)) != 0, '"', op_name,
                           "\" not implemented for '", dtype, "'");
}

// The index of a str argument's value among those its declaration lists (`math:
// Gelu(approximate=none|tanh)`): what the functor receives. The op's meta function has rejected
// other values with the op's own message, so one here is an internal error.
inline int64_t math_choice(std::string_view value, std::initializer_list<std::string_view> values) {
  int64_t index = 0;
  for (std::string_view v : values) {
    if (v == value) return index;
    ++index;
  }
  BP_INTERNAL_ASSERT(false, "a str argument '", value, "' its meta function should have refused");
  return -1;
}

// A str argument as pointwise takes it: the index of its value among kCount (math_choice).
// pointwise hands it to the functor as a constant (std::integral_constant<int, index>), one
// instantiation per value, so that a functor's branch on it folds away in the loop: gelu's
// erf form kept its tanh form's call, and the constants reloaded around it, in every iteration.
template <int kCount>
struct MathChoice {
  int64_t index;
};

namespace pointwise_detail {

template <typename T>
inline constexpr bool kIsMathChoice = false;
template <int kCount>
inline constexpr bool kIsMathChoice<MathChoice<kCount>> = true;

// body(std::integral_constant<int, choice.index>()).
template <int K = 0, int kCount, typename Body>
void visit_choice(MathChoice<kCount> choice, const Body& body) {
  if constexpr (K + 1 < kCount) {
    if (choice.index != K) return visit_choice<K + 1>(choice, body);
  }
  body(std::integral_constant<int, K>());
}

// body(args converted to what the functor takes...): Scalars to M, MathChoices to constants.
template <typename M, typename Body>
void with_math_arguments(const Body& body) {
  body();
}
template <typename M, typename Body, typename First, typename... Rest>
void with_math_arguments(const Body& body, const First& first, const Rest&... rest) {
  if constexpr (kIsMathChoice<First>) {
    visit_choice(first, [&](auto constant) {
      with_math_arguments<M>([&](const auto&... tail) { body(constant, tail...); }, rest...);
    });
  } else {
    const M value = first.template to<M>();
    with_math_arguments<M>([&](const auto&... tail) { body(value, tail...); }, rest...);
  }
}

}  // namespace pointwise_detail

// Runs F over `iter` in its common dtype (see the file comment); `scalars` are the op's Scalar
// arguments the functor takes, converted to its compute type with PyTorch's overflow check
// ("value cannot be converted to type uint8_t without overflow": clamp(uint8, min=-1)), and its
// str arguments as MathChoices.
template <typename F, uint32_t kDtypes, uint32_t kBoolInputs = 0, typename... Scalars>
void pointwise(TensorIteratorBase& iter, std::string_view op_name, const Scalars&... scalars) {
  const ScalarType dtype = *iter.common_dtype();
  check_dtype_supported(dtype, kDtypes, op_name);
  visit_dtype<kDtypes>(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using M = opmath_t<S>;
    pointwise_detail::with_math_arguments<M>(
        [&](const auto&... args) { run_pointwise<F, kBoolInputs, S>(iter, args...); }, scalars...);
  });
  iter.cast_outputs();
}

}  // namespace bp::cpu

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_POINTWISE_H_
