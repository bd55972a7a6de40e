// Fused-group runners: how a device backend takes a whole fused group and compiles it itself
// (one kernel per group) instead of having the host split it into op calls.
//
//   RegistrationHandle h = register_group_runner(npu_type,
//       [](std::string_view group_json, absl::Span<const Tensor> buffers) {
//         return my_compiler.run(group_json, buffers);   // false: "split it into ops"
//       });
//
// A runner gets the group as JSON (group_json.h: the IR of the group's nodes, their index ranges
// and loads) and its buffers: the outside tensors the group reads, in the JSON's buffer order,
// then the root's result, which the runner writes. It returns true when it ran the group, false
// to let the host run it op by op; it throws to report a failure. The C ABI's bp_fusion_fns
// (backend.h) registers one for a plugin backend.
//
// Thread safety: registration and lookup take a mutex; a runner may be called from any thread.
// Ownership: the handle undoes the registration.
#ifndef BACKPLANE_SDK_FUSION_GROUP_RUNNERS_H_
#define BACKPLANE_SDK_FUSION_GROUP_RUNNERS_H_

#include <functional>
#include <memory>
#include <string_view>

#include "absl/types/span.h"
#include "sdk/core/device.h"
#include "sdk/core/tensor.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::fusion {

using GroupRunner =
    std::function<bool(std::string_view group_json, absl::Span<const Tensor> buffers)>;

// Registers `runner` for devices of `type` (a newer registration replaces an older one until
// it is undone). Errors: a null runner.
RegistrationHandle register_group_runner(DeviceType type, GroupRunner runner);

// The runner for `type`, or null.
std::shared_ptr<const GroupRunner> find_group_runner(DeviceType type);

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_GROUP_RUNNERS_H_
