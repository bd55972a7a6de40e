// cpu_fallback: a ready backend fallback that runs an op on the CPU for a backend lacking a
// kernel: "copy to CPU, run there, copy back".
//
//   Library lib("_");
//   lib.fallback(my_backend.key, KernelFunction::make_from_boxed(&cpu_fallback), "cpu_fallback");
//
// For each call it
// 1. copies every tensor argument (Tensor, Tensor[], Tensor?[]) that is not on the CPU to a new
//    CPU tensor: the whole storage is copied with the device's copy functions (allocator.h
//    copy_bytes), and the CPU tensor keeps the sizes, strides and offset, so any view works;
//    each storage is copied once, so arguments viewing one buffer view one CPU copy of it;
// 2. redispatches the op to the CPU key;
// 3. copies the storage of every written argument (alias annotation `(a!)`) back into the
//    original tensor's storage (growing it, and taking the CPU tensor's sizes and strides, when
//    an out= kernel resized its output), and returns the original tensor for results aliasing it;
// 4. moves other tensor results to the device of the first non-CPU tensor argument (allocated
//    with that device type's allocator).
// Errors: those of the CPU kernel (unchanged), a missing CPU kernel ("Could not run ..."), and
// missing copy functions or allocators for the device.
//
// Thread safety: as the op's CPU kernel. Copying back whole storages means a concurrent writer
// to another view of the same storage can be overwritten, as with any out-of-place emulation.
#ifndef BACKPLANE_SDK_DISPATCH_CPU_FALLBACK_H_
#define BACKPLANE_SDK_DISPATCH_CPU_FALLBACK_H_

#include <cstdint>

#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/operator_handle.h"
#include "sdk/dispatch/value.h"

namespace bp {

// A BoxedKernelFn; `user_data` is unused.
void cpu_fallback(void* user_data, const OperatorHandle& op, DispatchKeySet keys, Stack* stack);

// How many calls cpu_fallback has started in this process, on any thread (a backend's fallback
// and C kernels calling api->cpu_fallback alike): the conformance suite reports what served an
// op's calls from it. Thread safety: an atomic counter; any thread.
int64_t cpu_fallback_calls();

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_CPU_FALLBACK_H_
