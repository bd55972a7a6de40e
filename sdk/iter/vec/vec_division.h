// Python's a // b (PyTorch's floor_divide, div(rounding_mode='floor')) and C's fmod(a, b) of
// float and double vectors from one division, where every lane allows it; the caller takes the
// general steps otherwise (fmod: SLEEF's, vec_math.h; a // b: PyTorch's steps from fmod,
// reference_backend/math/binary.h's DivFloor).
//
//   using Vec = Vectorized<float, width, isa>;   // inside a dispatch_cpu body (cpu_capability.h)
//   if (vec_math::floor_divide_by_division_applies(a, b)) {
//     return vec_math::floor_divide_by_division(a, b);
//   }
//   ...  // the general steps
//
// Why: PyTorch's steps (fmod, a division, floor, two adjustments) cost twice a division: SLEEF's
// fmod is itself a reciprocal and a loop of double-float steps. Where |a / b| < 2^20 (double:
// 2^48) they give exactly floor(a / b) of the exact quotient (their rounding errors stay below
// 1/2, which the final round to the nearest integer removes), and so does this:
//   q = a / b rounded; floor(q) is the exact floor unless q is an integer k that the rounding
//   reached from below (an integer between the exact quotient and q is representable, so
//   rounding, being monotone, cannot pass it). Where q is an integer, a - q * b tells: q is one
//   too big where it is not 0 and has the sign opposite b's. On the AVX2 and AVX-512 paths an
//   FMA computes it rounded once, so its sign and whether it is 0 are exact. On the baseline
//   ISA q * b is rounded first: a lies on the same side of the rounded product as of the exact
//   one, or equals it, and there the sign is not known (1 // 0.1: 10 * 0.1f rounds to 1, the
//   exact product is above 1, the answer is 9), so a vector with such a lane takes the general
//   steps: on that path integers divided by their divisors (6 // 2) cost what they did.
//
// fmod (on the FMA paths only): with t = trunc(q), a - t * b rounded once by an FMA is exact
// and is fmod(a, b), unless q is an integer the rounding reached from inside (|t| one too big,
// as above): then it has the sign opposite a's, and adding b with a's sign gives the exact
// remainder (a representable value, so that addition is exact too). The result takes a's sign,
// as fmod's (zeros included).
//
// Domain, per lane, else false: |a / b| < 2^20 (double: 2^48), so every integer near it is
// representable and PyTorch's rounding errors stay below 1/2; |a| and |b| below 2^120 (double:
// 2^1000): finite, and a * b's neighbourhood does not overflow. NaN, infinities and b = 0 fall
// outside. Signed zeros: the result is 0 where 0 <= a / b < 1 with the sign of the rounded
// quotient, as PyTorch's.
//
// The steps are integer arithmetic on the lanes' bits (no vector comparisons), so a functor that
// uses this may run 64-byte vectors on the AVX-512 path (cpu_capability.h).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_DIVISION_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_DIVISION_H_

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "sdk/iter/vec/vec_math.h"
#include "sdk/iter/vec/vectorized.h"

// x86's FMA builtins: compiled on x86-64 only, run on the AVX2 and AVX-512 paths only.
#if defined(__x86_64__)
#define BP_VEC_FMA_BUILTINS 1
#else
#define BP_VEC_FMA_BUILTINS 0
#endif

namespace bp::vec_math {
namespace division_detail {

// Whether vectors of kBytes on the kIsa path have FMA instructions (the AVX2 path: up to 32 bytes).
template <int kBytes, VecIsa kIsa>
inline constexpr bool kHasFma = BP_VEC_FMA_BUILTINS && (kIsa == VecIsa::kAvx512 ||
                                                        (kIsa == VecIsa::kAvx2 && kBytes <= 32));

// c - a * b rounded once, where kHasFma. GCC's builtins, not <immintrin.h>'s functions: those
// could not be inlined into the baseline-ISA code this is written in; a builtin is checked where
// it is finally compiled, the ISA's loop (cpu_capability.h).
template <typename Raw>
[[gnu::always_inline]] inline Raw fused_subtract_product(Raw a, Raw b, Raw c) {
#if BP_VEC_FMA_BUILTINS
  using T = std::remove_reference_t<decltype(a[0])>;
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 16) return __builtin_ia32_vfmaddps(-a, b, c);
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 32) return __builtin_ia32_vfmaddps256(-a, b, c);
  if constexpr (sizeof(T) == 4 && sizeof(Raw) == 64) {
    return __builtin_ia32_vfmaddps512_mask(-a, b, c, -1, /*_MM_FROUND_CUR_DIRECTION*/ 4);
  }
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 16) return __builtin_ia32_vfmaddpd(-a, b, c);
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 32) return __builtin_ia32_vfmaddpd256(-a, b, c);
  if constexpr (sizeof(T) == 8 && sizeof(Raw) == 64) {
    return __builtin_ia32_vfmaddpd512_mask(-a, b, c, -1, /*_MM_FROUND_CUR_DIRECTION*/ 4);
  }
