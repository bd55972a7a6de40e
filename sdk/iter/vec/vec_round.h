// floor, ceil, trunc and nearbyint of float and double vectors: each lane rounded to an integer,
// bit for bit as std::floor, std::ceil, std::trunc and std::nearbyint (ties to even, in the
// default rounding mode) give it.
//
//   using Vec = Vectorized<float, width, isa>;   // inside a dispatch_cpu body (cpu_capability.h)
//   Vec t = vec_math::trunc(Vec::loadu(x));
//
// On the AVX2 and AVX-512 paths (vectors tagged VecIsa::kAvx2 / kAvx512; AVX2: up to 32 bytes)
// one instruction each:
// ROUNDPS / ROUNDPD (SSE4.1, AVX) or VRNDSCALEPS / VRNDSCALEPD (64-byte vectors). Elsewhere
// (kAny vectors, the baseline ISA, clang) |x| is rounded to the nearest integer through
// (|x| + 2^23) - 2^23 (double: 2^52) and stepped by one where that went the wrong way; lanes of
// 2^23 (2^52) and more in magnitude are integers already and come back as they are, as do NaN and
// the infinities, and a lane that rounds to zero keeps its sign (trunc(-0.5) is -0.0).
//
// Why: div(rounding_mode='trunc') built trunc from floor's steps, about ten vector operations
// where the instruction is one, and ceil and round went through std:: a lane at a time.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_ROUND_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_ROUND_H_

#include <type_traits>

#include "sdk/iter/vec/vectorized.h"

// GCC's rounding builtins, on x86-64. Not with clang: it checks a builtin against the target of
// the function it is written in, where GCC checks the function it is finally compiled into (the
// ISA's loop), so the portable steps stand in there.
#if defined(__x86_64__) && !defined(__clang__)
#include <immintrin.h>
#define BP_VEC_ROUND_INSTRUCTIONS 1
#else
#define BP_VEC_ROUND_INSTRUCTIONS 0
#endif

namespace bp::vec_math {

// The direction of a rounding: the low bits of ROUNDPS's immediate.
enum class Rounding : int { kNearest = 0, kDown = 1, kUp = 2, kTowardZero = 3 };

namespace round_detail {

// ROUNDPS & co. with kMode, precision exceptions suppressed (bit 3), on a raw vector of the
// kAvx2 or kAvx512 paths. A template on Raw, so that the builtin is looked up where it is
// instantiated, inside the ISA's loop.
template <Rounding kMode, typename Raw>
[[gnu::always_inline]] inline Raw round_instruction(Raw v) {
  constexpr int kImmediate = static_cast<int>(kMode) | 8;
  using T = std::remove_reference_t<decltype(v[0])>;
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 16) return __builtin_ia32_roundps(v, kImmediate);
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 32) {
    return __builtin_ia32_roundps256(v, kImmediate);
  }
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 64) {
    return __builtin_ia32_rndscaleps_mask(v, kImmediate, v, -1, /*_MM_FROUND_CUR_DIRECTION*/ 4);
  }
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 16) return __builtin_ia32_roundpd(v, kImmediate);
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 32) {
    return __builtin_ia32_roundpd256(v, kImmediate);
  }
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 64) {
    return __builtin_ia32_rndscalepd_mask(v, kImmediate, v, -1, /*_MM_FROUND_CUR_DIRECTION*/ 4);
  }
}

}  // namespace round_detail

// x's lanes rounded in direction kMode (see the file comment).
template <Rounding kMode, typename T, int kBytes, VecIsa kIsa>
[[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> round(Vectorized<T, kBytes, kIsa> x) {
  static_assert(std::is_floating_point_v<T>, "vec_math rounding: float and double vectors");
  using Vec = Vectorized<T, kBytes, kIsa>;
  using Raw = typename Vec::Raw;
#if BP_VEC_ROUND_INSTRUCTIONS
  // (64-byte vectors on the AVX2 path are pairs of registers, without VRNDSCALE.)
  if constexpr (kIsa == VecIsa::kAvx512 || (kIsa == VecIsa::kAvx2 && kBytes <= 32)) {
    return Vec::from_raw(round_detail::round_instruction<kMode>(x.raw()));
  }
#endif
  constexpr T kIntegral = sizeof(T) == 4 ? T(8388608.0) : T(4503599627370496.0);  // 2^23, 2^52
  const Raw v = x.raw();
  const Raw magnitude = copysign(x, Vec(T(0))).raw();
  // |x| to the nearest integer (ties to even, in the default rounding mode).
  Raw r = (magnitude + kIntegral) - kIntegral;
  if constexpr (kMode == Rounding::kTowardZero) {
    r = r > magnitude ? r - T(1) : r;
  }
  r = copysign(Vec::from_raw(r), x).raw();
  if constexpr (kMode == Rounding::kDown) {
    r = r > v ? r - T(1) : r;
  } else if constexpr (kMode == Rounding::kUp) {
    // ceil(-0.7) is -0.0: -1 + 1 gave +0.0, so x's sign goes back on.
    r = copysign(Vec::from_raw(r < v ? r + T(1) : r), x).raw();
  }
  return Vec::from_raw(magnitude < kIntegral ? r : v);
}

template <typename Vec>
[[gnu::always_inline]] inline Vec floor(Vec x) {
  return round<Rounding::kDown>(x);
}
template <typename Vec>
[[gnu::always_inline]] inline Vec ceil(Vec x) {
  return round<Rounding::kUp>(x);
}
template <typename Vec>
[[gnu::always_inline]] inline Vec trunc(Vec x) {
  return round<Rounding::kTowardZero>(x);
}
template <typename Vec>
[[gnu::always_inline]] inline Vec nearbyint(Vec x) {
  return round<Rounding::kNearest>(x);
}

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_ROUND_H_
