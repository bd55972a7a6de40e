#include "samples/gpt2/loaded_plugin.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "backplane/backplane.h"

namespace gpt2 {
namespace {

// Throws `what: <message>` for an error, destroying it.
void check(const bp_api* api, bp_error* error, const std::string& what) {
  if (error == nullptr) return;
  const std::string message = what + ": " + api->error_message(error);
  api->error_destroy(error);
  throw std::runtime_error(message);
}

std::vector<std::string> backend_names(const bp_api* api) {
  std::vector<std::string> names;
  check(api,
        api->backend_list(
            [](void* user_data, const bp_backend_info* b) {
              static_cast<std::vector<std::string>*>(user_data)->push_back(b->name);
            },
            &names),
        "listing backends");
  return names;
}

}  // namespace

LoadedPlugin::LoadedPlugin(const std::string& path) {
  const bp_api* api = bp_get_api();
  const std::vector<std::string> before = backend_names(api);
  check(api, api->plugin_load(path.c_str(), &plugin_), "loading plugin " + path);
  std::vector<std::string> added;
  for (const std::string& name : backend_names(api)) {
    if (std::find(before.begin(), before.end(), name) == before.end()) added.push_back(name);
  }
  if (added.size() != 1) {
    api->error_destroy(api->plugin_unload(plugin_));
    throw std::runtime_error("plugin " + path + " registered " + std::to_string(added.size()) +
                             " backends; expected one");
  }
  backend_name_ = added.front();
  device_ = bp::Device::parse(backend_name_ + ":0");
}

LoadedPlugin::~LoadedPlugin() {
  const bp_api* api = bp_get_api();
  api->error_destroy(api->plugin_unload(plugin_));
}

}  // namespace gpt2