#endif
  return c - a * b;  // not reached: kHasFma is false
}

// The lanes' types and bit-level helpers shared by both methods.
template <typename T, int kBytes, VecIsa kIsa>
struct Lanes {
  using Raw = typename Vectorized<T, kBytes, kIsa>::Raw;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef I IRaw __attribute__((vector_size(sizeof(Raw))));
  static constexpr bool kFloat = sizeof(T) == 4;
  static constexpr I kOne = std::bit_cast<I>(T(1));
  static constexpr I kMagnitude = std::numeric_limits<I>::max();
  static constexpr int kSignShift = 8 * sizeof(T) - 1;

  [[gnu::always_inline]] static IRaw bits(Raw x) {
    IRaw i;
    copy_bytes(&i, &x, sizeof(i));
    return i;
  }
  [[gnu::always_inline]] static Raw floats(IRaw i) {
    Raw x;
    copy_bytes(&x, &i, sizeof(x));
    return x;
  }
  // |v| with the sign of s.
  [[gnu::always_inline]] static Raw with_sign_of(Raw v, Raw s) {
    return floats((bits(v) & kMagnitude) | (bits(s) & ~kMagnitude));
  }

  // Sign clear in a lane outside the domain (the file comment), q = x / y rounded.
  [[gnu::always_inline]] static IRaw outside(Raw x, Raw y, Raw q) {
    // Bits of |v| minus these are >= 0 where |v| >= the limit (or v is NaN).
    constexpr I kQuotientLimit = std::bit_cast<I>(kFloat ? T(1 << 20) : T(int64_t{1} << 48));
    constexpr I kOperandLimit = std::bit_cast<I>(kFloat ? T(0x1p120) : T(0x1p1000));
    return ((bits(q) & kMagnitude) - kQuotientLimit) & ((bits(x) & kMagnitude) - kOperandLimit) &
           ((bits(y) & kMagnitude) - kOperandLimit);
  }

  // floor(v) for |v| < 2^22 (double: 2^51): v rounded to an integer, less 1 where that went up
  // (v - rounded < 0, not -0.0), with v's sign (so -0.0 stays -0.0; no other lane changes).
  [[gnu::always_inline]] static Raw floor(Raw v) {
    // 1.5 * 2^23 (double: 2^52): v + this - this is v rounded to an integer.
    constexpr T kRounder = kFloat ? T(12582912.0) : T(6755399441055744.0);
    const Raw rounded = (v + kRounder) - kRounder;
    const IRaw above = bits(v - rounded);
    const IRaw went_up = (above & -(above & kMagnitude)) >> kSignShift;
    return with_sign_of(rounded - floats(went_up & kOne), v);
  }
};

// floor(a / b)'s steps (the file comment): the floored quotient, and integer lanes whose sign
// bit says what each step found.
template <typename T, int kBytes, VecIsa kIsa>
struct FloorDivideSteps : Lanes<T, kBytes, kIsa> {
  using L = Lanes<T, kBytes, kIsa>;
  using typename L::IRaw;
  using typename L::Raw;

  Raw floored;     // floor(q), q = a / b rounded
  IRaw too_big;    // sign set where q is an integer one above the exact floor
  IRaw outside;    // sign clear where a lane is outside the domain
  IRaw uncertain;  // sign set where q is an integer and a - q * b is not known to be 0 or not
                   // (only without FMA)

  [[gnu::always_inline]] FloorDivideSteps(Raw x, Raw y) {
    const Raw q = x / y;
    outside = L::outside(x, y, q);
    floored = L::floor(q);
    // Where q is an integer: one too big where a - q * b is not 0 and its sign is not b's.
    // With FMA, a - q * b is rounded once, so its sign and whether it is 0 are exact; without,
    // q * b is rounded first, and a lane where a equals it (q not 0) is uncertain.
    const IRaw integral = (L::bits(q - floored) & L::kMagnitude) - 1;  // sign set: q - floor is 0
    if constexpr (kHasFma<kBytes, kIsa>) {
      const IRaw rest = L::bits(fused_subtract_product(q, y, x));
      too_big = integral & -(rest & L::kMagnitude) & (rest ^ L::bits(y));
      uncertain = IRaw{};
    } else {
      const IRaw rest = L::bits(x - q * y);
      const IRaw rest_magnitude = rest & L::kMagnitude;
      too_big = integral & -rest_magnitude & (rest ^ L::bits(y));
      uncertain = integral & (rest_magnitude - 1) & -(L::bits(q) & L::kMagnitude);
    }
  }
};

