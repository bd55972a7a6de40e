// bp::Half: IEEE 754 binary16 ("float16"), the element type of ScalarType::kFloat16.
//
//   Half h = 0.1f;                        // rounded to nearest, ties to even: 0.0999755859375
//   float f = h;                          // exact
//   Half one = Half::from_bits(0x3C00);   // 1.0
//   Half sum = h + one;                   // computed in float, rounded back to Half
//   std::numeric_limits<Half>::max();     // 65504
//
// The type itself is portable source shared with the CUDA plugin's jitted kernels
// (sdk/core/portable/half.h: layout, conversions); this header adds std::numeric_limits and
// printing. Arithmetic follows c10::Half (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_HALF_H_
#define BACKPLANE_SDK_CORE_HALF_H_

#include <limits>
#include <type_traits>

#include "sdk/core/portable/half.h"  // IWYU pragma: export
#include "sdk/core/reduced_float.h"  // IWYU pragma: export

static_assert(std::is_trivially_copyable_v<bp::Half>);

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
