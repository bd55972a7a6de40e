// The module image the emulated NVRTC produces and the emulated driver loads: text, the magic
// line, "// target <arch>", then one "entry <name>" line per __global__ entry point:
//
//   // backplane emulated CUDA module
//   // target sm_90
//   entry bp_add_float32_vec4
//
// Thread safety: constants only.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_IMAGE_FORMAT_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_IMAGE_FORMAT_H_

namespace bp::emulated_cuda {

inline constexpr const char* kEmulatedImageMagic = "// backplane emulated CUDA module\n";
inline constexpr const char* kEmulatedImageEntry = "entry ";

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_IMAGE_FORMAT_H_
