// LoadedPluginBackend: the backend of a C-ABI plugin (a shared library built against
// sdk/include/backplane), loaded into this process through the C ABI's plugin_load, as
// `backplane-conformance --backend path/to/plugin.so [--device NAME]` tests it.
//
//   LoadedPluginBackend b("/opt/npu/libnpu_plugin.so", "");  // its only backend
//   run_suite(op_database(), b, options);
//
// The plugin's copy functions are wrapped by transfer counters, so the report says how many
// bytes ops moved between host and device (the CPU fallback's copies included).
//
// Thread safety: construction and destruction on one thread, with no op of the backend running.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_LOADED_PLUGIN_BACKEND_H_
#define BACKPLANE_CONFORMANCE_RUNNER_LOADED_PLUGIN_BACKEND_H_

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "conformance/runner/backend.h"

struct bp_plugin;

namespace bp::conformance {

// A backend whose kernels come through the C ABI (a loaded plugin, or an in-process test
// backend registered with bp_get_api()): while it lives, the C ABI's handle ledger
// (sdk/c_api/handle_ledger.h) counts the tensor references its kernels create and release, and
// reports leaks and over-releases.
class CAbiBackend : public Backend {
 public:
  CAbiBackend();
  ~CAbiBackend() override;
  CAbiBackend(const CAbiBackend&) = delete;
  CAbiBackend& operator=(const CAbiBackend&) = delete;

  HandleCounts handles() const override;
  std::vector<std::string> take_handle_problems() const override;
  // api->stream_synchronize on the device's current stream (as device_synchronize when the
  // backend has no stream hooks).
  void synchronize() const override;

 private:
  struct Ledger;
  std::unique_ptr<Ledger> ledger_;
};

class LoadedPluginBackend final : public CAbiBackend {
 public:
  // Loads the plugin at `path` and tests its backend named `backend_name` ("": the only
  // backend the plugin registered). Throws std::runtime_error naming the path when the load
  // fails (with the plugin's own error, e.g. "CUDA unavailable: ..."), when the plugin
  // registered no backend, several and `backend_name` is empty, or none named `backend_name`.
  // The plugin is unloaded again on failure.
  LoadedPluginBackend(const std::string& path, const std::string& backend_name);
  // Restores the plugin's copy functions and unloads the plugin.
  ~LoadedPluginBackend() override;
  LoadedPluginBackend(const LoadedPluginBackend&) = delete;
  LoadedPluginBackend& operator=(const LoadedPluginBackend&) = delete;

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  Device device() const override { return device_; }
  DispatchKey key() const override { return key_; }
  Transfers transfers() const override { return transfers_of(device_.type); }

 private:
  bp_plugin* plugin_ = nullptr;
  std::string name_;
  std::string description_;
  Device device_;
  DispatchKey key_;
};

// The C ABI's debug mode (bp_api.set_debug_checks) while alive, when `enabled`: every plugin
// kernel's results are checked against the op's meta function.
class PluginDebugChecks {
 public:
  explicit PluginDebugChecks(bool enabled);
  ~PluginDebugChecks();
  PluginDebugChecks(const PluginDebugChecks&) = delete;
  PluginDebugChecks& operator=(const PluginDebugChecks&) = delete;

 private:
  bool enabled_;
};

// Prints every plugin load attempt of this process, one line each: the plugins listed in
// $BP_PLUGINS (loaded at the C ABI's first use, which this call is if nothing came first) and
// those loaded since. For example:
//   loaded  cplug  lib/libcplug.so  (built against C ABI 0.5; host 0.5)
//   failed  lib/libold.so: incompatible C ABI ... (built against C ABI 1.0; host 0.1)
// Or "no plugin load attempts" when there were none.
void print_plugin_loads(std::ostream& out);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_LOADED_PLUGIN_BACKEND_H_
