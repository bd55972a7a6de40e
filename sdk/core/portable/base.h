// The dialect of Backplane's portable scalar layer: what its headers (sdk/core/portable/*.h and
// reference_backend/math/*.h) may rely on, so that one text compiles as host C++ (the SDK, the CPU
// backend) and as NVRTC source (the CUDA plugin embeds the same files; see
// reference_backend/cuda/jit_sources.h).
//
//   #include "sdk/core/portable/base.h"
//   BP_INLINE uint32_t f(float x) { return bp::portable::bit_cast<uint32_t>(x); }
//
// NVRTC 13 has no standard headers at all (no <cstdint>, <type_traits>, <cmath>, <complex>), so a
// portable header:
//   - includes only other portable headers (the embedding tool inlines those and drops every other
//     #include line);
//   - uses the fixed-width integer types and the traits below instead of <type_traits>;
//   - puts host-only conveniences (std::complex conversions, iostreams, numeric_limits) in the
//     host headers that wrap it (sdk/core/complex.h, half.h, ...), or behind BP_PORTABLE_HOST.
// NVRTC compiles with -default-device and --std=c++20: functions need no annotation, concepts work.
//
// Thread safety: declarations only.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_BASE_H_
#define BACKPLANE_SDK_CORE_PORTABLE_BASE_H_

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
// Device code: always inlined, as CUDA's own headers do for small functions.
#define BP_INLINE __forceinline__
#else
#include <cstdint>
#define BP_INLINE inline
// Host C++ (the SDK, the CPU backend, and the host emulation of jitted kernels).
#define BP_PORTABLE_HOST 1
#endif

namespace bp::portable {

// ---- Traits (NVRTC has no <type_traits>) -------------------------------------------------------

template <typename A, typename B>
inline constexpr bool is_same_v = false;
template <typename A>
inline constexpr bool is_same_v<A, A> = true;

template <bool kCondition, typename A, typename B>
struct conditional {
  using type = A;
};
template <typename A, typename B>
struct conditional<false, A, B> {
  using type = B;
};
template <bool kCondition, typename A, typename B>
using conditional_t = typename conditional<kCondition, A, B>::type;

// The argument kept out of template argument deduction (std::type_identity_t).
template <typename T>
struct type_identity {
  using type = T;
};
template <typename T>
using type_identity_t = typename type_identity<T>::type;

// The fundamental integer types, not bool (std::is_integral_v minus bool, in every spelling).
template <typename T>
inline constexpr bool is_integer_v = false;
template <>
inline constexpr bool is_integer_v<char> = true;
template <>
inline constexpr bool is_integer_v<signed char> = true;
template <>
inline constexpr bool is_integer_v<unsigned char> = true;
template <>
inline constexpr bool is_integer_v<short> = true;
template <>
inline constexpr bool is_integer_v<unsigned short> = true;
template <>
inline constexpr bool is_integer_v<int> = true;
template <>
inline constexpr bool is_integer_v<unsigned int> = true;
template <>
inline constexpr bool is_integer_v<long> = true;
template <>
inline constexpr bool is_integer_v<unsigned long> = true;
template <>
inline constexpr bool is_integer_v<long long> = true;
template <>
inline constexpr bool is_integer_v<unsigned long long> = true;

// float and double (the floating types the math computes in).
template <typename T>
inline constexpr bool is_float_or_double_v = is_same_v<T, float> || is_same_v<T, double>;

// ---- Bits -------------------------------------------------------------------------------------

// std::bit_cast: __builtin_bit_cast is constexpr and understood by NVRTC, GCC and Clang alike.
template <typename To, typename From>
constexpr To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of the same size");
  return __builtin_bit_cast(To, from);
}

// std::countl_zero for 32-bit values (32 for zero).
constexpr int countl_zero(uint32_t x) {
#if defined(__CUDACC_RTC__)
  if (!__builtin_is_constant_evaluated()) return __clz(static_cast<int>(x));
  int n = 0;  // NVRTC has no __builtin_clz
  for (uint32_t bit = 0x80000000u; bit != 0 && (x & bit) == 0; bit >>= 1) ++n;
  return n;
#else
  return x == 0 ? 32 : __builtin_clz(x);
#endif
}

}  // namespace bp::portable

#endif  // BACKPLANE_SDK_CORE_PORTABLE_BASE_H_
