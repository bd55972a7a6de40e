// Run-time choice of the instruction set for vectorised loops (ATen's CPU_CAPABILITY, without
// compiling kernel files several times: see vectorized.h).
//
//   dispatch_cpu([&](auto width) __attribute__((always_inline)) {
//     using Vec = Vectorized<float, width>;
//     for (...) (Vec::loadu(a + i) + Vec::loadu(b + i)).store(o + i);
//   });
//
// dispatch_cpu calls `body(width)` inside a function compiled for the best ISA this CPU has
// (AVX-512, AVX2+FMA, or the x86-64 baseline SSE2), where `width` (a VectorWidth, convertible to
// int in constant expressions) is that ISA's register width in bytes: 64, 32 or 16. An
// always_inline body, and the always_inline Vectorized operations it calls, are compiled for that
// ISA. Non-x86 builds run `body(VectorWidth<16>())` as is. A body that takes no argument is called
// as body().
//
// The ISA is detected once. The environment variable BP_CPU_CAPABILITY (default, avx2, avx512)
// lowers it, and set_cpu_capability changes it (tests use it to run every path). AddressSanitizer
// builds running with detect_stack_use_after_return stop at AVX2 (a GCC 12 bug misaligns 64-byte
// stack locals on ASan's fake stack; see cpu_capability.cc).
//
// Thread safety: cpu_capability and dispatch_cpu are safe from any thread; set_cpu_capability
// is for tests and benchmarks (an atomic, but kernels running meanwhile may use either ISA).
#ifndef BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_
#define BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_

#include <string_view>
#include <type_traits>

namespace bp {

enum class CpuCapability : int { kDefault = 0, kAvx2 = 1, kAvx512 = 2 };

// The ISA dispatch_cpu uses now.
CpuCapability cpu_capability();
// The best ISA this CPU (and OS) supports.
CpuCapability detected_cpu_capability();
// Uses `c`, capped at detected_cpu_capability(). Returns the capability now in use.
CpuCapability set_cpu_capability(CpuCapability c);
std::string_view cpu_capability_name(CpuCapability c);

namespace detail {
template <int kWidth, typename Body>
[[gnu::always_inline]] inline void call_body(const Body& body) {
  if constexpr (std::is_invocable_v<const Body&>) {
    body();  // a body that does not take the width
  } else {
    body(std::integral_constant<int, kWidth>());
  }
}
#if defined(__x86_64__)
template <typename Body>
[[gnu::target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]] void run_avx512(const Body& body) {
  call_body<64>(body);
}
template <typename Body>
[[gnu::target("avx2,fma")]] void run_avx2(const Body& body) {
  call_body<32>(body);
}
#endif
}  // namespace detail

template <typename Body>
void dispatch_cpu(const Body& body) {
#if defined(__x86_64__)
  switch (cpu_capability()) {
    case CpuCapability::kAvx512:
      return detail::run_avx512(body);
    case CpuCapability::kAvx2:
      return detail::run_avx2(body);
    case CpuCapability::kDefault:
      break;
  }
#endif
  detail::call_body<16>(body);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_VEC_CPU_CAPABILITY_H_
