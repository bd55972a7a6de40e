// Vectorised elementary functions for Vectorized<float / double, W>, from glibc's libmvec and
// SLEEF (Debian's libsleef-dev; PyTorch's vector math library), picked by measurement per function
// and width (see mvec below): 16-byte vectors (dispatch_cpu's SSE2 path) run SLEEF's SSE2 code,
// 32-byte ones libmvec's or SLEEF's AVX2+FMA code on CPUs that have AVX2, 64-byte ones (the
// AVX-512 path's, for functors marked kWideVectors: loops.h) their AVX-512F code on CPUs where
// dispatch_cpu uses AVX-512; each falls back to the narrower code, piecewise.
//
//   using Vec = Vectorized<float, width>;
//   Vec y = vec_math::log1p(Vec::loadu(x + i));   // as std::log1p in every lane, to 4 ulp
//   Vec r = vec_math::fmod(a, b);                  // binary functions: as std::fmod, exact
//
// Accuracy: libmvec's functions are within 4 ulp of the exact result in every lane (glibc's
// stated criterion; measured up to 3.7: float log), SLEEF's u10 functions within 1.0 ulp (its erfc,
// on 16-byte vectors: 1.5); sqrt is correctly rounded (the vector instruction); fmod is
// exact (SLEEF's, bit for bit std::fmod's, special values included). Past SLEEF's documented
// domains (sinh and cosh above 88 / 708, asinh and acosh above 1.8e19 / 1.3e154, log1p above
// 1e37 / 1e306) a lane takes std::'s value (glibc's: sinh and cosh within 1.6 ulp near
// overflow). Special values as C99's libm (NaN in, NaN out; -0.0 kept by the odd functions; inf,
// overflow and domain errors as std::), without errno. The scalar primitives
// (reference_backend/math/primitives.h) stay std:: calls, so a vector and the scalar tail of the
// same loop may differ by those bounds. PyTorch's kernels call SLEEF (u10) for all of these:
// where libmvec is used, results may differ from PyTorch's by a few ulp, well inside the
// conformance tolerances. Why not Highway's contrib math, with the measurement: docs/design/iter.md
// ("Vector math").
//
// The library functions are out of line (libsleef.so, libmvec.so). 16-byte vectors, and vectors
// tagged with the ISA their code is compiled for (Vectorized's VecIsa: the loops of loops.h tag
// theirs), are passed to them directly, in registers, as PyTorch's kernels do. Other 32- and
// 64-byte vectors may sit in code compiled for the baseline ISA, where GCC passes such vectors in
// memory while the AVX functions take them in registers; those go through a table of functions
// compiled for each ISA that take pointers (a store, an indirect call, a load: 5-15% of the
// time of exp, log or sin on 1e6 floats). An always_inline wrapper with a target attribute
// cannot replace either: GCC rejects inlining it into the baseline body it is written in.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_
#define BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_

#include <cstdint>
#include <limits>
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
// X(name, SLEEF accuracy suffix) for the functions of two vectors (f(a, b) lane by lane); exact
// functions have no suffix in SLEEF's names.
#define BP_VEC_MATH_BINARY_FUNCTIONS(X) \
  X(fmod, )
// clang-format on

