// Scalar math of reductions: what each reduction folds, merges and reports, written once for the
// CPU backend (reference_backend/cpu/reductions_*.cc runs it through sdk/iter/reduce.h) and the
// CUDA jit (reference_backend/cuda/jit/reduce.cuh runs every reduction declared with `reduce:` in
// sdk/ops/reductions.yaml through one kernel template). See primitives.h for what this code may
// use.
//
// Each reduction is an ops struct `XOps<T>`, T being the dtype the elements are reduced in (the
// input's, or the result's: `reduce_in` of the declaration), constructed from the op arguments
// its declaration names (`reduce: VarianceOps(correction=1)`: VarianceOps<T>{correction}):
//
//   using value_t = ...;                          // what each element is converted to first
//   using acc_t = ...;                            // the accumulator
//   using arg_t = ...;                            // (with arguments) the type they are given in
//   acc_t identity() const;                       // the initial accumulator: the result over
//                                                 // no elements, and neutral for combine
//   acc_t reduce(acc_t acc, value_t x, int64_t index) const;  // folds element x in (index: its
//                                                 // position along the reduced elements)
//   acc_t combine(acc_t a, acc_t b) const;        // merges partial results in any order and
//                                                 // grouping (the device's lanes interleave)
//   R project(acc_t acc) const;                   // the result: a value, or a ValueIndex for
//                                                 // reductions that also report a position
//
// The accumulators are PyTorch's for the CPU (acc_type_t: int64 for integers, float for float16
// / bfloat16, double for float32), so a backend running these structs gets the CPU's rounding.
// The CPU backend picks some types itself (var and logsumexp always in double, norms in the
// result's compute type) by instantiating the structs with those types.
//
// Associative reductions that fold elements the way they merge partial results also have plain
// binary functors `T operator()(T a, T b)` (Sum, Prod, Max), which the CPU runs on Vectorized<T>.
//
// Thread safety: pure functions of their arguments.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_

#include <cstdint>

#include "reference_backend/math/primitives.h"
#include "sdk/core/portable/element_cast.h"

namespace bp::math {

// ---- Types ----------------------------------------------------------------------------------

// The type arithmetic on T runs in: float for float16 / bfloat16 (which hold their values
// exactly in float), T otherwise (PyTorch's opmath_type).
template <typename T>
struct compute_type_of {
  using type = T;
};
template <>
struct compute_type_of<Half> {
  using type = float;
};
template <>
struct compute_type_of<BFloat16> {
  using type = float;
};
template <typename T>
using compute_type_t = typename compute_type_of<T>::type;

// The type sums of T accumulate in on the CPU (PyTorch's acc_type<T, /*is_cuda=*/false>): int64
// for integers and bool, float for float16 / bfloat16, double for float32 and float64, and
// complex<double> for both complex types.
template <typename T>
struct acc_type_of {
  using type = int64_t;
};
template <>
struct acc_type_of<Half> {
  using type = float;
};
template <>
struct acc_type_of<BFloat16> {
  using type = float;
};
template <>
struct acc_type_of<float> {
  using type = double;
};
template <>
struct acc_type_of<double> {
  using type = double;
};
template <typename T>
struct acc_type_of<complex<T>> {
  using type = complex<double>;
};
template <typename T>
using acc_type_t = typename acc_type_of<T>::type;

// The smallest value of T: -inf for float and double, false for bool; the identity of max.
template <typename T>
constexpr T lowest_value() {
  if constexpr (is_floating_v<T>) {
    return -infinity<T>();
  } else if constexpr (is_bool_v<T>) {
    return false;
  } else if constexpr (is_signed_v<T>) {
    // The sign bit alone, shifted unsigned (a signed shift into the sign bit draws warnings).
    return static_cast<T>(static_cast<uint64_t>(1) << (sizeof(T) * 8 - 1));
  } else {
    return T(0);
  }
}

// The largest value of T: inf for float and double, true for bool; the identity of min.
template <typename T>
constexpr T highest_value() {
  if constexpr (is_floating_v<T>) {
    return infinity<T>();
  } else if constexpr (is_bool_v<T>) {
    return true;
  } else if constexpr (is_signed_v<T>) {
    return static_cast<T>(~lowest_value<T>());
  } else {
    return static_cast<T>(~T(0));
  }
}

namespace reduction_detail {

template <typename T>
real_t<T> real_part(T x) {
  if constexpr (is_complex_v<T>) {
    return x.real();
  } else {
    return x;
  }
}

// |x|^2.
template <typename T>
real_t<T> squared_magnitude(T x) {
  if constexpr (is_complex_v<T>) {
    return x.real() * x.real() + x.imag() * x.imag();
  } else {
    return x * x;
  }
}

// |x|, for complex values without overflow or underflow in the squares (as hypot): inf when
// either part is infinite, else NaN when either is NaN.
template <typename T>
real_t<T> magnitude(T x) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    R big = magnitude(x.real()), small = magnitude(x.imag());
    if (big == infinity<R>() || small == infinity<R>()) return infinity<R>();
    if (big != big || small != small) return quiet_nan<R>();
    if (big < small) {
      const R t = big;
      big = small;
      small = t;
    }
    if (big == R(0)) return R(0);
    const R ratio = small / big;
    return big * sqrt(R(1) + ratio * ratio);
  } else {
    return x < T(0) ? -x : x;  // -0 stays -0, which compares equal to 0
  }
}

}  // namespace reduction_detail

