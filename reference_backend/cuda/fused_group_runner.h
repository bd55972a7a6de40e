// The plugin's fused-group hook (bp_fusion_fns, backend.h): lazy mode offers each fused group on
// a CUDA device to it, and it runs the group as one jitted kernel (fused_group_kernel.h) on the
// device's current stream, or declines it (the host then runs the group op by op through the
// plugin's own kernels, which is always correct).
//
//   backend.fusion = &fusion_fns();     // in bp_plugin_init
//
// A group is declined when parse_fused_group declines it (fused_group.h says what is taken), when
// a buffer is not on one CUDA device of the plugin, or when the buffers differ from the JSON.
// Errors (a kernel that does not compile, a failing launch) are returned as the hook's error,
// which fails the host's run.
//
// Thread safety: any thread (the device's kernel cache serialises compiles).
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_RUNNER_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_RUNNER_H_

#include "backplane/backend.h"

namespace bp::cuda {

// The hook table (static storage).
const bp_fusion_fns& fusion_fns();

}  // namespace bp::cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_FUSED_GROUP_RUNNER_H_
