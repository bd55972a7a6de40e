#include "sdk/c_api/plugin_version.h"

#include "backplane/api.h"

namespace bp::c_api {

std::string plugin_version_refusal(const std::string& who, int32_t major, int32_t minor) {
  const std::string plugin = std::to_string(major) + "." + std::to_string(minor);
  const std::string host = std::to_string(BP_API_MAJOR) + "." + std::to_string(BP_API_MINOR);
  if (major != BP_API_MAJOR) {
    return who + " was built against Backplane C ABI " + plugin + " but this host provides " +
           host + ": the major versions must match (rebuild the plugin)";
  }
  if (minor > BP_API_MINOR) {
    return who + " was built against Backplane C ABI " + plugin + ", newer than this host's " +
           host + ": upgrade Backplane";
  }
  return "";
}

}  // namespace bp::c_api
