#include "reference_backend/cuda/emulation/driver/state.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace bp::emulated_cuda {
namespace {

std::atomic<int64_t> g_armed[static_cast<int>(Fault::kCount)];

thread_local CUresult t_last_result = CUDA_SUCCESS;
thread_local std::string t_last_explanation;

// BP_EMULATED_CUDA_FAULT="alloc:3,launch:1", read once at load.
const bool kFaultsFromEnvironment = [] {
  const char* env = std::getenv("BP_EMULATED_CUDA_FAULT");
  if (env == nullptr) return true;
  std::string spec = env;
  size_t start = 0;
  while (start < spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    const size_t colon = item.find(':');
    const std::string name = item.substr(0, colon);
    const int64_t n = colon == std::string::npos ? 1 : std::atoll(item.c_str() + colon + 1);
    if (name == "alloc") {
      arm(Fault::kAlloc, n);
    } else if (name == "launch") {
      arm(Fault::kLaunch, n);
    } else if (name == "handle") {
      arm(Fault::kHandle, n);
    } else if (name == "cublas") {
      arm(Fault::kCublas, n);
    } else {
      std::fprintf(stderr,
                   "emulated CUDA driver: BP_EMULATED_CUDA_FAULT names '%s', not alloc, "
                   "launch, handle or cublas; ignored\n",
                   name.c_str());
    }
    start = end + 1;
  }
  return true;
}();

}  // namespace

SharedCounters& shared_counters() {
  static SharedCounters* counters = [] {
    void* memory = mmap(nullptr, sizeof(SharedCounters), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return new SharedCounters();  // counts this process only
    return new (memory) SharedCounters();
  }();
  return *counters;
}

void arm(Fault fault, int64_t n) { g_armed[static_cast<int>(fault)].store(n); }

bool should_fail(Fault fault) {
  // Counts down to 1, then stays there: every call from the n-th on fails (a device out of
  // memory stays out of memory, and the allocator's retry must fail too).
  std::atomic<int64_t>& armed = g_armed[static_cast<int>(fault)];
  int64_t n = armed.load();
  while (n > 1) {
    if (armed.compare_exchange_weak(n, n - 1)) return false;
  }
  if (n != 1) return false;
  shared_counters().faults_fired.fetch_add(1);
  return true;
}

CUresult fail(CUresult result, const std::string& why) {
  t_last_result = result;
  t_last_explanation = why;
  std::fprintf(stderr, "emulated CUDA driver: %s\n", why.c_str());
  return result;
}

const std::string& explanation_for(CUresult result) {
  static const std::string kNone;
  return result == t_last_result ? t_last_explanation : kNone;
}

const std::string& last_explanation() { return t_last_explanation; }

}  // namespace bp::emulated_cuda