// fmod(a, b)'s steps (FMA only): the remainder, and the domain.
template <typename T, int kBytes, VecIsa kIsa>
struct FmodSteps : Lanes<T, kBytes, kIsa> {
  using L = Lanes<T, kBytes, kIsa>;
  using typename L::IRaw;
  using typename L::Raw;

  Raw remainder;  // fmod(a, b) where the lane is in the domain
  IRaw outside;   // sign clear where a lane is outside the domain

  [[gnu::always_inline]] FmodSteps(Raw x, Raw y) {
    const Raw q = x / y;
    outside = L::outside(x, y, q);
    const Raw truncated = L::with_sign_of(L::floor(L::with_sign_of(q, Raw{})), q);
    const IRaw rest = L::bits(fused_subtract_product(truncated, y, x));  // exact
    // Not 0 and of the sign opposite a's: |truncated| was one too big; add b with a's sign.
    const IRaw wrong = (-(rest & L::kMagnitude) & (rest ^ L::bits(x))) >> L::kSignShift;
    const Raw step = L::floats(L::bits(L::with_sign_of(y, x)) & wrong);
    remainder = L::with_sign_of(L::floats(rest) + step, x);
  }
};

}  // namespace division_detail

// Whether every lane of a and b is in the domain above, so that floor_divide_by_division(a, b)
// is Python's a // b.
template <typename T, int kBytes, VecIsa kIsa>
requires std::is_floating_point_v<T>
[[gnu::always_inline]] inline bool floor_divide_by_division_applies(Vectorized<T, kBytes, kIsa> a,
                                                                    Vectorized<T, kBytes, kIsa> b) {
  const division_detail::FloorDivideSteps<T, kBytes, kIsa> steps(a.raw(), b.raw());
  if (vec_math_detail::any_sign_clear(steps.outside)) return false;
  if constexpr (division_detail::kHasFma<kBytes, kIsa>) return true;
  return !vec_math_detail::any_sign_clear(~steps.uncertain);
}

// floor(a / b) in every lane, where floor_divide_by_division_applies(a, b). (The two make the
// same steps; inlined together, the compiler makes them once.)
template <typename T, int kBytes, VecIsa kIsa>
requires std::is_floating_point_v<T>
[[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> floor_divide_by_division(
    Vectorized<T, kBytes, kIsa> a, Vectorized<T, kBytes, kIsa> b) {
  using Steps = division_detail::FloorDivideSteps<T, kBytes, kIsa>;
  const Steps steps(a.raw(), b.raw());
  const auto one_less = Steps::floats((steps.too_big >> Steps::kSignShift) & Steps::kOne);
  return Vectorized<T, kBytes, kIsa>::from_raw(steps.floored - one_less);
}

// Whether fmod_by_division(a, b) is fmod(a, b): on the FMA paths, every lane in the domain.
template <typename T, int kBytes, VecIsa kIsa>
requires std::is_floating_point_v<T>
[[gnu::always_inline]] inline bool fmod_by_division_applies(Vectorized<T, kBytes, kIsa> a,
                                                            Vectorized<T, kBytes, kIsa> b) {
  if constexpr (division_detail::kHasFma<kBytes, kIsa>) {
    const division_detail::FmodSteps<T, kBytes, kIsa> steps(a.raw(), b.raw());
    return !vec_math_detail::any_sign_clear(steps.outside);
  } else {
    return false;
  }
}

// fmod(a, b) in every lane, where fmod_by_division_applies(a, b).
template <typename T, int kBytes, VecIsa kIsa>
requires std::is_floating_point_v<T>
[[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> fmod_by_division(
    Vectorized<T, kBytes, kIsa> a, Vectorized<T, kBytes, kIsa> b) {
  if constexpr (division_detail::kHasFma<kBytes, kIsa>) {
    const division_detail::FmodSteps<T, kBytes, kIsa> steps(a.raw(), b.raw());
    return Vectorized<T, kBytes, kIsa>::from_raw(steps.remainder);
  } else {
    return a;  // not called: fmod_by_division_applies is false
  }
}

}  // namespace bp::vec_math

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_DIVISION_H_
