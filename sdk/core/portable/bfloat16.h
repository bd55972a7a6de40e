// bp::BFloat16, the upper 16 bits of an IEEE float ("bfloat16"), as portable source: the one
// definition the SDK (sdk/core/bfloat16.h adds numeric_limits) and the jitted kernels share.
//
//   BFloat16 b = 3.14159f;                    // rounded to nearest, ties to even: 3.140625
//   float f = b;                              // exact
//   BFloat16 one = BFloat16::from_bits(0x3F80);
//
// Layout: one uint16_t (`bits`), trivially copyable, 2-byte aligned (same bytes as PyTorch's and
// CUDA's __nv_bfloat16). Arithmetic follows c10::BFloat16 (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_BFLOAT16_H_
#define BACKPLANE_SDK_CORE_PORTABLE_BFLOAT16_H_

#include "sdk/core/portable/base.h"
#include "sdk/core/portable/reduced_float.h"

namespace bp {

namespace detail {

// Rounds a float to the nearest bfloat16, ties to even; values past the largest finite bfloat16
// round to +-inf. NaN gives the quiet NaN 0x7FC0 with the input's sign (sm_80's conversion
// instruction gives 0x7FFF: the same value, another payload).
constexpr uint16_t float_to_bfloat16_bits(float value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (!__builtin_is_constant_evaluated()) {
    uint16_t bits;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(bits) : "f"(value));
    return bits;
  }
#endif
  const uint32_t f = portable::bit_cast<uint32_t>(value);
  if ((f & 0x7FFFFFFFu) > 0x7F800000u) {
    return static_cast<uint16_t>(((f >> 16) & 0x8000u) | 0x7FC0u);
  }
  // Adding 0x7FFF plus the lowest kept bit rounds to nearest even; a carry ripples into the
  // exponent (and from the largest finite value into infinity), which is the right result.
  return static_cast<uint16_t>((f + 0x7FFFu + ((f >> 16) & 1u)) >> 16);
}

constexpr float bfloat16_bits_to_float(uint16_t bits) {
  return portable::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
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

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PORTABLE_BFLOAT16_H_