// ---- Associative folds ----------------------------------------------------------------------

// sum and mean: a + b (bool: logical or). Identity 0.
struct Sum {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) {
      return a || b;
    } else {
      return a + b;
    }
  }
};

// prod: a * b (bool: logical and). Identity 1.
struct Prod {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) {
      return a && b;
    } else {
      return a * b;
    }
  }
};

// amax: the larger value; NaN if either is NaN. Of equal values (0.0 and -0.0) the earlier, a,
// as PyTorch's scalar loop (std::max(acc, x)) keeps its accumulator: amax([0.0, -0.0]) is 0.0
// and amax([-0.0, 0.0]) is -0.0. Identity: the type's lowest value (-inf). (The CPU's vector form
// is cpu::VectorMax, Vectorized's maximum(), which propagates NaN the same way, with the later of
// equal values kept, as ATen's vector loop.)
struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    return (b != b || a < b) ? b : a;
  }
};

// amin: the smaller value; NaN if either is NaN; of equal values the earlier, a, as Max.
// Identity: the type's highest value (inf). (The CPU's vector form is cpu::VectorMin.)
struct Min {
  template <typename T>
  T operator()(T a, T b) const {
    return (b != b || b < a) ? b : a;
  }
};

// mean's projection: the sum divided by the number of elements reduced (0 / 0 is NaN).
template <typename A>
struct DivideBy {
  real_t<A> count;
  A operator()(A sum) const { return sum / count; }
};

// sum: in the CPU's accumulator (int64 for integers).
template <typename T>
struct SumOps {
  using value_t = acc_type_t<T>;
  using acc_t = value_t;
  acc_t identity() const { return acc_t(0); }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return Sum{}(acc, x); }
  acc_t combine(acc_t a, acc_t b) const { return Sum{}(a, b); }
  acc_t project(acc_t acc) const { return acc; }
};

template <typename A>
struct MeanData {
  A sum;
  int64_t count;
};

// mean: the sum, rounded to T (as PyTorch's CPU computes sum(...).div_(n)), divided by the number
// of elements in T's compute type (0 / 0 is NaN). The accumulator counts the elements, so no
// backend has to pass the count in.
template <typename T>
struct MeanOps {
  using value_t = acc_type_t<T>;
  using acc_t = MeanData<value_t>;
  using M = compute_type_t<T>;
  acc_t identity() const { return {value_t(0), 0}; }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return {acc.sum + x, acc.count + 1}; }
  acc_t combine(acc_t a, acc_t b) const { return {a.sum + b.sum, a.count + b.count}; }
  M project(acc_t acc) const {
    return DivideBy<M>{static_cast<real_t<M>>(acc.count)}(
        element_cast<M>(element_cast<T>(acc.sum)));
  }
};

