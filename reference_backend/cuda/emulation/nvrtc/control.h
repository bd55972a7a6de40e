/* The emulated NVRTC's own entry point (libbackplane_emulated_nvrtc.so, loaded by the plugin
 * when $BP_CUDA_NVRTC names it): fault injection for tests, reached with dlopen of the same path
 * + dlsym.
 *
 *   bp_emulated_nvrtc_fail_compile(2);   // nvrtcCompileProgram fails from the 2nd call on
 *   bp_emulated_nvrtc_fail_compile(0);   // disarmed
 *
 * The environment can arm it for a whole process: BP_EMULATED_NVRTC_FAIL=2.
 *
 * Thread safety: any thread. */
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_NVRTC_CONTROL_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_NVRTC_CONTROL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compiles fail with NVRTC_ERROR_COMPILATION from the n-th one from now on (0 disarms). */
void bp_emulated_nvrtc_fail_compile(int64_t n);
/* Compiles so far (this process). */
int64_t bp_emulated_nvrtc_compiles(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_NVRTC_CONTROL_H_ */
