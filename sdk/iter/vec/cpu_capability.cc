#include "sdk/iter/vec/cpu_capability.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

namespace bp {
namespace {

CpuCapability detect() {
#if BP_AVX2_LOOPS  // TSan builds have the baseline loops only (see the header)
  // libgcc's checks include the OS's support for the wider registers (XGETBV).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      BP_AVX512_LOOPS) {  // none in ASan or TSan builds (see the header)
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

// The capability in use, or -1 before the first query. A plain global rather than a function-local
// static: cpu_capability() runs on every kernel call, and a static's guard check costs more than
// the load.
constinit std::atomic<int> current{-1};

// Out of line so that cpu_capability() stays a load and a test (from_env's string would give it a
// stack protector and saved registers).
[[gnu::noinline, gnu::cold]] CpuCapability initialize_current() {
  int unset = -1;
  current.compare_exchange_strong(unset, static_cast<int>(from_env(detected_cpu_capability())),
                                  std::memory_order_relaxed);
  return static_cast<CpuCapability>(current.load(std::memory_order_relaxed));
}

}  // namespace

CpuCapability detected_cpu_capability() {
  static const CpuCapability detected = detect();
  return detected;
}

CpuCapability cpu_capability() {
  const int c = current.load(std::memory_order_relaxed);
  return c >= 0 ? static_cast<CpuCapability>(c) : initialize_current();
}

CpuCapability set_cpu_capability(CpuCapability c) {
  const CpuCapability used = std::min(c, detected_cpu_capability());
  current.store(static_cast<int>(used), std::memory_order_relaxed);
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
