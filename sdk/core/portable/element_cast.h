// Conversions between element types with PyTorch's semantics, as portable source: the unchecked
// cast its kernels use (c10::convert / static_cast_with_inter_type), shared by the CPU backend
// (sdk/core/element_cast.h adds the overflow checks of Scalar conversions) and the jitted kernels.
//
//   uint8_t a = element_cast<uint8_t>(int64_t{-1});            // 255 (wraps, as in PyTorch)
//   float b = element_cast<float>(complex<double>(1.5, 2.0));   // 1.5 (real part)
//
// Element types: bool, the integer types, Half, BFloat16, float, double, complex<float / double>.
// Unlike a plain static_cast, element_cast is defined for every input: floating values go to
// integers through int64 (as c10 does for uint8), and NaN or values outside int64 give INT64_MIN
// before narrowing (what x86's conversion instruction gives, so results match PyTorch's CPU
// kernels on x86, and the device matches the CPU).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_ELEMENT_CAST_H_
#define BACKPLANE_SDK_CORE_PORTABLE_ELEMENT_CAST_H_

#include "sdk/core/portable/base.h"
#include "sdk/core/portable/bfloat16.h"
#include "sdk/core/portable/complex.h"
#include "sdk/core/portable/half.h"

namespace bp {

namespace detail {

template <typename T>
inline constexpr bool is_complex_element = false;
template <typename T>
inline constexpr bool is_complex_element<complex<T>> = true;

// Floating value -> int64 with defined results everywhere (x86's "integer indefinite" for NaN and
// out-of-range values).
constexpr int64_t floating_to_int64(double value) {
  // [-2^63, 2^63) is exactly the range that converts without overflow.
  if (!(value >= -0x1p63 && value < 0x1p63)) return static_cast<int64_t>(0x8000000000000000ull);
  return static_cast<int64_t>(value);
}

// A real From (not complex) to a real To (not complex, not bool).
template <typename To, typename From>
constexpr To real_cast(From value) {
  if constexpr (portable::is_same_v<To, From>) {
    return value;
  } else if constexpr (portable::is_integer_v<To> &&
                       !(portable::is_integer_v<From> || portable::is_same_v<From, bool>)) {
    return static_cast<To>(floating_to_int64(static_cast<double>(value)));
  } else if constexpr (is_reduced_float<To> || is_reduced_float<From>) {
    // Through float, as c10::Half / c10::BFloat16 only convert to and from float.
    return static_cast<To>(static_cast<float>(value));
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace detail

// `value` converted to element type To the way PyTorch's kernels convert (no checks):
// - to bool: true when non-zero (a complex value when either part is non-zero);
// - complex to a real type: the real part;
// - a real value to complex: (value, 0);
// - integers wrap modulo 2^bits (int64 -1 -> uint8 255);
// - floating to integral: truncation toward zero through int64 (see the file comment);
// - double to Half / BFloat16 rounds through float, as c10 does.
template <typename To, typename From>
BP_INLINE constexpr To element_cast(From value) {
  if constexpr (portable::is_same_v<To, From>) {
    return value;
  } else if constexpr (portable::is_same_v<To, bool>) {
    if constexpr (detail::is_complex_element<From>) {
      return value.real() != 0 || value.imag() != 0;
    } else {
      return static_cast<double>(value) != 0;
    }
  } else if constexpr (detail::is_complex_element<To>) {
    using V = typename To::value_type;
    if constexpr (detail::is_complex_element<From>) {
      return To(detail::real_cast<V>(value.real()), detail::real_cast<V>(value.imag()));
    } else {
      return To(detail::real_cast<V>(value), V(0));
    }
  } else if constexpr (detail::is_complex_element<From>) {
    return detail::real_cast<To>(value.real());
  } else {
    return detail::real_cast<To>(value);
  }
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PORTABLE_ELEMENT_CAST_H_