// prod: in the CPU's accumulator (int64 for integers, wrapping).
template <typename T>
struct ProdOps {
  using value_t = acc_type_t<T>;
  using acc_t = value_t;
  acc_t identity() const { return acc_t(1); }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return Prod{}(acc, x); }
  acc_t combine(acc_t a, acc_t b) const { return Prod{}(a, b); }
  acc_t project(acc_t acc) const { return acc; }
};

// amax: in T's compute type; NaN wins.
template <typename T>
struct MaxOps {
  using value_t = compute_type_t<T>;
  using acc_t = value_t;
  acc_t identity() const { return lowest_value<acc_t>(); }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return Max{}(acc, x); }
  acc_t combine(acc_t a, acc_t b) const { return Max{}(a, b); }
  acc_t project(acc_t acc) const { return acc; }
};

// amin: in T's compute type; NaN wins.
template <typename T>
struct MinOps {
  using value_t = compute_type_t<T>;
  using acc_t = value_t;
  acc_t identity() const { return highest_value<acc_t>(); }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return Min{}(acc, x); }
  acc_t combine(acc_t a, acc_t b) const { return Min{}(a, b); }
  acc_t project(acc_t acc) const { return acc; }
};

// nansum: sum with NaN elements left out (integers have none), in the CPU's accumulator.
template <typename T>
struct NanSumOps {
  using value_t = acc_type_t<T>;
  using acc_t = value_t;
  acc_t identity() const { return acc_t(0); }
  acc_t reduce(acc_t acc, value_t x, int64_t) const { return x != x ? acc : Sum{}(acc, x); }
  acc_t combine(acc_t a, acc_t b) const { return Sum{}(a, b); }
  acc_t project(acc_t acc) const { return acc; }
};

// nanmean: as mean over the elements that are not NaN (PyTorch's nansum(...) / count of
// non-NaN elements: the sum rounded to T first); 0 / 0 is NaN when every element is NaN.
template <typename T>
struct NanMeanOps {
  using value_t = acc_type_t<T>;
  using acc_t = MeanData<value_t>;
  using M = compute_type_t<T>;
  acc_t identity() const { return {value_t(0), 0}; }
  acc_t reduce(acc_t acc, value_t x, int64_t) const {
    return x != x ? acc : acc_t{acc.sum + x, acc.count + 1};
  }
  acc_t combine(acc_t a, acc_t b) const { return {a.sum + b.sum, a.count + b.count}; }
  M project(acc_t acc) const {
    return DivideBy<M>{static_cast<real_t<M>>(acc.count)}(
        element_cast<M>(element_cast<T>(acc.sum)));
  }
};

// count_nonzero: the number of elements that convert to true (NaN and either non-zero part of a
// complex number count), as int64.
template <typename T>
struct CountNonzeroOps {
  using value_t = bool;
  using acc_t = int64_t;
  acc_t identity() const { return 0; }
  acc_t reduce(acc_t acc, bool x, int64_t) const { return acc + (x ? 1 : 0); }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  acc_t project(acc_t acc) const { return acc; }
};

// ---- max.dim and argmax -------------------------------------------------------------------------

template <typename V>
struct ValueIndex {
  V value;
  int64_t index;
};

template <typename R>
inline constexpr bool is_value_index_v = false;
template <typename V>
inline constexpr bool is_value_index_v<ValueIndex<V>> = true;

