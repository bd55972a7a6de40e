// The traits the scalar math (reference_backend/math/*.h) uses to tell element types apart, as
// portable source (sdk/core/portable/base.h): one definition for the host, where primitives.h
// adds Vectorized<T> to element_of, and for the CUDA plugin's jitted kernels.
//
//   if constexpr (is_complex_v<T>) { ... } else if constexpr (is_integral_v<T>) { ... }
//   real_t<complex<float>> r;      // float
//   infinity<double>();            // +inf
//
// They describe the element type: for a vector type, that of its lanes (so a functor's
// `if constexpr (is_integral_v<T>)` branch is taken for integer vectors too).
//
// Thread safety: declarations only.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_TRAITS_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_TRAITS_H_

#include "sdk/core/portable/base.h"
#include "sdk/core/portable/bfloat16.h"
#include "sdk/core/portable/complex.h"
#include "sdk/core/portable/half.h"

// On the call operator of a functor whose vector form is large: inlined into the ISA-specific
// loop that calls it (pointwise.h's VectorBody) even where GCC's limits refuse the loop's flatten
// (a large stack frame). Out of line, the operator would be compiled for the baseline ISA and
// take and return its vectors in memory, where the loop passes registers. Device functions are
// inlined anyway.
#if defined(BP_PORTABLE_HOST)
#define BP_MATH_ALWAYS_INLINE [[gnu::always_inline]]
#else
#define BP_MATH_ALWAYS_INLINE
#endif

namespace bp::math {

// The element type of a value: T itself, or the lane type of a vector (specialised by the host's
// primitives.h for Vectorized<T>).
template <typename T>
struct element_of {
  using type = T;
};
template <typename T>
using element_t = typename element_of<T>::type;

template <typename T>
inline constexpr bool is_complex_v = false;
template <typename T>
inline constexpr bool is_complex_v<complex<T>> = true;
template <typename T>
inline constexpr bool is_bool_v = portable::is_same_v<T, bool>;
// Integers, not bool.
template <typename T>
inline constexpr bool is_integral_v = portable::is_integer_v<element_t<T>>;
template <typename T>
inline constexpr bool is_floating_v = portable::is_float_or_double_v<element_t<T>>;
// Floating types and signed integers (std::is_signed_v).
template <typename T>
inline constexpr bool is_signed_v = is_floating_v<T> ||
                                    (is_integral_v<T> && element_t<T>(-1) < element_t<T>(0));

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

// std::numeric_limits<T>::infinity() / quiet_NaN() for the floating types; zero for others.
template <typename T>
constexpr T infinity() {
  if constexpr (portable::is_same_v<T, float>) {
    return portable::bit_cast<float>(0x7F800000u);
  } else if constexpr (portable::is_same_v<T, double>) {
    return portable::bit_cast<double>(0x7FF0000000000000ull);
  } else if constexpr (portable::is_same_v<T, Half>) {
    return Half::from_bits(0x7C00);
  } else if constexpr (portable::is_same_v<T, BFloat16>) {
    return BFloat16::from_bits(0x7F80);
  } else {
    return T(0);
  }
}
template <typename T>
constexpr T quiet_nan() {
  if constexpr (portable::is_same_v<T, float>) {
    return portable::bit_cast<float>(0x7FC00000u);
  } else if constexpr (portable::is_same_v<T, double>) {
    return portable::bit_cast<double>(0x7FF8000000000000ull);
  } else if constexpr (portable::is_same_v<T, Half>) {
    return Half::from_bits(0x7E00);
  } else if constexpr (portable::is_same_v<T, BFloat16>) {
    return BFloat16::from_bits(0x7FC0);
  } else {
    return T(0);
  }
}

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_TRAITS_H_
