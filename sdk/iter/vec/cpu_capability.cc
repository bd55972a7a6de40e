#include "sdk/iter/vec/cpu_capability.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer's run-time switch for its fake stack
// (ASAN_OPTIONS=detect_stack_use_after_return).
extern "C" int __asan_option_detect_stack_use_after_return __attribute__((weak));
#endif

namespace bp {
namespace {

// Whether AVX-512 code may run. GCC 12's AddressSanitizer lays out a frame with 64-byte aligned
// locals for the real stack's alignment, then, with detect_stack_use_after_return, places it on
// its fake stack 32 bytes off: AVX-512 code faults on aligned stores to its vector locals. Such
// builds use AVX2 at most (32-byte locals are unaffected).
bool avx512_frames_work() {
#if defined(__SANITIZE_ADDRESS__)
  return &__asan_option_detect_stack_use_after_return == nullptr ||
         __asan_option_detect_stack_use_after_return == 0;
#else
  return true;
#endif
}

CpuCapability detect() {
#if defined(__x86_64__)
  // libgcc's checks include the OS's support for the wider registers (XGETBV).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      avx512_frames_work()) {
    return CpuCapability::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::kAvx2;
#endif
  return CpuCapability::kDefault;
}

CpuCapability from_env(CpuCapability detected) {
  const char* env = std::getenv("BP_CPU_CAPABILITY");
  if (env == nullptr) return detected;
  const std::string value(env);
  CpuCapability wanted = detected;
  if (value == "default") wanted = CpuCapability::kDefault;
  if (value == "avx2") wanted = CpuCapability::kAvx2;
  if (value == "avx512") wanted = CpuCapability::kAvx512;
  return std::min(wanted, detected);
}

std::atomic<CpuCapability>& current() {
  static std::atomic<CpuCapability> capability(from_env(detected_cpu_capability()));
  return capability;
}

}  // namespace

CpuCapability detected_cpu_capability() {
  static const CpuCapability detected = detect();
  return detected;
}

CpuCapability cpu_capability() { return current().load(std::memory_order_relaxed); }

CpuCapability set_cpu_capability(CpuCapability c) {
  const CpuCapability used = std::min(c, detected_cpu_capability());
  current().store(used, std::memory_order_relaxed);
  return used;
}

std::string_view cpu_capability_name(CpuCapability c) {
  switch (c) {
    case CpuCapability::kAvx512:
      return "avx512";
    case CpuCapability::kAvx2:
      return "avx2";
    case CpuCapability::kDefault:
      break;
  }
  return "default";
}

}  // namespace bp