// The largest value (in T's compute type) and the index of its first occurrence; NaN beats every
// number and the first NaN wins. Ties are decided by index, not by the order of combine's
// arguments, so partial results may be combined in any order.
// (kMax false: the smallest value, for min.dim and argmin.)
template <typename T, bool kMax>
struct ArgExtremeOps {
  using value_t = compute_type_t<T>;
  using acc_t = ValueIndex<value_t>;
  // Loses to every element: the lowest (highest) value at the largest index.
  acc_t identity() const {
    return {kMax ? lowest_value<value_t>() : highest_value<value_t>(),
            static_cast<int64_t>(0x7FFFFFFFFFFFFFFFll)};
  }
  acc_t reduce(acc_t acc, value_t x, int64_t index) const { return combine(acc, acc_t{x, index}); }
  acc_t combine(acc_t a, acc_t b) const {
    const bool a_nan = a.value != a.value, b_nan = b.value != b.value;
    if (a_nan || b_nan) {
      if (a_nan && b_nan) return b.index < a.index ? b : a;
      return a_nan ? a : b;
    }
    if (a.value == b.value) return b.index < a.index ? b : a;
    return (kMax ? a.value > b.value : a.value < b.value) ? a : b;
  }
  acc_t project(acc_t acc) const { return acc; }
};

template <typename T>
using ArgMaxOps = ArgExtremeOps<T, true>;
template <typename T>
using ArgMinOps = ArgExtremeOps<T, false>;

// ---- var ------------------------------------------------------------------------------------

// Welford's running mean and sum of squared deviations (m2) over `count` elements; T is double
// or complex<double> (a complex variance is that of the real parts plus that of the imaginary
// parts, which this computes in one pass).
template <typename T>
struct WelfordData {
  T mean;
  real_t<T> m2;
  real_t<T> count;
};

// var with Bessel's correction generalised: m2 / max(count - correction, 0); NaN for no
// elements. In the CPU's accumulator of T (double for float32, complex<double> for complex64).
template <typename T>
struct VarianceOps {
  using value_t = acc_type_t<T>;
  using R = real_t<value_t>;
  using acc_t = WelfordData<value_t>;
  using arg_t = R;
  R correction;

  acc_t identity() const { return {value_t(0), R(0), R(0)}; }
  acc_t reduce(acc_t acc, value_t x, int64_t) const {
    acc.count = acc.count + R(1);
    const value_t delta = x - acc.mean;
    acc.mean = acc.mean + delta / acc.count;
    const value_t after = x - acc.mean;
    // Re(delta * conj(after)): the product for reals, summed per part for complex values.
    acc.m2 = acc.m2 + (reduction_detail::real_part(delta) * reduction_detail::real_part(after));
    if constexpr (is_complex_v<value_t>) acc.m2 = acc.m2 + delta.imag() * after.imag();
    return acc;
  }
  // Chan et al.'s parallel update.
  acc_t combine(acc_t a, acc_t b) const {
    if (a.count == R(0)) return b;
    if (b.count == R(0)) return a;
    const R count = a.count + b.count;
    const R b_share = b.count / count;
    const value_t delta = b.mean - a.mean;
    return {a.mean + delta * b_share,
            a.m2 + b.m2 + reduction_detail::squared_magnitude(delta) * a.count * b_share, count};
  }
  R project(acc_t acc) const {
    if (acc.count == R(0)) return quiet_nan<R>();
    const R divisor = acc.count > correction ? acc.count - correction : R(0);
    return acc.m2 / divisor;
  }
};

// std: the square root of var (VarianceOps' correction and accumulator).
template <typename T>
struct StdOps {
  using Variance = VarianceOps<T>;
  using value_t = typename Variance::value_t;
  using R = typename Variance::R;
  using acc_t = typename Variance::acc_t;
  using arg_t = R;
  R correction;

  acc_t identity() const { return Variance{correction}.identity(); }
  acc_t reduce(acc_t acc, value_t x, int64_t index) const {
    return Variance{correction}.reduce(acc, x, index);
  }
  acc_t combine(acc_t a, acc_t b) const { return Variance{correction}.combine(a, b); }
  R project(acc_t acc) const { return sqrt(Variance{correction}.project(acc)); }
};

// ---- norm -----------------------------------------------------------------------------------

// The vector p-norm of T values (real or complex) accumulated in the real type A (by default the
// CPU's accumulator of T's real type): p = 0 counts the non-zero elements (NaN counts), 1 sums
// |x|, 2 is the square root of the sum of |x|^2, inf / -inf the largest / smallest |x| (NaN
// propagates), any other p (sum of |x|^p)^(1/p). The choice is made on p at run time, so one
// kernel serves every p.
template <typename T, typename A = acc_type_t<real_t<T>>>
struct NormOps {
  using value_t = compute_type_t<T>;
  using acc_t = A;
  using arg_t = A;
  // value_t widened to A: |x|^2 is squared there.
  using Wide = portable::conditional_t<is_complex_v<value_t>, complex<A>, A>;
  A p;

