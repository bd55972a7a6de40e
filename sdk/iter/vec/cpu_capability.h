// Run-time choice of the instruction set for vectorised loops (ATen's CPU_CAPABILITY, without
// compiling kernel files several times: see vectorized.h).
//
//   dispatch_cpu([&](auto width) __attribute__((always_inline)) {
//     using Vec = Vectorized<float, width>;
//     for (...) (Vec::loadu(a + i) + Vec::loadu(b + i)).store(o + i);
//   });
//
// dispatch_cpu calls `body(width)` inside a function compiled for the best ISA this CPU has
// (AVX-512, AVX2+FMA, or the x86-64 baseline SSE2), where `width` (an IsaWidth, convertible to
// int in constant expressions) is the vector width in bytes for that ISA: 32 for AVX-512 and
// AVX2, 16 for SSE2; `decltype(width)::isa` names the ISA (a VecIsa: kAvx512, kAvx2, or kAny for
// the baseline). An always_inline body, and the always_inline Vectorized operations it calls,
// are compiled for that ISA. Non-x86 builds run `body(IsaWidth<16, VecIsa::kAny>())` as is. A body
// that takes no argument is called as body().
//
// Why AVX-512 gets 32-byte vectors: GCC 12 lowers a vector comparison (and so every select,
// maximum, clamp) where the function that contains it is first compiled. That is the body
// lambda's own context, the baseline ISA, and not the AVX-512 function it is later inlined into.
// A 64-byte comparison needs AVX-512 mask registers the baseline lacks and becomes a loop of
// scalar compares (amax ran at 15% of memcpy). A 32-byte one stays a vector operation and is
// emitted as one AVX-512VL instruction. Loops bound by memory bandwidth (all but a few
// transcendental functions) lose nothing by it.
//
// The ISA is detected once. The environment variable BP_CPU_CAPABILITY (default, avx2, avx512)
// lowers it, and set_cpu_capability changes it (tests use it to run every path). AddressSanitizer
// builds stop at AVX2 and compile no AVX-512 loops: a GCC 12 bug misaligns 64-byte stack locals
// on ASan's fake stack (detect_stack_use_after_return, which CI turns on; see cpu_capability.cc),
// so those loops could not run there, and compiling them cost a fifth of each kernel's ASan build.
// ThreadSanitizer builds compile only the baseline loops: what TSan checks (how threads share an
// iterator's tiles) is the same on every ISA, and the AVX2 and AVX-512 copies made each kernel's
// TSan build take 1.8x as long.
//
// Thread safety: cpu_capability and dispatch_cpu are safe from any thread; set_cpu_capability
// is for tests and benchmarks (an atomic, but kernels running meanwhile may use either ISA).
#ifndef BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_
#define BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_

#include <string_view>
#include <type_traits>

#include "sdk/iter/vec/vectorized.h"

namespace bp {

enum class CpuCapability : int { kDefault = 0, kAvx2 = 1, kAvx512 = 2 };

// The ISA dispatch_cpu uses now.
CpuCapability cpu_capability();
// The best ISA this CPU (and OS) supports.
CpuCapability detected_cpu_capability();
// Uses `c`, capped at detected_cpu_capability(). Returns the capability now in use.
CpuCapability set_cpu_capability(CpuCapability c);
std::string_view cpu_capability_name(CpuCapability c);

// Whether this build compiles AVX2 and AVX-512 loops (see the file comment).
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#define BP_AVX2_LOOPS 1
#else
#define BP_AVX2_LOOPS 0
#endif
#if BP_AVX2_LOOPS && !defined(__SANITIZE_ADDRESS__)
#define BP_AVX512_LOOPS 1
#else
#define BP_AVX512_LOOPS 0
#endif

// The width dispatch_cpu hands out: kBytes, and the ISA of the path (a VecIsa, see
// vectorized.h), so that vectors built from it may be tagged with it (Vectorized<T, width,
// decltype(width)::isa>), and so that a body whose vectors make no comparisons can take 64-byte
// vectors on the AVX-512 path (the loops of cpu_kernel_vec do for vector ops that say so: see
// loops.h).
template <int kBytes, VecIsa kIsa>
struct IsaWidth : std::integral_constant<int, kBytes> {
  static constexpr VecIsa isa = kIsa;
};

namespace detail {
template <typename Width, typename Body>
[[gnu::always_inline]] inline void call_body(const Body& body) {
  if constexpr (std::is_invocable_v<const Body&>) {
    body();  // a body that does not take the width
  } else {
    body(Width());
  }
}
#if BP_AVX512_LOOPS
template <typename Body>
[[gnu::target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]] void run_avx512(const Body& body) {
  call_body<IsaWidth<32, VecIsa::kAvx512>>(body);  // not 64: see the file comment
}
#endif
#if BP_AVX2_LOOPS
template <typename Body>
[[gnu::target("avx2,fma")]] void run_avx2(const Body& body) {
  call_body<IsaWidth<32, VecIsa::kAvx2>>(body);
}
#endif
}  // namespace detail

template <typename Body>
void dispatch_cpu(const Body& body) {
#if BP_AVX2_LOOPS
  switch (cpu_capability()) {
    case CpuCapability::kAvx512:
#if BP_AVX512_LOOPS
      return detail::run_avx512(body);
#endif
    case CpuCapability::kAvx2:
      return detail::run_avx2(body);
    case CpuCapability::kDefault:
      break;
  }
#endif
  detail::call_body<IsaWidth<16, VecIsa::kAny>>(body);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_
