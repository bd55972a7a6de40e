// Runs jitted kernels on the host: their generated source, compiled as C++ with host_shim.h
// (emulation_gen writes the sources), is called once per emulated thread, so that CI exercises the
// kernels' indexing, vectorisation and casting logic without a GPU.
//
//   EmulatedKernel k = find_emulated_kernel(launch.kernel.entry_name());
//   emulate_launch(k, {launch.blocks}, {jit::kThreads}, launch.params());
//
// Elementwise kernels (no barriers) run thread after thread. Kernels registered as cooperative
// (reductions: __syncthreads, warp shuffles) run the threads of a block concurrently, one block
// after another: as fibers of the calling thread, switched at every barrier, or (under ASan and
// TSan, which need annotations to follow fibers) on as many host threads as the block has.
//
// Thread safety: registration happens in static initialisers. Launches may overlap (an emulated
// driver runs one per stream); cooperative launches are serialised, since a block's shared memory
// is a static of the kernel's code.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATOR_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATOR_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bp::emulation {

struct EmulatedKernel {
  void (*entry)(const void* params) = nullptr;
  bool cooperative = false;
  // sizeof the parameter block the entry reads (an emulated driver copies it at launch, as
  // cuLaunchKernel does, and checks the pointers in it).
  size_t params_size = 0;
  explicit operator bool() const { return entry != nullptr; }
};

struct Dim {
  unsigned x = 1, y = 1, z = 1;
};

// Called by the generated sources' static initialisers.
bool register_emulated_kernel(const char* name, EmulatedKernel kernel);
// The kernel named `name`, or an empty EmulatedKernel.
EmulatedKernel find_emulated_kernel(std::string_view name);
// Every registered kernel's name.
std::vector<std::string> emulated_kernel_names();

void emulate_launch(const EmulatedKernel& kernel, Dim grid, Dim block, const void* params);

}  // namespace bp::emulation

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_EMULATOR_H_