  static A min(A a, A b) { return (a != a || a < b) ? a : b; }
  A identity() const { return p == -infinity<A>() ? infinity<A>() : A(0); }
  A reduce(A acc, value_t x, int64_t) const {
    if (p == A(0)) return acc + (x == value_t(0) ? A(0) : A(1));
    if (p == A(2)) return acc + reduction_detail::squared_magnitude(element_cast<Wide>(x));
    const A m = A(reduction_detail::magnitude(x));
    if (p == A(1)) return acc + m;
    if (p == infinity<A>()) return Max{}(acc, m);
    if (p == -infinity<A>()) return min(acc, m);
    return acc + pow(m, p);
  }
  A combine(A a, A b) const {
    if (p == infinity<A>()) return Max{}(a, b);
    if (p == -infinity<A>()) return min(a, b);
    return a + b;
  }
  A project(A acc) const {
    if (p == A(2)) return sqrt(acc);
    if (p == A(0) || p == A(1) || p == infinity<A>() || p == -infinity<A>()) return acc;
    return pow(acc, A(1) / p);
  }
};

// ---- all / any ------------------------------------------------------------------------------
// Over the elements converted to bool (non-zero: true; NaN is non-zero), whatever T is.

template <typename T>
struct AllOps {
  using value_t = bool;
  using acc_t = bool;
  bool identity() const { return true; }
  bool reduce(bool acc, bool x, int64_t) const { return acc && x; }
  bool combine(bool a, bool b) const { return a && b; }
  bool project(bool acc) const { return acc; }
};

template <typename T>
struct AnyOps {
  using value_t = bool;
  using acc_t = bool;
  bool identity() const { return false; }
  bool reduce(bool acc, bool x, int64_t) const { return acc || x; }
  bool combine(bool a, bool b) const { return a || b; }
  bool project(bool acc) const { return acc; }
};

// ---- logsumexp ------------------------------------------------------------------------------

// The largest real part seen (`max`) and the sum of exp(x - max) over the elements.
template <typename T>
struct LogSumExpData {
  real_t<T> max;
  T sum;
};

// log(sum(exp(x))) without overflow, in one pass, in the CPU's accumulator of T: the sum is kept
// relative to the running maximum of the real parts and rescaled when it grows. As PyTorch's
// (max-shifted) logsumexp: NaN if any element is NaN, else inf if any is inf, -inf for no
// elements or only -inf.
template <typename T>
struct LogSumExpOps {
  using value_t = acc_type_t<T>;
  using R = real_t<value_t>;
  using acc_t = LogSumExpData<value_t>;
  using Data = acc_t;

  Data identity() const { return {-infinity<R>(), value_t(0)}; }
  Data reduce(Data acc, value_t x, int64_t) const {
    const R r = reduction_detail::real_part(x);
    if (acc.max != acc.max) return acc;
    if (r != r || r == infinity<R>()) return {r, value_t(1)};
    if (acc.max == infinity<R>() || r == -infinity<R>()) return acc;
    if (r <= acc.max) return {acc.max, acc.sum + exp(x - value_t(acc.max))};
    return {r, acc.sum * exp(acc.max - r) + exp(x - value_t(r))};
  }
  Data combine(Data a, Data b) const {
    if (a.max != a.max) return a;
    if (b.max != b.max) return b;
    if (a.max == infinity<R>() || b.max == -infinity<R>()) return a;
    if (b.max == infinity<R>() || a.max == -infinity<R>()) return b;
    const R max = a.max > b.max ? a.max : b.max;
    return {max, a.sum * exp(a.max - max) + b.sum * exp(b.max - max)};
  }
  value_t project(Data acc) const { return log(acc.sum) + value_t(acc.max); }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_
