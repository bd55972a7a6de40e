// What a test sets before it loads the reference CUDA plugin over the emulated driver and NVRTC
// (no GPU): the runfiles paths of the three libraries, and the environment the plugin reads.
//
//   // data = [the plugin, :libbackplane_emulated_cuda.so,
//   //...nvrtc:libbackplane_emulated_nvrtc.so] static void SetUpTestSuite() {
//   bp::emulated_cuda::use_emulated_cuda(); } api->plugin_load(bp::emulated_cuda::kCudaPlugin,
//   &plugin); dlopen(bp::emulated_cuda::kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD);   // the plugin's
//   copy
//
// Test-only. Not thread-safe: it calls setenv, so call it before any thread starts (SetUp or
// SetUpTestSuite).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_EMULATED_ENVIRONMENT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_EMULATED_ENVIRONMENT_H_

namespace bp::emulated_cuda {

// Paths relative to a test's runfiles directory (its working directory under `bazel test`).
inline constexpr char kCudaPlugin[] = "reference_backend/cuda/libbackplane_cuda.so";
inline constexpr char kEmulatedDriver[] =
    "reference_backend/cuda/emulation/driver/libbackplane_emulated_cuda.so";
inline constexpr char kEmulatedNvrtc[] =
    "reference_backend/cuda/emulation/nvrtc/libbackplane_emulated_nvrtc.so";

// Points $BP_CUDA_DRIVER and $BP_CUDA_NVRTC at the emulated libraries, and the plugin's kernel
// cache ($BP_KERNEL_CACHE_DIR) at "kernels" under $TEST_TMPDIR (else /tmp), so that a test
// neither reads nor fills the user's cache. $BP_CUDA_CUBLAS is left to the test (the emulated
// driver exports the emulated cuBLAS: set it to kEmulatedDriver to use it).
void use_emulated_cuda();

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_EMULATED_ENVIRONMENT_H_
