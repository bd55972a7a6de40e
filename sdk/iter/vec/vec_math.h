// Vectorised elementary functions for Vectorized<float / double, W>, from SLEEF (Debian's
// libsleef-dev; PyTorch's vector math library too), picked by the vector's width: 16-byte vectors
// (dispatch_cpu's SSE2 path) run SLEEF's SSE2 code, 32-byte ones its AVX2+FMA code on CPUs that
// have AVX2, 64-byte ones (the AVX-512 path's, for functors marked kWideVectors: loops.h) its
// AVX-512F code on CPUs where dispatch_cpu uses AVX-512; each falls back to the narrower code,
// piecewise.
//
//   using Vec = Vectorized<float, width>;
//   Vec y = vec_math::log1p(Vec::loadu(x + i));   // as std::log1p in every lane, to 1.0 ulp
//
// Accuracy: SLEEF's u10 functions, at most 1.0 ulp from the exact result in every lane, for
// float and double alike; erfc (SLEEF has no u10 erfc) 1.5 ulp; sqrt is correctly rounded (the
// vector instruction). Past SLEEF's documented domains (sinh and cosh above 88 / 708, asinh and
// acosh above 1.8e19 / 1.3e154, log1p above 1e37 / 1e306) a lane takes std::'s value (glibc's:
// sinh and cosh within 1.6 ulp near overflow). Special values as C99's libm (NaN in, NaN out; -0.0
// kept by the odd functions; inf, overflow and domain errors as std::), without errno. The scalar
// primitives (reference_backend/math/primitives.h) stay std:: calls, so a vector and the scalar
// tail of the same loop may differ by those bounds, as in PyTorch, whose kernels call the same
// SLEEF functions (at u10) in their vector loops. Why SLEEF and not Highway's contrib math, with
// the measurement: docs/design/iter.md ("Vector math").
//
// The SLEEF functions are out of line (in libsleef.so), and each call goes through a function
// compiled for its ISA that takes pointers, never vectors: the vector loops that call these are
// compiled for the baseline ISA and only inlined into AVX2 / AVX-512 functions (see
// cpu_capability.h), so a vector passed by value would cross an ABI boundary, and an
// always_inline wrapper with a target attribute cannot be inlined there (GCC rejects inlining
// an always_inline function with wider target options into the baseline body it is written in).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_

#include <cstdint>
#include <type_traits>

#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

// X(name, SLEEF accuracy suffix) for every function of this file.
// clang-format off
#define BP_VEC_MATH_FUNCTIONS(X) \
  X(exp, u10) \
  X(exp2, u10) \
  X(expm1, u10) \
  X(log, u10) \
  X(log2, u10) \
  X(log10, u10) \
  X(log1p, u10) \
  X(sin, u10) \
  X(cos, u10) \
  X(tan, u10) \
  X(asin, u10) \
  X(acos, u10) \
  X(atan, u10) \
  X(sinh, u10) \
  X(cosh, u10) \
  X(tanh, u10) \
  X(asinh, u10) \
  X(acosh, u10) \
  X(atanh, u10) \
  X(erf, u10) \
  X(erfc, u15) \
  X(lgamma, u10) \
  X(sqrt, u05)
// clang-format on

namespace bp {
namespace vec_math_detail {

enum Function : int {
#define BP_VEC_MATH_ENUM(name, ulp) k_##name,
  BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_ENUM)
#undef BP_VEC_MATH_ENUM
      kNumFunctions
};

// f(in[0..n)) -> out[0..n) (in == out allowed); n a multiple of the ISA's lane count (16 bytes'
// worth for SSE2, 32 bytes' for AVX2).
using FloatFn = void (*)(const float* in, float* out, int64_t n);
using DoubleFn = void (*)(const double* in, double* out, int64_t n);
struct Table {
  FloatFn f[kNumFunctions];
  DoubleFn d[kNumFunctions];
};
extern const Table kSse2;  // on other CPU architectures: std:: per element
extern const Table kAvx2;  // AVX2 + FMA; kSse2's functions where this build has no x86-64
// The table for vectors of 32 bytes and more: kAvx2 on CPUs with AVX2 and FMA, else kSse2 (set
// at load time; kSse2 before that). Not cpu_capability(): a call per vector cost 4% of sin's
// time, and the loops already run 16-byte vectors (kSse2) when the capability is "default".
extern constinit const Table* wide_table;
// The table for 64-byte vectors: SLEEF's AVX-512F code on CPUs where dispatch_cpu uses AVX-512
// (detected_cpu_capability()), else *wide_table's, piecewise.
extern constinit const Table* widest_table;

template <typename T, int kBytes>
[[gnu::always_inline]] inline Vectorized<T, kBytes> call(Function fn, Vectorized<T, kBytes> x) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "vec_math: float and double vectors only");
  const Table& table = kBytes == 64 ? *widest_table : kBytes == 32 ? *wide_table : kSse2;
  T lanes[Vectorized<T, kBytes>::size()];
  x.store(lanes);
  if constexpr (std::is_same_v<T, float>) {
    table.f[fn](lanes, lanes, Vectorized<T, kBytes>::size());
  } else {
    table.d[fn](lanes, lanes, Vectorized<T, kBytes>::size());
  }
  return Vectorized<T, kBytes>::loadu(lanes);
}

}  // namespace vec_math_detail

namespace vec_math {
// exp(x), log1p(x), ...: the function of every lane, as std:: (see the file comment).
#define BP_VEC_MATH_DECLARE(name, ulp)                                                \
  template <typename T, int kBytes>                                                   \
  [[gnu::always_inline]] inline Vectorized<T, kBytes> name(Vectorized<T, kBytes> x) { \
    return vec_math_detail::call(vec_math_detail::k_##name, x);                       \
  }
BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_DECLARE)
#undef BP_VEC_MATH_DECLARE
}  // namespace vec_math

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_
