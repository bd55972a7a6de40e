// Conversions between element types with PyTorch's semantics: the unchecked cast its kernels use
// (c10::convert / static_cast_with_inter_type; portable source shared with the jitted kernels,
// sdk/core/portable/element_cast.h) and the overflow test of its checked conversions
// (c10::overflows / checked_convert).
//
//   uint8_t a = element_cast<uint8_t>(int64_t{-1});            // 255 (wraps, as in PyTorch)
//   float b = element_cast<float>(complex<double>(1.5, 2.0));   // 1.5 (real part)
//   bool c = element_overflows<uint8_t>(int64_t{300});          // true
//   bool d = element_overflows<Half>(1e6);                      // true
//   bool e = element_overflows<Half>(INFINITY);                 // false: inf is representable
//
// Element types: the 12 C++ types of scalar_type.h. element_cast is defined for every input (see
// sdk/core/portable/element_cast.h).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_CORE_ELEMENT_CAST_H_
#define BACKPLANE_SDK_CORE_ELEMENT_CAST_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sdk/core/portable/element_cast.h"  // IWYU pragma: export
#include "sdk/core/scalar_type.h"

namespace bp {

namespace detail {

// The type of one component: T for real types, T::value_type for complex ones.
template <typename T>
struct ComponentType {
  using type = T;
};
template <typename T>
struct ComponentType<complex<T>> {
  using type = T;
};
template <typename T>
using component_t = typename ComponentType<T>::type;

}  // namespace detail

// True when converting `value` to To loses its value in a way PyTorch's checked conversions
// reject (c10::checked_convert), i.e. when Scalar::to<To>() throws "value cannot be converted to
// type X without overflow":
// - conversion to bool never overflows; conversion from bool never does;
// - an integer to an unsigned type: above the maximum, or below minus the maximum (negative
//   values are allowed to wrap: -1 -> uint8 is fine, -256 is not);
// - an integer to any other type: outside [lowest, max] of the target (so 70000 -> Half
//   overflows);
// - a floating value: +-inf never overflows a type with infinity; NaN overflows the integer
//   types; otherwise outside [lowest, max] (for integer targets [lowest, 2^digits), so that
//   2^63 -> int64 overflows);
// - complex to a real type: a non-zero imaginary part overflows; otherwise componentwise.
template <typename To, typename From>
bool element_overflows(From value) {
  using V = detail::component_t<To>;
  using Limits = std::numeric_limits<V>;
  if constexpr (std::is_same_v<To, bool> || std::is_same_v<From, bool>) {
    return false;
  } else if constexpr (detail::is_complex_element<From>) {
    if (!detail::is_complex_element<To> && value.imag() != 0) return true;
    return element_overflows<V>(value.real()) || element_overflows<V>(value.imag());
  } else if constexpr (std::is_integral_v<From>) {
    if constexpr (std::is_integral_v<V>) {
      if constexpr (std::is_unsigned_v<V> && std::is_signed_v<From>) {
        if (value < 0) {
          return -static_cast<uint64_t>(value) > static_cast<uint64_t>(Limits::max());
        }
      }
      return std::cmp_less(value, Limits::lowest()) || std::cmp_greater(value, Limits::max());
    } else {
      const double v = static_cast<double>(value);
      return v < static_cast<double>(Limits::lowest()) || v > static_cast<double>(Limits::max());
    }
  } else {
    const double v = static_cast<double>(value);
    if (Limits::has_infinity && std::isinf(v)) return false;
    if (std::isnan(v)) return !Limits::has_quiet_NaN;
    if constexpr (std::is_integral_v<V>) {
      // max() + 1 = 2^digits is exact in floating point; max() itself may not be.
      constexpr double upper = 2.0 * static_cast<double>(uint64_t{1} << (Limits::digits - 1));
      return v < static_cast<double>(Limits::lowest()) || v >= upper;
    } else {
      return v < static_cast<double>(Limits::lowest()) || v > static_cast<double>(Limits::max());
    }
  }
}

// The C++ spelling of a dtype's element type in PyTorch's overflow messages ("uint8_t", "int",
// "at::Half", "c10::complex<float>", ...), so that Backplane's messages are PyTorch's verbatim.
// Precondition: `t` is one of the 12 dtypes.
constexpr std::string_view pytorch_cpp_type_name(ScalarType t) {
  constexpr std::array<std::string_view, kNumScalarTypes> kNames = {
      "bool",
      "uint8_t",
      "int8_t",
      "int16_t",
      "int",
      "int64_t",
      "at::Half",
      "at::BFloat16",
      "float",
      "double",
      "c10::complex<float>",
      "c10::complex<double>",
  };
  return kNames[index_of(t)];
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_ELEMENT_CAST_H_
