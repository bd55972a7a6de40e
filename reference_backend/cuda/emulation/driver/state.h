// The emulated driver's process state: counters (shared with fork()ed children), armed faults,
// and the explanation of the last error on this thread. Used by every part of the driver.
//
// Thread safety: all members are atomics or guarded; any thread.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STATE_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STATE_H_

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace bp::emulated_cuda {

// Counters of work, in MAP_SHARED memory so that the children of an isolated run add to the
// parent's numbers.
struct SharedCounters {
  std::atomic<int64_t> launches{0};
  std::atomic<int64_t> bytes_host_to_device{0};
  std::atomic<int64_t> bytes_device_to_host{0};
  std::atomic<int64_t> bytes_device_to_device{0};
  std::atomic<int64_t> allocations{0};
  std::atomic<int64_t> modules_loaded{0};
  std::atomic<int64_t> faults_fired{0};
  std::atomic<int64_t> substituted_launches{0};
  std::atomic<int64_t> cublas_gemms{0};
};
SharedCounters& shared_counters();

enum class Fault { kAlloc, kLaunch, kHandle, kCublas, kCount };
// Arms `fault` to fire on the n-th call of should_fail(fault) from now and every call after it
// (0 disarms).
void arm(Fault fault, int64_t n);
// Whether this call is the one an armed fault fires on (then counted in faults_fired).
bool should_fail(Fault fault);

// Records why `result` is being returned, for cuGetErrorString and bp_emulated_cuda_last_error
// (also written to stderr, prefixed "emulated CUDA driver: "). Returns `result`.
CUresult fail(CUresult result, const std::string& why);
// The explanation fail() recorded last on this thread, if it was for `result`; else "".
const std::string& explanation_for(CUresult result);
const std::string& last_explanation();

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STATE_H_
