// bp::BFloat16: the upper 16 bits of an IEEE float ("bfloat16"), the element type of
// ScalarType::kBFloat16.
//
//   BFloat16 b = 3.14159f;                    // rounded to nearest, ties to even: 3.140625
//   float f = b;                              // exact
//   BFloat16 one = BFloat16::from_bits(0x3F80);
//   BFloat16 sum = b + one;                   // computed in float, rounded back
//
// Layout: one uint16_t (`bits`), trivially copyable, 2-byte aligned (same bytes as PyTorch's and
// CUDA's __nv_bfloat16). Arithmetic follows c10::BFloat16 (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_BFLOAT16_H_
#define BACKPLANE_SDK_CORE_BFLOAT16_H_

#include <bit>
#include <cstdint>
#include <limits>

#include "sdk/core/reduced_float.h"

namespace bp {

namespace detail {

// Rounds a float to the nearest bfloat16, ties to even; values past the largest finite bfloat16
// round to +-inf. NaN gives the quiet NaN 0x7FC0 with the input's sign.
constexpr uint16_t float_to_bfloat16_bits(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  if ((f & 0x7FFFFFFFu) > 0x7F800000u) {
    return static_cast<uint16_t>(((f >> 16) & 0x8000u) | 0x7FC0u);
  }
  // Adding 0x7FFF plus the lowest kept bit rounds to nearest even; a carry ripples into the
  // exponent (and from the largest finite value into infinity), which is the right result.
  return static_cast<uint16_t>((f + 0x7FFFu + ((f >> 16) & 1u)) >> 16);
}

constexpr float bfloat16_bits_to_float(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

}  // namespace detail

struct BFloat16 {
  // Uninitialised, like a float; `BFloat16{}` is +0.
  BFloat16() = default;
  // Rounds to nearest, ties to even. Implicit, like c10::BFloat16.
  constexpr BFloat16(float value) : bits(detail::float_to_bfloat16_bits(value)) {}  // NOLINT
  // The BFloat16 with this bit pattern.
  static constexpr BFloat16 from_bits(uint16_t raw) {
    BFloat16 b{};
    b.bits = raw;
    return b;
  }
  // Exact. Implicit, like c10::BFloat16.
  constexpr operator float() const { return detail::bfloat16_bits_to_float(bits); }  // NOLINT

  uint16_t bits;
};

template <>
inline constexpr bool is_reduced_float<BFloat16> = true;

static_assert(sizeof(BFloat16) == 2 && alignof(BFloat16) == 2);
static_assert(std::is_trivially_copyable_v<BFloat16>);

}  // namespace bp

template <>
class std::numeric_limits<bp::BFloat16> {
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
  static constexpr bool is_iec559 = false;  // Not an IEEE 754 interchange format.
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr bp::BFloat16 min() noexcept { return bp::BFloat16::from_bits(0x0080); }
  static constexpr bp::BFloat16 lowest() noexcept { return bp::BFloat16::from_bits(0xFF7F); }
  static constexpr bp::BFloat16 max() noexcept { return bp::BFloat16::from_bits(0x7F7F); }
  static constexpr bp::BFloat16 epsilon() noexcept { return bp::BFloat16::from_bits(0x3C00); }
  static constexpr bp::BFloat16 round_error() noexcept { return bp::BFloat16::from_bits(0x3F00); }
  static constexpr bp::BFloat16 infinity() noexcept { return bp::BFloat16::from_bits(0x7F80); }
  static constexpr bp::BFloat16 quiet_NaN() noexcept { return bp::BFloat16::from_bits(0x7FC0); }
  static constexpr bp::BFloat16 signaling_NaN() noexcept { return bp::BFloat16::from_bits(0x7FA0); }
  static constexpr bp::BFloat16 denorm_min() noexcept { return bp::BFloat16::from_bits(0x0001); }
};

#endif  // BACKPLANE_SDK_CORE_BFLOAT16_H_
