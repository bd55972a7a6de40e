#include "reference_backend/cuda/launch.h"

namespace bp::cuda {
namespace {

// A kernel that is an entry point of its own (reductions, scans, normalisations), compiled on
// first use.
template <typename Kernel>
void* entry_point(CudaDevice& device, const Kernel& kernel) {
  return device.kernels().get(kernel.entry_name(), [&] {
    ProgramSource program;
    program.add_text(kernel.source(), kernel.entry_name());
    return program;
  });
}

}  // namespace

void run_elementwise(CudaDevice& device, const ElementwiseLaunch& launch) {
  if (launch.blocks == 0) return;
  void* f = device.kernels().get(launch.kernel.entry_name(), [&] {
    ProgramSource program;
    program.add(launch.kernel);
    return program;
  });
  device.launch(f, {launch.blocks}, {static_cast<unsigned>(jit::kThreads)}, launch.params());
}

void run_reduce(CudaDevice& device, const ReduceLaunch& launch) {
  if (launch.grid_x == 0) return;
  void* f = entry_point(device, launch.kernel);
  jit::ReduceArgs args = launch.args;
  void* workspace = nullptr;
  if (launch.chunks > 1) {
    workspace = device.allocator().allocate(launch.partial_bytes);
    args.partials = static_cast<char*>(workspace);
  }
  device.launch(f, {launch.grid_x, launch.chunks}, {launch.block_x, launch.block_y}, &args);
  if (launch.chunks > 1) {
    args.mode = 2;  // kFinalize (jit/reduce.cuh)
    device.launch(f, {launch.grid_x, 1}, {launch.block_x, launch.block_y}, &args);
    // Freed blocks are only reused by work queued later on the same stream; with several
    // streams, by any of them (device.h): wait for the finalisation first then.
    if (device.has_streams()) device.synchronize_all();
    device.allocator().deallocate(workspace);
  }
}

void run_along_dim(CudaDevice& device, const AlongDimLaunch& launch) {
  if (launch.grid_x == 0) return;
  void* f = entry_point(device, launch.kernel);
  device.launch(f, {launch.grid_x}, {static_cast<unsigned>(jit::kLineThreads)}, &launch.args);
}

}  // namespace bp::cuda
