#include "sdk/iter/vec/cpu_capability.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

namespace bp {
namespace {

CpuCapability detect() {
#if defined(__x86_64__)
  // libgcc's checks include the OS's support for the wider registers (XGETBV).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
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
