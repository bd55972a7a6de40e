// Scalar math of reductions: what each reduction folds, merges and reports, written once for the
// CPU backend (reference_backend/cpu/reductions_*.cc runs it through sdk/iter/reduce.h) and the
// CUDA jit. See primitives.h for what this code may use.
//
// Associative reductions that fold elements the way they merge partial results (sum, prod, max)
// are binary functors `T operator()(T a, T b)`; the CPU also runs Sum and Prod on Vectorized<T>.
// The others are ATen-style ops structs over an accumulator A:
//   A reduce(A acc, T x, int64_t index) const;  // folds element x in (index: its position along
//                                                // the reduced dim)
//   A combine(A a, A b) const;                   // merges partial results; `a` holds the earlier
//                                                // elements
//   R project(A acc) const;                      // the result
// The data type T is the type the backend computes in: on CPU float for float16 / bfloat16 data,
// double (or complex<double>) for var and logsumexp, and the out's real type for norms.
//
// Thread safety: pure functions of their arguments.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_

#include <cstdint>

#include "reference_backend/math/primitives.h"

namespace bp::math {

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

// amax: the larger value; NaN if either is NaN. Identity: the type's lowest value (-inf).
// (The CPU's vector form is Vectorized's maximum(), which propagates NaN the same way.)
struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    return (a != a || a > b) ? a : b;
  }
};

// mean's projection: the sum divided by the number of elements reduced (0 / 0 is NaN).
template <typename A>
struct DivideBy {
  real_t<A> count;
  A operator()(A sum) const { return sum / count; }
};

// ---- max.dim and argmax -------------------------------------------------------------------------

template <typename V>
struct ValueIndex {
  V value;
  int64_t index;
};

// The largest value and the index of its first occurrence; NaN beats every number and the first
// NaN wins. Initial accumulator: {lowest value, 0}.
template <typename V>
struct ArgMaxOps {
  // Whether `candidate` replaces `best`: strictly larger, or NaN where `best` is not.
  static bool beats(V candidate, V best) {
    return best == best && (candidate != candidate || candidate > best);
  }
  ValueIndex<V> reduce(ValueIndex<V> acc, V x, int64_t index) const {
    return beats(x, acc.value) ? ValueIndex<V>{x, index} : acc;
  }
  ValueIndex<V> combine(ValueIndex<V> a, ValueIndex<V> b) const {
    return beats(b.value, a.value) ? b : a;
  }
};

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
// elements. Initial accumulator: {0, 0, 0}.
template <typename T>
struct VarianceOps {
  using R = real_t<T>;
  R correction;

  WelfordData<T> reduce(WelfordData<T> acc, T x, int64_t) const {
    acc.count = acc.count + R(1);
    const T delta = x - acc.mean;
    acc.mean = acc.mean + delta / acc.count;
    const T after = x - acc.mean;
    // Re(delta * conj(after)): the product for reals, summed per part for complex values.
    acc.m2 = acc.m2 + (reduction_detail::real_part(delta) * reduction_detail::real_part(after));
    if constexpr (is_complex_v<T>) acc.m2 = acc.m2 + delta.imag() * after.imag();
    return acc;
  }
  // Chan et al.'s parallel update.
  WelfordData<T> combine(WelfordData<T> a, WelfordData<T> b) const {
    if (a.count == R(0)) return b;
    if (b.count == R(0)) return a;
    const R count = a.count + b.count;
    const R b_share = b.count / count;
    const T delta = b.mean - a.mean;
    return {a.mean + delta * b_share,
            a.m2 + b.m2 + reduction_detail::squared_magnitude(delta) * a.count * b_share, count};
  }
  R project(WelfordData<T> acc) const {
    if (acc.count == R(0)) return quiet_nan<R>();
    const R divisor = acc.count > correction ? acc.count - correction : R(0);
    return acc.m2 / divisor;
  }
};

// ---- norm -----------------------------------------------------------------------------------
// Vector p-norms of T values (real or complex) accumulated in the real type A. Initial
// accumulator 0, except NormNegInfOps (inf).

