// bp::Half, IEEE 754 binary16 ("float16"), as portable source: the one definition the SDK
// (sdk/core/half.h adds numeric_limits) and the CUDA plugin's jitted kernels share.
//
//   Half h = 0.1f;                        // rounded to nearest, ties to even: 0.0999755859375
//   float f = h;                          // exact
//   Half one = Half::from_bits(0x3C00);   // 1.0
//
// Layout: one uint16_t (`bits`), trivially copyable, 2-byte aligned, so a Half array is the same
// bytes as PyTorch's / CUDA's __half arrays. Conversions do not depend on the FPU's rounding mode
// or on F16C; on the device they use the conversion instructions, which round the same way.
// Arithmetic follows c10::Half (see reduced_float.h).
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_HALF_H_
#define BACKPLANE_SDK_CORE_PORTABLE_HALF_H_

#include "sdk/core/portable/base.h"
#include "sdk/core/portable/reduced_float.h"

namespace bp {

namespace detail {

// Rounds a float to the nearest binary16, ties to even. Overflow gives +-inf; NaN gives the
// quiet NaN 0x7E00 with the input's sign (c10's canonical NaN; the device's conversion
// instruction gives 0x7FFF: the same value, another payload).
constexpr uint16_t float_to_half_bits(float value) {
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    uint16_t bits;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(value));
    return bits;
  }
#endif
  const uint32_t f = portable::bit_cast<uint32_t>(value);
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
#if defined(__CUDA_ARCH__)
  if (!__builtin_is_constant_evaluated()) {
    float value;
    asm("cvt.f32.f16 %0, %1;" : "=f"(value) : "h"(bits));
    return value;
  }
#endif
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1F) return portable::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  if (exponent != 0) {
    return portable::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  }
  if (mantissa == 0) return portable::bit_cast<float>(sign);
  // Subnormal: normalise so that the leading one lands on bit 10 (the implicit bit).
  const int shift = portable::countl_zero(mantissa) - 21;
  mantissa = (mantissa << shift) & 0x3FFu;
  return portable::bit_cast<float>(sign | (static_cast<uint32_t>(113 - shift) << 23) |
                                   (mantissa << 13));
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

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PORTABLE_HALF_H_