namespace bp {
namespace vec_math_detail {

enum Function : int {
#define BP_VEC_MATH_ENUM(name, ulp) k_##name,
  BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_ENUM)
#undef BP_VEC_MATH_ENUM
      kNumFunctions
};
enum BinaryFunction : int {
#define BP_VEC_MATH_ENUM(name, ulp) k_##name,
  BP_VEC_MATH_BINARY_FUNCTIONS(BP_VEC_MATH_ENUM)
#undef BP_VEC_MATH_ENUM
      kNumBinaryFunctions
};

// f(in[0..n)) -> out[0..n) (in == out allowed); n a multiple of the ISA's lane count (16 bytes'
// worth for SSE2, 32 bytes' for AVX2). Binary: f(a[0..n), b[0..n)) -> out[0..n) (out may be a
// or b).
using FloatFn = void (*)(const float* in, float* out, int64_t n);
using DoubleFn = void (*)(const double* in, double* out, int64_t n);
using FloatFn2 = void (*)(const float* a, const float* b, float* out, int64_t n);
using DoubleFn2 = void (*)(const double* a, const double* b, double* out, int64_t n);
struct Table {
  FloatFn f[kNumFunctions];
  DoubleFn d[kNumFunctions];
  FloatFn2 f2[kNumBinaryFunctions];
  DoubleFn2 d2[kNumBinaryFunctions];
};
extern const Table kSse2;  // on other CPU architectures: std:: per element
extern const Table kAvx2;  // AVX2 + FMA; kSse2's functions where this build has no x86-64
// The table for vectors of 32 bytes and more: kAvx2 on CPUs with AVX2 and FMA, else kSse2 (set
// at load time; kSse2 before that). Not cpu_capability(): a call per vector cost 4% of sin's
// time, and the loops already run 16-byte vectors (kSse2) when the capability is "default".
extern constinit const Table* wide_table;
// The table for 64-byte vectors: the AVX-512F code on CPUs where dispatch_cpu uses AVX-512
// (detected_cpu_capability()), else *wide_table's, piecewise.
extern constinit const Table* widest_table;

// SLEEF's lanes that may be past its documented domain: beyond domain_limit (0 for none) in
// absolute value (or NaN) for sinh and cosh (88 / 708), asinh and acosh (1.8e19 / 1.3e154), log1p
// (1e37 / 1e306); those lanes take std::'s value (repair_lanes), so that every lane keeps the
// stated bound.
template <typename T>
constexpr T domain_limit(Function fn) {
  constexpr bool f = sizeof(T) == 4;
  switch (fn) {
    case k_sinh:
    case k_cosh:
      return f ? T(88) : T(708);
    case k_asinh:
    case k_acosh:
      return f ? T(1.8e19) : T(1.3e154);
    case k_log1p:
      return f ? T(1e37) : T(1e306);
    default:
      return T(0);  // the whole domain
  }
}
// out[k] = std::fn(in[k]) where |in[k]| > domain_limit(fn) (or NaN), for k < lanes.
void repair_lanes(Function fn, const float* in, float* out, int lanes);
void repair_lanes(Function fn, const double* in, double* out, int lanes);

// SLEEF's fmod counts the divisors to subtract in the floating type, which overflows when
// |a| / |b| nears the type's largest value: its result is then NaN or infinite (fmod(2.0f,
// 1e-45f)), where the exact one is finite unless it is NaN (a infinite or NaN, b 0 or NaN). So
// after the call, a vector with a lane that is not finite takes std::'s values (repair_lanes:
// every lane, the function being exact); vectors of those rare operands take that slower path.
// out[k] = std::fn(a[k], b[k]) for k < lanes.
void repair_lanes(BinaryFunction fn, const float* a, const float* b, float* out, int lanes);
void repair_lanes(BinaryFunction fn, const double* a, const double* b, double* out, int lanes);

// Whether the sign bit is clear in any lane of `d` (an integer vector): AND-reduces the lanes.
template <typename IRaw>
[[gnu::always_inline]] inline bool any_sign_clear(IRaw d) {
  using I = std::remove_reference_t<decltype(d[0])>;
  // Fold 16-byte pieces together first (extracts, not a store and lane loads), then the lanes
  // of the last piece by shuffles.
  typedef I IRaw16 __attribute__((vector_size(16)));
  IRaw16 folded;
  copy_bytes(&folded, &d, 16);
  for (int piece = 1; piece < static_cast<int>(sizeof(IRaw)) / 16; ++piece) {
    IRaw16 next;
    copy_bytes(&next, reinterpret_cast<const char*>(&d) + 16 * piece, 16);
    folded &= next;
  }
  if constexpr (sizeof(I) == 4) {
    folded &= __builtin_shufflevector(folded, folded, 2, 3, 0, 1);
    folded &= __builtin_shufflevector(folded, folded, 1, 0, 3, 2);
  } else {
    folded &= __builtin_shufflevector(folded, folded, 1, 0);
  }
  return folded[0] >= 0;
}

// The bits of x's lanes, sign cleared, as signed integers (ordered as |x|).
template <typename V>
[[gnu::always_inline]] inline auto magnitude_bits(V x) {
  using T = typename V::value_type;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef I IRaw __attribute__((vector_size(sizeof(T) * V::size())));
  const auto raw = x.raw();
  IRaw bits;
  copy_bytes(&bits, &raw, sizeof(bits));
  return bits & std::numeric_limits<I>::max();
}

// Whether any lane of `x` is NaN or above `limit` in absolute value, without vector comparisons
// (which GCC turns into scalar code for 64-byte vectors in baseline bodies: cpu_capability.h):
// |x| > limit exactly when its bits, sign cleared, exceed limit's as integers.
template <typename V>
[[gnu::always_inline]] inline bool any_lane_beyond(V x, typename V::value_type limit) {
  using T = typename V::value_type;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  I limit_bits;
  copy_bytes(&limit_bits, &limit, sizeof(I));
  // (|x| bits) - (limit bits + 1) is >= 0 where the lane is beyond.
  return any_sign_clear(magnitude_bits(x) - (limit_bits + 1));
}

// Whether SLEEF's fn has lanes past its domain, known from the argument (unary functions:
// any_lane_beyond domain_limit), or from the result (binary: a lane not finite).
template <typename T>
constexpr bool has_domain_limit(Function fn) {
  return domain_limit<T>(fn) != 0;
}
template <typename T>
constexpr bool has_domain_limit(BinaryFunction) {
  return false;
}
template <typename T>
constexpr bool checks_result(Function) {
  return false;
}
template <typename T>
constexpr bool checks_result(BinaryFunction) {
  return true;
}

#if defined(__x86_64__)
// SLEEF's functions, overloaded by vector type, bound to SLEEF's symbols by asm labels: sleef.h
// declares each ISA's functions only where the compiler targets that ISA.
typedef float F4 __attribute__((vector_size(16)));
typedef double D2 __attribute__((vector_size(16)));
typedef float F8 __attribute__((vector_size(32)));
typedef double D4 __attribute__((vector_size(32)));
typedef float F16 __attribute__((vector_size(64)));
typedef double D8 __attribute__((vector_size(64)));
namespace sleef {
#define BP_VEC_MATH_SLEEF(name, ulp)                           \
  F4 name(F4) __asm__("Sleef_" #name "f4_" #ulp "sse2");       \
  D2 name(D2) __asm__("Sleef_" #name "d2_" #ulp "sse2");       \
  F8 name(F8) __asm__("Sleef_" #name "f8_" #ulp "avx2");       \
  D4 name(D4) __asm__("Sleef_" #name "d4_" #ulp "avx2");       \
  F16 name(F16) __asm__("Sleef_" #name "f16_" #ulp "avx512f"); \
  D8 name(D8) __asm__("Sleef_" #name "d8_" #ulp "avx512f");
BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_SLEEF)
#undef BP_VEC_MATH_SLEEF
#define BP_VEC_MATH_SLEEF2(name, ulp)                               \
  F4 name(F4, F4) __asm__("Sleef_" #name "f4_" #ulp "sse2");        \
  D2 name(D2, D2) __asm__("Sleef_" #name "d2_" #ulp "sse2");        \
  F8 name(F8, F8) __asm__("Sleef_" #name "f8_" #ulp "avx2");        \
  D4 name(D4, D4) __asm__("Sleef_" #name "d4_" #ulp "avx2");        \
  F16 name(F16, F16) __asm__("Sleef_" #name "f16_" #ulp "avx512f"); \
  D8 name(D8, D8) __asm__("Sleef_" #name "d8_" #ulp "avx512f");
BP_VEC_MATH_BINARY_FUNCTIONS(BP_VEC_MATH_SLEEF2)
#undef BP_VEC_MATH_SLEEF2
}  // namespace sleef

// glibc's libmvec (the x86-64 vector function ABI: 'd' AVX2, 'e' AVX-512; N lanes) for the
// functions and widths where it beat SLEEF by 1.2x or more, measured on 2^18 lanes on Zen 4
// (docs/design/iter.md, "Vector math"): 1.2-7.6x faster, within libmvec's stated bound of 4 ulp
// (SLEEF: 1). SLEEF keeps exp2 on 64-byte floats and exp2 on 32-byte ones (as fast or faster;
// float exp on 64 bytes is our own, below), erf on 64-byte floats (4.0 ulp measured: at the bound),
// lgamma, sqrt and fmod (libmvec has none), and 16-byte vectors. A name without a vector type here
// is deleted: BP_VEC_MATH_PICK (below) then takes SLEEF's.
// A name a namespace below lacks is deleted there for every argument list, so that
// BP_VEC_MATH_PICK's requires-check on it fails and the pick goes on to the next library.
#define BP_VEC_MATH_DELETED(name, ulp) \
  template <typename... V>             \
  void name(V...) = delete;
namespace mvec {
BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_DELETED)
BP_VEC_MATH_BINARY_FUNCTIONS(BP_VEC_MATH_DELETED)
#define BP_VEC_MATH_MVEC_AVX2(name)           \
  F8 name(F8) __asm__("_ZGVdN8v_" #name "f"); \
  D4 name(D4) __asm__("_ZGVdN4v_" #name);
#define BP_VEC_MATH_MVEC_AVX512_DOUBLE(name) D8 name(D8) __asm__("_ZGVeN8v_" #name);
#define BP_VEC_MATH_MVEC_AVX512_FLOAT(name) F16 name(F16) __asm__("_ZGVeN16v_" #name "f");
#define BP_VEC_MATH_MVEC(name) \
  BP_VEC_MATH_MVEC_AVX2(name)  \
  BP_VEC_MATH_MVEC_AVX512_DOUBLE(name) BP_VEC_MATH_MVEC_AVX512_FLOAT(name)
BP_VEC_MATH_MVEC(expm1)
BP_VEC_MATH_MVEC(log)
BP_VEC_MATH_MVEC(log2)
BP_VEC_MATH_MVEC(log10)
BP_VEC_MATH_MVEC(log1p)
BP_VEC_MATH_MVEC(sin)
BP_VEC_MATH_MVEC(cos)
BP_VEC_MATH_MVEC(tan)
BP_VEC_MATH_MVEC(asin)
BP_VEC_MATH_MVEC(acos)
BP_VEC_MATH_MVEC(atan)
BP_VEC_MATH_MVEC(sinh)
BP_VEC_MATH_MVEC(cosh)
BP_VEC_MATH_MVEC(tanh)
BP_VEC_MATH_MVEC(asinh)
BP_VEC_MATH_MVEC(acosh)
BP_VEC_MATH_MVEC(atanh)
BP_VEC_MATH_MVEC(erfc)
BP_VEC_MATH_MVEC_AVX2(exp)
BP_VEC_MATH_MVEC_AVX512_DOUBLE(exp)
BP_VEC_MATH_MVEC_AVX512_DOUBLE(exp2)
D4 exp2(D4) __asm__("_ZGVdN4v_exp2");
BP_VEC_MATH_MVEC_AVX2(erf)
BP_VEC_MATH_MVEC_AVX512_DOUBLE(erf)
#undef BP_VEC_MATH_MVEC
#undef BP_VEC_MATH_MVEC_AVX2
#undef BP_VEC_MATH_MVEC_AVX512_DOUBLE
#undef BP_VEC_MATH_MVEC_AVX512_FLOAT
}  // namespace mvec

// Backplane's own AVX-512F code (vec_math_avx512.cc) where it beats both libraries: float exp
// (0.9 ulp; 0.8x SLEEF's time, 0.6-0.8x libmvec's) and sigmoid on 64-byte vectors. Like the
// libraries' functions, out of line and taking the vector in a register. Other names deleted.
namespace own {
BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_DELETED)
BP_VEC_MATH_BINARY_FUNCTIONS(BP_VEC_MATH_DELETED)
#undef BP_VEC_MATH_DELETED
F16 exp(F16);
// 1 / (1 + e^-x) in every lane, within 2.8 ulp (no library has it).
F16 sigmoid(F16);
}  // namespace own

// The function `name` for raw vectors: our own where there is one, else libmvec's where it has
// one, else SLEEF's. always_inline: a copy compiled on its own (baseline ISA) would pass the
// vector in memory while the function reads a register.
#define BP_VEC_MATH_PICK(name)                                                      \
  [](auto... raw) __attribute__((always_inline)) {                                  \
    if constexpr (requires { ::bp::vec_math_detail::own::name(raw...); }) {         \
      return ::bp::vec_math_detail::own::name(raw...);                              \
    } else if constexpr (requires { ::bp::vec_math_detail::mvec::name(raw...); }) { \
      return ::bp::vec_math_detail::mvec::name(raw...);                             \
    } else {                                                                        \
      return ::bp::vec_math_detail::sleef::name(raw...);                            \
    }                                                                               \
  }
#else
#define BP_VEC_MATH_PICK(name) [](auto raw, auto...) { return raw; }  // unused: no direct calls
#endif

// Whether a vector of kBytes tagged kIsa calls the library directly (see the file comment). Not in
// sanitizer builds: under ASan, golden_test reported a stack-buffer-overflow in mish's AVX2 loop
// with direct calls (2026-11-26, not yet understood; the lambdas below were not always_inline
// then, so a baseline copy of one may have taken the vector in memory); they take the tables.
template <int kBytes, VecIsa kIsa>
inline constexpr bool kDirect =
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    kBytes == 16 || (kBytes == 32 && kIsa != VecIsa::kAny) ||
    (kBytes == 64 && kIsa == VecIsa::kAvx512);
#else
    false;
#endif

// The table entry of fn for lanes of T.
template <typename T>
[[gnu::always_inline]] inline auto entry(const Table& table, Function fn) {
  if constexpr (std::is_same_v<T, float>) {
    return table.f[fn];
  } else {
    return table.d[fn];
  }
}
template <typename T>
[[gnu::always_inline]] inline auto entry(const Table& table, BinaryFunction fn) {
  if constexpr (std::is_same_v<T, float>) {
    return table.f2[fn];
  } else {
    return table.d2[fn];
  }
}

// fn(x) (unary functions) or fn(x, y) (binary) lane by lane; `direct` calls the library's function
// for the raw vector type (BP_VEC_MATH_PICK).
template <auto fn, typename T, int kBytes, VecIsa kIsa, typename Direct, typename... Rest>
[[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> call(Direct direct,
                                                               Vectorized<T, kBytes, kIsa> x,
                                                               Rest... rest) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "vec_math: float and double vectors only");
  using Vec = Vectorized<T, kBytes, kIsa>;
  static_assert((std::is_same_v<Rest, Vec> && ...) && sizeof...(Rest) <= 1);
  if constexpr (kDirect<kBytes, kIsa>) {
    typedef T Natural __attribute__((vector_size(kBytes)));  // the library's (natural alignment)
    const auto library = [&] __attribute__((always_inline)) {
      return Vec::from_raw(reinterpret_cast<typename Vec::Raw>(
          direct(reinterpret_cast<Natural>(x.raw()), reinterpret_cast<Natural>(rest.raw())...)));
    };
    if constexpr (has_domain_limit<T>(fn)) {
      // Checked before the call, so that x need not live across it on the common path.
      if (__builtin_expect(any_lane_beyond(x, domain_limit<T>(fn)), 0)) {
        T in[Vec::size()], out[Vec::size()];
        x.store(in);
        library().store(out);
        repair_lanes(fn, in, out, Vec::size());
        return Vec::loadu(out);
      }
    }
    if constexpr (checks_result<T>(fn)) {
      const Vec r = library();
      if (__builtin_expect(any_lane_beyond(r, std::numeric_limits<T>::max()), 0)) {
        T in[1 + sizeof...(Rest)][Vec::size()], out[Vec::size()];
        x.store(in[0]);
        (rest.store(in[1]), ...);
        repair_lanes(fn, in[0], in[1], out, Vec::size());
        return Vec::loadu(out);
      }
      return r;
    }
    return library();
  } else {
    const Table& table = kBytes == 64 ? *widest_table : kBytes == 32 ? *wide_table : kSse2;
    T lanes[1 + sizeof...(Rest)][Vec::size()];
    x.store(lanes[0]);
    if constexpr (sizeof...(Rest) == 0) {
      entry<T>(table, fn)(lanes[0], lanes[0], Vec::size());
    } else {
      (rest.store(lanes[1]), ...);
      entry<T>(table, fn)(lanes[0], lanes[1], lanes[0], Vec::size());
    }
    return Vec::loadu(lanes[0]);  // the table's functions repair their lanes themselves
  }
}

}  // namespace vec_math_detail

namespace vec_math {
// exp(x), log1p(x), ...: the function of every lane, as std:: (see the file comment).
#define BP_VEC_MATH_DECLARE(name, ulp)                                                            \
  template <typename T, int kBytes, VecIsa kIsa>                                                  \
  [[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> name(Vectorized<T, kBytes, kIsa> x) { \
    return vec_math_detail::call<vec_math_detail::k_##name>(BP_VEC_MATH_PICK(name), x);           \
  }
BP_VEC_MATH_FUNCTIONS(BP_VEC_MATH_DECLARE)
#undef BP_VEC_MATH_DECLARE
// fmod(a, b), ...: the function of every pair of lanes, as std::.
#define BP_VEC_MATH_DECLARE2(name, ulp)                                                           \
  template <typename T, int kBytes, VecIsa kIsa>                                                  \
  [[gnu::always_inline]] inline Vectorized<T, kBytes, kIsa> name(Vectorized<T, kBytes, kIsa> a,   \
                                                                 Vectorized<T, kBytes, kIsa> b) { \
    return vec_math_detail::call<vec_math_detail::k_##name>(BP_VEC_MATH_PICK(name), a, b);        \
  }
BP_VEC_MATH_BINARY_FUNCTIONS(BP_VEC_MATH_DECLARE2)
#undef BP_VEC_MATH_DECLARE2

// 1 / (1 + e^-x) in every lane, within 2.8 ulp, for the 64-byte float vectors that call our own
// AVX-512 code directly (vec_math_avx512.cc); no overload for other vectors, which compute the
// formula (reference_backend/math/primitives.h's sigmoid).
template <VecIsa kIsa>
requires vec_math_detail::kDirect<64, kIsa>
[[gnu::always_inline]] inline Vectorized<float, 64, kIsa> sigmoid(Vectorized<float, 64, kIsa> x) {
#if defined(__x86_64__)
  using Vec = Vectorized<float, 64, kIsa>;
  typedef float Natural __attribute__((vector_size(64)));
  return Vec::from_raw(reinterpret_cast<typename Vec::Raw>(
      vec_math_detail::own::sigmoid(reinterpret_cast<Natural>(x.raw()))));
#else
  return x;  // unreachable: kDirect is false off x86-64
#endif
}
}  // namespace vec_math

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_VEC_VEC_MATH_H_
