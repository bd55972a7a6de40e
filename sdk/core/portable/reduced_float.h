// Operators shared by the 16-bit floating-point types bp::Half and bp::BFloat16 (portable source).
//
//   Half a = 1.5f, b = 2.0f;
//   Half c = a * b;        // 3.0: computed in float, rounded back to Half
//   float d = a * 2.0f;    // mixed with float: the result is a float (as c10::Half)
//   Half e = a + 1;        // mixed with an integer: the result is a Half
//   a += b;                // a == 3.5
//
// Include half.h or bfloat16.h rather than this header. A type opts in by specialising
// `is_reduced_float` and providing a constructor from float, an `operator float()`, a uint16_t
// `bits` member and `from_bits`.
//
// Every operation computes in float and rounds once back to the 16-bit type, which is what
// PyTorch's c10::Half and c10::BFloat16 do, so results match PyTorch's CPU kernels bit for bit.
//
// Thread safety: these are pure functions.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_REDUCED_FLOAT_H_
#define BACKPLANE_SDK_CORE_PORTABLE_REDUCED_FLOAT_H_

#include "sdk/core/portable/base.h"

namespace bp {

// True for the 16-bit floating-point types (specialised in half.h and bfloat16.h).
template <typename T>
inline constexpr bool is_reduced_float = false;

namespace detail {

template <typename T>
concept ReducedFloat = is_reduced_float<T>;

// Integers (not bool) mix with a 16-bit float without widening the result, as in c10.
template <typename I>
concept NonBoolIntegral = portable::is_integer_v<I>;

}  // namespace detail

// ---- Same-type arithmetic: compute in float, round back. --------------------------------------
// The second operand is a non-deduced `type_identity_t<T>` only for compound assignment, so
// that `h += 1.5f` works; plain binary operators keep c10's mixed-type result rules.

template <detail::ReducedFloat T>
constexpr T operator+(T a, T b) {
  return T(static_cast<float>(a) + static_cast<float>(b));
}
template <detail::ReducedFloat T>
constexpr T operator-(T a, T b) {
  return T(static_cast<float>(a) - static_cast<float>(b));
}
template <detail::ReducedFloat T>
constexpr T operator*(T a, T b) {
  return T(static_cast<float>(a) * static_cast<float>(b));
}
template <detail::ReducedFloat T>
constexpr T operator/(T a, T b) {
  return T(static_cast<float>(a) / static_cast<float>(b));
}

template <detail::ReducedFloat T>
constexpr T operator+(T a) {
  return a;
}
// Negation flips the sign bit (bit 15 in both formats): exact, also for zero and NaN.
template <detail::ReducedFloat T>
constexpr T operator-(T a) {
  return T::from_bits(static_cast<uint16_t>(a.bits ^ 0x8000u));
}

// ---- Mixed with integers: the integer converts to T first (c10's rule). -------------------------

template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator+(T a, I b) {
  return a + T(static_cast<float>(b));
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator-(T a, I b) {
  return a - T(static_cast<float>(b));
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator*(T a, I b) {
  return a * T(static_cast<float>(b));
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator/(T a, I b) {
  return a / T(static_cast<float>(b));
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator+(I a, T b) {
  return T(static_cast<float>(a)) + b;
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator-(I a, T b) {
  return T(static_cast<float>(a)) - b;
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator*(I a, T b) {
  return T(static_cast<float>(a)) * b;
}
template <detail::ReducedFloat T, detail::NonBoolIntegral I>
constexpr T operator/(I a, T b) {
  return T(static_cast<float>(a)) / b;
}
// Mixed with float or double, T converts implicitly and the built-in operator gives a float or
// double result (no overloads needed).

// ---- Compound assignment. -----------------------------------------------------------------------

template <detail::ReducedFloat T>
constexpr T& operator+=(T& a, portable::type_identity_t<T> b) {
  return a = a + b;
}
template <detail::ReducedFloat T>
constexpr T& operator-=(T& a, portable::type_identity_t<T> b) {
  return a = a - b;
}
template <detail::ReducedFloat T>
constexpr T& operator*=(T& a, portable::type_identity_t<T> b) {
  return a = a * b;
}
template <detail::ReducedFloat T>
constexpr T& operator/=(T& a, portable::type_identity_t<T> b) {
  return a = a / b;
}

// ---- Comparisons: by value, as floats (so NaN != NaN and -0 == +0). ----------------------------
// Written out rather than through operator<=>, which needs <compare> (not in NVRTC).

template <detail::ReducedFloat T>
constexpr bool operator==(T a, T b) {
  return static_cast<float>(a) == static_cast<float>(b);
}
template <detail::ReducedFloat T>
constexpr bool operator<(T a, T b) {
  return static_cast<float>(a) < static_cast<float>(b);
}
template <detail::ReducedFloat T>
constexpr bool operator>(T a, T b) {
  return static_cast<float>(a) > static_cast<float>(b);
}
template <detail::ReducedFloat T>
constexpr bool operator<=(T a, T b) {
  return static_cast<float>(a) <= static_cast<float>(b);
}
template <detail::ReducedFloat T>
constexpr bool operator>=(T a, T b) {
  return static_cast<float>(a) >= static_cast<float>(b);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PORTABLE_REDUCED_FLOAT_H_
