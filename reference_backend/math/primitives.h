// The functions and traits the scalar math (reference_backend/math/*.h) may use, for host C++.
//
// Math functors are written once and compiled twice: here, as host C++ for the CPU backend
// (scalar loops, and Vectorized<T> loops for functors marked kVectorized), and as NVRTC source
// for the CUDA plugin, where the jit prelude (reference_backend/cuda) defines the same names
// for the device. So the math headers use only:
//   - C++ operators, `if constexpr`, and plain structs / templates;
//   - the functions below (bp::math::exp, ...), which have overloads for float, double,
//     bp::complex<float/double> and, where a vector version exists, Vectorized<float/double>;
//   - the traits below (is_complex_v, is_integral_v, ...).
// No std:: calls, no exceptions, no globals: each functor is a pure function of its arguments.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_PRIMITIVES_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_PRIMITIVES_H_

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "sdk/core/complex.h"
#include "sdk/iter/vec/vectorized.h"

namespace bp::math {

// ---- Traits ---------------------------------------------------------------------------------

template <typename T>
inline constexpr bool is_complex_v = false;
template <typename T>
inline constexpr bool is_complex_v<complex<T>> = true;
// Integers, not bool.
template <typename T>
inline constexpr bool is_integral_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <typename T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <typename T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T>;
template <typename T>
inline constexpr bool is_signed_v = std::is_signed_v<T>;

// The real type of a (possibly complex) type: float for complex<float>.
template <typename T>
struct real_of {
  using type = T;
};
template <typename T>
struct real_of<complex<T>> {
  using type = T;
};
template <typename T>
using real_t = typename real_of<T>::type;

template <typename T>
constexpr T infinity() {
  return std::numeric_limits<T>::infinity();
}
template <typename T>
constexpr T quiet_nan() {
  return std::numeric_limits<T>::quiet_NaN();
}

// ---- Functions ------------------------------------------------------------------------------
// Each takes a real, a bp::complex or a Vectorized value and returns the same type.

namespace detail {
template <typename T>
inline constexpr bool is_vectorized_v = false;
template <typename T>
inline constexpr bool is_vectorized_v<Vectorized<T>> = true;

// Applies `fn`, a generic lambda over real and std::complex values, to `x`: reals directly,
// bp::complex through std::complex, vectors lane by lane (functions with a SIMD version check
// for vectors before calling this).
template <typename T, typename Fn>
[[gnu::always_inline]] inline T apply(T x, Fn fn) {
  if constexpr (is_vectorized_v<T>) {
    using E = typename T::value_type;
    E lanes[T::size()];
    x.store(lanes);
    for (int i = 0; i < T::size(); ++i) lanes[i] = static_cast<E>(fn(lanes[i]));
    return T::loadu(lanes);
  } else if constexpr (is_complex_v<T>) {
    const auto z = fn(std::complex<real_t<T>>(x.real(), x.imag()));
    return T(z.real(), z.imag());
  } else {
    return static_cast<T>(fn(x));
  }
}
}  // namespace detail

template <typename T>
[[gnu::always_inline]] inline T exp(T x) {
  if constexpr (detail::is_vectorized_v<T>) {
    return x.exp();
  } else {
    return detail::apply(x, [](auto v) { return std::exp(v); });
  }
}
template <typename T>
[[gnu::always_inline]] inline T log(T x) {
  return detail::apply(x, [](auto v) { return std::log(v); });
}
template <typename T>
[[gnu::always_inline]] inline T sqrt(T x) {
  return detail::apply(x, [](auto v) { return std::sqrt(v); });
}
template <typename T>
[[gnu::always_inline]] inline T sin(T x) {
  return detail::apply(x, [](auto v) { return std::sin(v); });
}
template <typename T>
[[gnu::always_inline]] inline T tanh(T x) {
  return detail::apply(x, [](auto v) { return std::tanh(v); });
}
// x raised to the power y (reals; the p-norms use it).
template <typename T>
[[gnu::always_inline]] inline T pow(T x, T y) {
  static_assert(!is_complex_v<T> && !detail::is_vectorized_v<T>, "pow: real scalars only");
  return static_cast<T>(std::pow(x, y));
}

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_PRIMITIVES_H_
