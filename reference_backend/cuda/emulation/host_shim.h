// What a jitted kernel's source needs from CUDA when it is compiled as host C++ for emulation
// (emulator.h): the thread and block indices, barriers and warp shuffles, and the few CUDA math
// functions C++ lacks. Included before the kernel source, at global scope.
//
// Barriers and shuffles are collective: emulator.h runs the threads of a block concurrently for
// kernels that use them (reductions) and one after the other for elementwise kernels.
//
// Thread safety: the indices are thread_local; the collectives are for the emulator's threads.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_HOST_SHIM_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_HOST_SHIM_H_

#include <cmath>
#include <complex>  // the portable scalar layer's host conversions
#include <cstdint>
#include <cstring>

#define __global__
#define __launch_bounds__(...)
// One block runs at a time (emulator.h), so a static local is the block's shared memory.
#define __shared__ static

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

inline thread_local dim3 threadIdx;
inline thread_local dim3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

// CUDA math functions without a C counterpart.
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
double erfinv(double y);
inline float erfinvf(float y) { return static_cast<float>(erfinv(y)); }

namespace bp::emulation {
// The block barrier and the word exchange of warp shuffles (emulator.cc).
void sync_threads();
uint32_t shuffle_word(uint32_t word, int source_lane, bool valid);
}  // namespace bp::emulation

inline void __syncthreads() { bp::emulation::sync_threads(); }

// __shfl_down_sync / __shfl_up_sync / __shfl_sync / __shfl_xor_sync for 4- and 8-byte values, word
// by word. Lanes are linear thread indices modulo 32 within the block; `width` splits the warp into
// segments.
template <typename T>
T bp_emulated_shuffle(T value, int source_lane_in_segment, int width, bool use_own) {
  static_assert(sizeof(T) % 4 == 0, "shuffles move 4-byte words");
  const int lane = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x) % 32;
  const int segment = lane / width * width;
  const int source = segment + source_lane_in_segment;
  uint32_t words[sizeof(T) / 4];
  std::memcpy(words, &value, sizeof(T));
  for (uint32_t& w : words) w = bp::emulation::shuffle_word(w, use_own ? lane : source, true);
  T out;
  std::memcpy(&out, words, sizeof(T));
  return out;
}
template <typename T>
T __shfl_down_sync(unsigned, T value, unsigned delta, int width = 32) {
  const int lane = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x) % 32 % width;
  const bool inside = lane + static_cast<int>(delta) < width;
  return bp_emulated_shuffle(value, lane + static_cast<int>(delta), width, !inside);
}
template <typename T>
T __shfl_up_sync(unsigned, T value, unsigned delta, int width = 32) {
  const int lane = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x) % 32 % width;
  const bool inside = lane >= static_cast<int>(delta);
  return bp_emulated_shuffle(value, lane - static_cast<int>(delta), width, !inside);
}
template <typename T>
T __shfl_sync(unsigned, T value, int source_lane, int width = 32) {
  return bp_emulated_shuffle(value, source_lane % width, width, false);
}
template <typename T>
T __shfl_xor_sync(unsigned, T value, int mask, int width = 32) {
  const int lane = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x) % 32 % width;
  return bp_emulated_shuffle(value, lane ^ mask, width, false);
}

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_HOST_SHIM_H_
