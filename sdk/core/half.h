// bp::Half: IEEE 754 binary16 ("float16"), the element type of ScalarType::kFloat16.
//
//   Half h = 0.1f;                        // rounded to nearest, ties to even: 0.0999755859375
//   float f = h;                          // exact
//   Half one = Half::from_bits(0x3C00);   // 1.0
//   Half sum = h + one;                   // computed in float, rounded back to Half
//   std::numeric_limits<Half>::max();     // 65504
//
// Layout: one uint16_t (`bits`), trivially copyable, 2-byte aligned, so a Half array is the same
// bytes as PyTorch's / CUDA's __half arrays. Conversions are constexpr and do not depend on the
// FPU's rounding mode or on F16C instructions. Arithmetic follows c10::Half (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_HALF_H_
#define BACKPLANE_SDK_CORE_HALF_H_

#include <bit>
#include <cstdint>
#include <limits>

#include "sdk/core/reduced_float.h"

namespace bp {

namespace detail {

// Rounds a float to the nearest binary16, ties to even. Overflow gives +-inf; NaN gives the
// quiet NaN 0x7E00 with the input's sign (c10's canonical NaN).
constexpr uint16_t float_to_half_bits(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t magnitude = f & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return sign | 0x7E00u;  // NaN
  // 65520 = 65504 + half an ulp: from here on the result rounds (ties to even) to infinity.
  if (magnitude >= 0x477FF000u) return sign | 0x7C00u;
  if (magnitude >= 0x38800000u) {  // >= 2^-14: a normal half.
    // Rebias the exponent (127 -> 15) and drop 13 mantissa bits, rounding to nearest even; a
    // carry out of the mantissa correctly bumps the exponent.
    const uint32_t rebiased = magnitude - (112u << 23);
    return sign | static_cast<uint16_t>((rebiased + 0xFFFu + ((rebiased >> 13) & 1u)) >> 13);
  }
  // A subnormal half (or zero): the result counts units of 2^-24.
  const uint32_t exponent = magnitude >> 23;
  if (exponent < 102) return sign;  // below 2^-25: rounds to zero.
  const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126 - exponent;  // 14..24
  const uint32_t kept = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  const uint32_t rounded = kept + ((rest > halfway || (rest == halfway && (kept & 1u))) ? 1u : 0u);
  return sign | static_cast<uint16_t>(rounded);  // 0x400 (smallest normal) when it rounds up.
}

// The exact float value of a binary16 (every half is representable as a float). NaN payloads are
// kept.
constexpr float half_bits_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  if (exponent != 0) {
    return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return std::bit_cast<float>(sign);
  // Subnormal: normalise so that the leading one lands on bit 10 (the implicit bit).
  const int shift = std::countl_zero(mantissa) - 21;
  mantissa = (mantissa << shift) & 0x3FFu;
  return std::bit_cast<float>(sign | (static_cast<uint32_t>(113 - shift) << 23) | (mantissa << 13));
}

}  // namespace detail

struct Half {
  // Uninitialised, like a float; `Half{}` is +0.
  Half() = default;
  // Rounds to nearest, ties to even (see detail::float_to_half_bits). Implicit, like c10::Half.
  constexpr Half(float value) : bits(detail::float_to_half_bits(value)) {}  // NOLINT
  // The Half with this bit pattern.
  static constexpr Half from_bits(uint16_t raw) {
    Half h{};
    h.bits = raw;
    return h;
  }
  // Exact. Implicit, like c10::Half.
  constexpr operator float() const { return detail::half_bits_to_float(bits); }  // NOLINT

  uint16_t bits;
};

template <>
inline constexpr bool is_reduced_float<Half> = true;

static_assert(sizeof(Half) == 2 && alignof(Half) == 2);
static_assert(std::is_trivially_copyable_v<Half>);

}  // namespace bp

template <>
class std::numeric_limits<bp::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr bp::Half min() noexcept { return bp::Half::from_bits(0x0400); }
  static constexpr bp::Half lowest() noexcept { return bp::Half::from_bits(0xFBFF); }
  static constexpr bp::Half max() noexcept { return bp::Half::from_bits(0x7BFF); }
  static constexpr bp::Half epsilon() noexcept { return bp::Half::from_bits(0x1400); }
  static constexpr bp::Half round_error() noexcept { return bp::Half::from_bits(0x3800); }
  static constexpr bp::Half infinity() noexcept { return bp::Half::from_bits(0x7C00); }
  static constexpr bp::Half quiet_NaN() noexcept { return bp::Half::from_bits(0x7E00); }
  static constexpr bp::Half signaling_NaN() noexcept { return bp::Half::from_bits(0x7D00); }
  static constexpr bp::Half denorm_min() noexcept { return bp::Half::from_bits(0x0001); }
};

#endif  // BACKPLANE_SDK_CORE_HALF_H_
