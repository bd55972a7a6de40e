// LoadedPlugin: a Backplane plugin (.so) loaded into this process, and the device of the backend
// it registered, for running C++ API code (bp:: ops) on it.
//
//   LoadedPlugin toy("samples/c_plugin/libtoy_plugin.so");
//   bp::Tensor x = bp::_to_copy(cpu_tensor, std::nullopt, toy.device());   // on "toy:0"
//
// The plugin is loaded with the C ABI's plugin_load (bp_get_api()), which must be the copy linked
// into this program, the one behind the C++ API: see //samples:in_process_c_api.
//
// Thread safety: construct and destroy on one thread, with no op running on the plugin's device.
#ifndef BACKPLANE_SAMPLES_GPT2_LOADED_PLUGIN_H_
#define BACKPLANE_SAMPLES_GPT2_LOADED_PLUGIN_H_

#include <string>

#include "sdk/core/device.h"

struct bp_plugin;

namespace gpt2 {

class LoadedPlugin {
 public:
  // Loads the plugin at `path` and picks the one backend it registered. Throws std::runtime_error
  // with the host's message when the load fails ("cannot load plugin 'p': no such file", "...
  // CUDA unavailable: ...") or when the plugin registered no backend or several.
  explicit LoadedPlugin(const std::string& path);
  // Unloads the plugin: tensors on its device must be gone by then.
  ~LoadedPlugin();
  LoadedPlugin(const LoadedPlugin&) = delete;
  LoadedPlugin& operator=(const LoadedPlugin&) = delete;

  const std::string& backend_name() const { return backend_name_; }  // "toy"
  bp::Device device() const { return device_; }                      // its device 0

 private:
  bp_plugin* plugin_ = nullptr;
  std::string backend_name_;
  bp::Device device_;
};

}  // namespace gpt2

#endif  // BACKPLANE_SAMPLES_GPT2_LOADED_PLUGIN_H_
