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

void run_reduce(CudaDevice& device, const ReduceGroup& group) {
  void* workspace = nullptr;
  if (group.partial_bytes > 0) workspace = device.allocator().allocate(group.partial_bytes);
  const std::vector<ReduceStep> steps = reduce_steps(group, static_cast<char*>(workspace));
  void* f = steps.empty() ? nullptr : entry_point(device, group.parts[0].launch.kernel);
  for (const ReduceStep& step : steps) {
    device.launch(f, {step.grid_x, step.grid_y}, {step.block_x, step.block_y}, &step.args);
  }
  if (workspace != nullptr) {
    // Freed blocks are only reused by work queued later on the same stream; with several
    // streams, by any of them (device.h): wait for the last step first then.
    if (device.has_streams()) device.synchronize_all();
    device.allocator().deallocate(workspace);
  }
}

void run_reduce(CudaDevice& device, const ReduceLaunch& launch) {
  run_reduce(device, group_of(launch));
}

void run_reduce(CudaDevice& device, std::span<const ReduceGroup> groups) {
  for (const ReduceGroup& group : groups) run_reduce(device, group);
}

void run_along_dim(CudaDevice& device, const AlongDimLaunch& launch) {
  if (launch.grid_x == 0) return;
  void* f = entry_point(device, launch.kernel);
  device.launch(f, {launch.grid_x}, {static_cast<unsigned>(jit::kLineThreads)}, &launch.args);
}

void run_gemm(CudaDevice& device, const GemmLaunch& launch) {
  if (launch.grid_x == 0) return;
  void* f = entry_point(device, launch.kernel);
  const unsigned tile = static_cast<unsigned>(jit::kGemmTile);
  device.launch(f, {launch.grid_x, launch.grid_y, launch.grid_z}, {tile, tile}, &launch.args);
}

void run_indexing(CudaDevice& device, const IndexLaunch& launch) {
  if (launch.grid_x == 0) return;
  void* f = entry_point(device, launch.kernel);
  device.launch(f, {launch.grid_x}, {static_cast<unsigned>(jit::kIndexThreads)}, &launch.args);
}

}  // namespace bp::cuda