// p = 0: the number of non-zero elements (NaN counts).
template <typename T, typename A>
struct NormZeroOps {
  A reduce(A acc, T x, int64_t) const { return acc + (x == T(0) ? A(0) : A(1)); }
  A combine(A a, A b) const { return a + b; }
  A project(A acc) const { return acc; }
};

// p = 1: the sum of |x|.
template <typename T, typename A>
struct NormOneOps {
  A reduce(A acc, T x, int64_t) const { return acc + A(reduction_detail::magnitude(x)); }
  A combine(A a, A b) const { return a + b; }
  A project(A acc) const { return acc; }
};

// p = 2: the square root of the sum of |x|^2.
template <typename T, typename A>
struct NormTwoOps {
  A reduce(A acc, T x, int64_t) const { return acc + A(reduction_detail::squared_magnitude(x)); }
  A combine(A a, A b) const { return a + b; }
  A project(A acc) const { return sqrt(acc); }
};

// p = inf: the largest |x| (NaN propagates). Also |x| itself for one element.
template <typename T, typename A>
struct NormInfOps {
  A reduce(A acc, T x, int64_t) const { return Max{}(acc, A(reduction_detail::magnitude(x))); }
  A combine(A a, A b) const { return Max{}(a, b); }
  A project(A acc) const { return acc; }
};

// p = -inf: the smallest |x| (NaN propagates).
template <typename T, typename A>
struct NormNegInfOps {
  static A min(A a, A b) { return (a != a || a < b) ? a : b; }
  A reduce(A acc, T x, int64_t) const { return min(acc, A(reduction_detail::magnitude(x))); }
  A combine(A a, A b) const { return min(a, b); }
  A project(A acc) const { return acc; }
};

// Any other p: (sum of |x|^p)^(1/p).
template <typename T, typename A>
struct NormPOps {
  A p;
  A reduce(A acc, T x, int64_t) const { return acc + pow(A(reduction_detail::magnitude(x)), p); }
  A combine(A a, A b) const { return a + b; }
  A project(A acc) const { return pow(acc, A(1) / p); }
};

// ---- all / any ------------------------------------------------------------------------------
// Over values already converted to bool (non-zero: true; NaN is non-zero).

struct AllOps {
  bool reduce(bool acc, bool x, int64_t) const { return acc && x; }
  bool combine(bool a, bool b) const { return a && b; }
  bool project(bool acc) const { return acc; }
};

struct AnyOps {
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

// log(sum(exp(x))) without overflow, in one pass: the sum is kept relative to the running maximum
// of the real parts and rescaled when it grows. As PyTorch's (max-shifted) logsumexp: NaN if any
// element is NaN, else inf if any is inf, -inf for no elements or only -inf. Initial accumulator:
// {-inf, 0}.
template <typename T>
struct LogSumExpOps {
  using R = real_t<T>;
  using Data = LogSumExpData<T>;

  Data reduce(Data acc, T x, int64_t) const {
    const R r = reduction_detail::real_part(x);
    if (acc.max != acc.max) return acc;
    if (r != r || r == infinity<R>()) return {r, T(1)};
    if (acc.max == infinity<R>() || r == -infinity<R>()) return acc;
    if (r <= acc.max) return {acc.max, acc.sum + exp(x - T(acc.max))};
    return {r, acc.sum * exp(acc.max - r) + exp(x - T(r))};
  }
  Data combine(Data a, Data b) const {
    if (a.max != a.max) return a;
    if (b.max != b.max) return b;
    if (a.max == infinity<R>() || b.max == -infinity<R>()) return a;
    if (b.max == infinity<R>() || a.max == -infinity<R>()) return b;
    const R max = a.max > b.max ? a.max : b.max;
    return {max, a.sum * exp(a.max - max) + b.sum * exp(b.max - max)};
  }
  T project(Data acc) const { return log(acc.sum) + T(acc.max); }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_REDUCTION_H_
