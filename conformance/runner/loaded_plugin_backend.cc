#include "conformance/runner/loaded_plugin_backend.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "backplane/backplane.h"
#include "sdk/c_api/handle_ledger.h"
#include "sdk/core/error.h"

namespace bp::conformance {
namespace {

struct BackendRecord {
  std::string name, plugin_name, key;
  int32_t device_type;
};

void collect(void* user_data, const bp_backend_info* b) {
  static_cast<std::vector<BackendRecord>*>(user_data)->push_back(
      {b->name, b->plugin_name, b->dispatch_key, b->device_type});
}

// Throws `what` with the error's message, destroying the error.
void check(const bp_api* api, bp_error* error, const std::string& what) {
  if (error == nullptr) return;
  std::string message = what + ": " + api->error_message(error);
  api->error_destroy(error);
  throw std::runtime_error(message);
}

std::vector<BackendRecord> list_backends(const bp_api* api) {
  std::vector<BackendRecord> all;
  check(api, api->backend_list(&collect, &all), "listing backends");
  return all;
}

bool listed(const std::vector<BackendRecord>& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const BackendRecord& b) { return b.name == name; });
}

// The backends of `after` that are not in `before`: the ones the plugin registered.
std::vector<BackendRecord> added(const std::vector<BackendRecord>& before,
                                 const std::vector<BackendRecord>& after) {
  std::vector<BackendRecord> out;
  for (const BackendRecord& b : after) {
    if (!listed(before, b.name)) out.push_back(b);
  }
  return out;
}

std::string names_of(const std::vector<BackendRecord>& list) {
  std::string out;
  for (const BackendRecord& b : list) out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

// The backend to test among those the plugin registered.
BackendRecord choose(const std::vector<BackendRecord>& registered, const std::string& wanted,
                     const std::string& path) {
  if (registered.empty()) throw std::runtime_error("plugin " + path + " registered no backend");
  if (wanted.empty()) {
    if (registered.size() == 1) return registered.front();
    throw std::runtime_error("plugin " + path + " registered several backends (" +
                             names_of(registered) + "): choose one with --device NAME");
  }
  for (const BackendRecord& b : registered) {
    if (b.name == wanted) return b;
  }
  throw std::runtime_error("plugin " + path + " registered no backend '" + wanted +
                           "' (it registered: " + names_of(registered) + ")");
}

}  // namespace

struct CAbiBackend::Ledger {
  c_api::HandleLedgerScope on;
};

CAbiBackend::CAbiBackend() : ledger_(std::make_unique<Ledger>()) {}
CAbiBackend::~CAbiBackend() = default;

HandleCounts CAbiBackend::handles() const {
  const c_api::HandleLedgerTotals t = c_api::handle_ledger_totals();
  return HandleCounts{t.created, t.released, t.returned, t.leaked, t.over_released};
}

std::vector<std::string> CAbiBackend::take_handle_problems() const {
  return c_api::take_handle_problems();
}

void CAbiBackend::synchronize() const {
  const bp_api* api = bp_get_api();
  const Device d = device();
  const bp_device device{static_cast<int32_t>(d.type), d.index};
  bp_stream* stream = nullptr;  // borrowed
  bp_error* error = api->stream_current(device, &stream);
  if (error == nullptr) error = api->stream_synchronize(stream);
  if (error == nullptr) return;
  // The hook's code and message, as the dispatcher reports a kernel's error.
  const std::string message = name() + ": synchronize: " + api->error_message(error);
  const auto code = static_cast<ErrorCode>(api->error_code(error));
  api->error_destroy(error);
  throw Error(code, message);
}

LoadedPluginBackend::LoadedPluginBackend(const std::string& path, const std::string& backend_name) {
  const bp_api* api = bp_get_api();
  const std::vector<BackendRecord> before = list_backends(api);
  check(api, api->plugin_load(path.c_str(), &plugin_), "cannot test plugin " + path);
  try {
    const BackendRecord b = choose(added(before, list_backends(api)), backend_name, path);
    const std::optional<DispatchKey> key = dispatch_key_from_name(b.key);
    if (!key) throw std::runtime_error("backend '" + b.name + "': unknown key " + b.key);
    name_ = b.name;
    device_ = Device(static_cast<DeviceType>(b.device_type), 0);
    key_ = *key;
    description_ = "plugin " + (b.plugin_name.empty() ? path : b.plugin_name) + " (" + path +
                   "), dispatch key " + b.key;
    count_transfers(device_.type);
  } catch (...) {
    api->error_destroy(api->plugin_unload(plugin_));
    throw;
  }
}

LoadedPluginBackend::~LoadedPluginBackend() {
  stop_counting_transfers(device_.type);
  const bp_api* api = bp_get_api();
  api->error_destroy(api->plugin_unload(plugin_));
}

PluginDebugChecks::PluginDebugChecks(bool enabled) : enabled_(enabled) {
  if (enabled_) bp_get_api()->set_debug_checks(true);
}

PluginDebugChecks::~PluginDebugChecks() {
  if (enabled_) bp_get_api()->set_debug_checks(false);
}

void print_plugin_loads(std::ostream& out) {
  const bp_api* api = bp_get_api();
  struct Visit {
    std::ostream& out;
    int count = 0;
  } visit{out};
  auto print = [](void* user_data, const bp_plugin_load_record* r) {
    auto& v = *static_cast<Visit*>(user_data);
    ++v.count;
    const std::string versions =
        r->plugin_major < 0
            ? "host C ABI " + std::to_string(r->host_major) + "." + std::to_string(r->host_minor)
            : "built against C ABI " + std::to_string(r->plugin_major) + "." +
                  std::to_string(r->plugin_minor) + "; host " + std::to_string(r->host_major) +
                  "." + std::to_string(r->host_minor);
    if (r->loaded) {
      v.out << "loaded  " << r->plugin_name << "  " << r->path << "  (" << versions << ")\n";
    } else {
      v.out << "failed  " << r->path << ": " << r->error << " (" << versions << ")\n";
    }
  };
  check(api, api->plugin_load_records(print, &visit), "cannot list plugin loads");
  if (visit.count == 0)
    out << "no plugin load attempts (plugins load from $BP_PLUGINS or --backend PATH)\n";
}

}  // namespace bp::conformance
