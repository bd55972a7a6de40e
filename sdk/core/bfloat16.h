// bp::BFloat16: the upper 16 bits of an IEEE float ("bfloat16"), the element type of
// ScalarType::kBFloat16.
//
//   BFloat16 b = 3.14159f;                    // rounded to nearest, ties to even: 3.140625
//   float f = b;                              // exact
//   BFloat16 one = BFloat16::from_bits(0x3F80);
//   BFloat16 sum = b + one;                   // computed in float, rounded back
//
// The type itself is portable source shared with the CUDA plugin's jitted kernels
// (sdk/core/portable/bfloat16.h: layout, conversions); this header adds std::numeric_limits and
// printing. Arithmetic follows c10::BFloat16 (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_BFLOAT16_H_
#define BACKPLANE_SDK_CORE_BFLOAT16_H_

#include <limits>
#include <type_traits>

#include "sdk/core/portable/bfloat16.h"  // IWYU pragma: export
#include "sdk/core/reduced_float.h"      // IWYU pragma: export

static_assert(std::is_trivially_copyable_v<bp::BFloat16>);

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
