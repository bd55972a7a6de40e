/* The emulated CUDA driver's own entry points, next to the driver API it exports: its counters
 * and fault injection, for tests and for the record of a run. A test reaches them with
 * dlopen(<the same path as $BP_CUDA_DRIVER>) + dlsym, which returns the copy the plugin loaded.
 *
 *   bp_emulated_cuda_counters c;
 *   bp_emulated_cuda_get_counters(&c);          // c.launches, c.live_allocations, ...
 *   bp_emulated_cuda_inject("alloc", 3);        // cuMemAlloc fails (OOM) from the 3rd call on
 *   bp_emulated_cuda_inject("alloc", 0);        // disarmed
 *
 * Faults (each fires on the n-th matching call from now, n >= 1, and on every matching call
 * after it until disarmed with n = 0):
 *   "alloc"    cuMemAlloc returns CUDA_ERROR_OUT_OF_MEMORY
 *   "launch"   cuLaunchKernel returns CUDA_ERROR_LAUNCH_FAILED
 *   "handle"   the call's handle argument (stream, function, module, event, context) is treated
 *              as invalid: CUDA_ERROR_INVALID_HANDLE
 *   "cublas"   cublasGemmStridedBatchedEx (the emulated cuBLAS) returns
 *              CUBLAS_STATUS_NOT_SUPPORTED
 * The same faults can be armed from the environment for a whole process:
 * BP_EMULATED_CUDA_FAULT="alloc:3" (comma-separated list).
 *
 * Thread safety: every function may be called from any thread. Counters of work (launches,
 * bytes, allocations made) are shared with fork()ed children, which is where an isolated
 * conformance run does its work; live allocations and peak bytes are the calling process's. */
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_CONTROL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_CONTROL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bp_emulated_cuda_counters {
  /* this process and its fork()ed children */
  int64_t launches;
  int64_t bytes_host_to_device;
  int64_t bytes_device_to_host;
  int64_t bytes_device_to_device;
  int64_t allocations; /* cuMemAlloc calls that succeeded */
  int64_t modules_loaded;
  int64_t faults_fired;
  /* launches that ran a stand-in kernel (substitutes.h) */
  int64_t substituted_launches;
  /* this process */
  int64_t live_allocations;
  int64_t live_bytes;
  int64_t peak_bytes;
  /* products queued through the emulated cuBLAS (cublas_api.cc), this process and its children */
  int64_t cublas_gemms;
} bp_emulated_cuda_counters;

void bp_emulated_cuda_get_counters(bp_emulated_cuda_counters* out);
/* Arms `fault` (see above) to fire from the n-th matching call from now on (0 disarms). Returns
 * 0, or -1 for an unknown fault name. */
int bp_emulated_cuda_inject(const char* fault, int64_t n);
/* The last error the driver explained (what was wrong, beyond the CUresult), or "". */
const char* bp_emulated_cuda_last_error(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_CONTROL_H_ */
