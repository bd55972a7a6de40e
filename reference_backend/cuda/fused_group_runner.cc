#include "reference_backend/cuda/fused_group_runner.h"

#include <optional>
#include <string>
#include <vector>

#include "reference_backend/cuda/abi.h"
#include "reference_backend/cuda/error.h"
#include "reference_backend/cuda/fused_group.h"
#include "reference_backend/cuda/fused_group_kernel.h"
#include "reference_backend/cuda/plugin_state.h"

namespace bp::cuda {
namespace {

// Runs `json` over `buffers` as one kernel; false: declined.
bool run(const char* json, bp_tensor* const* buffers, size_t nbuffers) {
  std::string why_not;
  const std::optional<FusedGroup> group = parse_fused_group(json, &why_not);
  if (!group || nbuffers != group->buffers.size()) return false;
  PluginState* s = state();
  if (s == nullptr) return false;
  std::vector<char*> data;
  CudaDevice* device = nullptr;
  for (size_t i = 0; i < nbuffers; ++i) {
    const TensorMeta m = meta_of(buffers[i]);
    const FusedBuffer& b = group->buffers[i];
    // The kernel's offsets come from the JSON: the tensors must be the ones it describes.
    if (m.device.device_type != s->device_type || m.sizes != b.sizes || m.strides != b.strides ||
        dtype_from_abi(m.dtype) != b.dtype) {
      return false;
    }
    CudaDevice& d = device_at(m.device);
    if (device != nullptr && device != &d) return false;
    device = &d;
    data.push_back(static_cast<char*>(m.data));
  }
  const FusedLaunch launch = plan_fused(*group, data);
  if (launch.blocks == 0) return true;
  const FusedKernel kernel = fused_kernel_of(*group);
  void* f = nullptr;
  try {
    f = device->kernels().get(kernel.entry_name(), [&] {
      ProgramSource program;
      program.add_text(kernel.source(), kernel.entry_name());
      return program;
    });
  } catch (const Error&) {
    // A kernel that cannot be built here (NVRTC rejected it, or the emulated driver has no host
    // build of this structure) is declined: the host then runs the group op by op, which is
    // always right. Nothing has been launched yet.
    return false;
  }
  device->launch(f, {launch.blocks}, {static_cast<unsigned>(jit::kFusedThreads)}, &launch.args);
  return true;
}

bp_error* run_group(void*, const char* group_json, bp_tensor* const* buffers, size_t nbuffers,
                    bool* accepted) {
  *accepted = false;
  return guarded([&] { *accepted = run(group_json, buffers, nbuffers); });
}

}  // namespace

const bp_fusion_fns& fusion_fns() {
  static const bp_fusion_fns fns = [] {
    bp_fusion_fns f{};
    f.struct_size = sizeof f;
    f.run_group = &run_group;
    return f;
  }();
  return fns;
}

}  // namespace bp::cuda
