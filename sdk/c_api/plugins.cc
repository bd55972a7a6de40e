#include "sdk/c_api/plugins.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "sdk/c_api/backends.h"
#include "sdk/c_api/error.h"
#include "sdk/c_api/install.h"
#include "sdk/c_api/logging.h"
#include "sdk/c_api/plugin_version.h"
#include "sdk/c_api/structs.h"
#include "sdk/core/warning.h"

namespace bp::c_api {
namespace {

// A dlopen handle, dlclosed when the last owner (the plugin, its backends' live memory) goes.
class Library {
 public:
  explicit Library(void* handle) : handle_(handle) {}
  ~Library() { ::dlclose(handle_); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  void* handle() const { return handle_; }

 private:
  void* handle_;
};

struct Plugin {
  uint64_t id;
  std::string path;
  bp_plugin_desc desc;
  std::shared_ptr<Library> library;
};

struct LoadRecord {
  std::string path;
  std::string plugin_name;
  bool loaded = false;
  int32_t error_code = 0;
  std::string error;
  int32_t plugin_major = -1;
  int32_t plugin_minor = -1;
};

struct Registry {
  std::mutex load_mutex;  // one load or unload at a time
  std::mutex mutex;       // guards the maps below
  std::map<uint64_t, std::unique_ptr<Plugin>> plugins;
  std::vector<LoadRecord> records;
  uint64_t next_id = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: plugins stay loaded until exit
  return *r;
}

std::atomic<const bp_api*> host_api{nullptr};

[[noreturn]] void fail(ErrorCode code, std::string message) {
  detail::throw_error(code, std::move(message));
}

// ---- Load probe (BP_PLUGIN_LOAD_TIMEOUT) --------------------------------------------------
// With BP_PLUGIN_LOAD_TIMEOUT=N (seconds, > 0; 0 or unset: off), each load first runs dlopen and
// bp_plugin_init in a forked child: a plugin whose init crashes, exits or does not return within N
// s is refused with an error naming it, and the host process never runs its init. Off by default in
// the library (a fork in a host that may run threads, and a second init per load); the conformance
// CLI turns it on.

constexpr int kProbeReturned = 86;  // the probe child's exit status when init returned

int load_timeout_seconds() {
  const char* value = std::getenv("BP_PLUGIN_LOAD_TIMEOUT");
  if (value == nullptr || *value == '\0') return 0;
  if (std::strcmp(value, "0") == 0) return 0;  // off
  char* end = nullptr;
  const long seconds = std::strtol(value, &end, 10);
  if (*end != '\0' || seconds <= 0 || seconds > 24 * 3600) {
    warn(detail::str_cat("BP_PLUGIN_LOAD_TIMEOUT: expected whole seconds from 1 to 86400, got '",
                         value, "'; plugin loads are not probed"));
    return 0;
  }
  return static_cast<int>(seconds);
}

std::unique_ptr<Plugin> load(const std::string& path, LoadRecord& record, uint64_t id, bool probe);

// Runs the load in a child process; returns why it did not return in time, or "".
std::string probe_load(const std::string& path, uint64_t id, int timeout_seconds) {
  const pid_t pid = ::fork();
  if (pid < 0) return "";  // cannot probe: load in process as without the probe
  if (pid == 0) {
    // The default actions, so that the parent sees the signal itself (not a sanitizer's exit).
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::signal(sig, SIG_DFL);
    try {
      LoadRecord record;
      load(path, record, id, /*probe=*/false);
    } catch (...) {
      // The load's own error is reported by the real load.
    }
    ::_exit(kProbeReturned);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  auto pause = std::chrono::microseconds(200);
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return "";
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return detail::str_cat("bp_plugin_init did not return within ", timeout_seconds,
                             " s (BP_PLUGIN_LOAD_TIMEOUT)");
    }
    std::this_thread::sleep_for(pause);
    // At most 1 ms late: a probe of a small plugin takes a few ms.
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return detail::str_cat("bp_plugin_init crashed (signal ", sig, ": ", ::strsignal(sig), ")");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != kProbeReturned) {
    return detail::str_cat("bp_plugin_init ended the process (exit status ", WEXITSTATUS(status),
                           ") instead of returning");
  }
  return "";
}

// ---- Crash message -----------------------------------------------------------------------
// While a plugin's init runs in this process, a fatal signal first prints which plugin was
// loading, then the previous handler (or the default action) takes over.

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr size_t kNumFatalSignals = sizeof kFatalSignals / sizeof kFatalSignals[0];
char crash_message[512];
struct sigaction previous_actions[kNumFatalSignals];

void on_fatal_signal_in_init(int sig) {
  size_t i = 0;
  while (i < kNumFatalSignals && kFatalSignals[i] != sig) ++i;
  const ssize_t ignored = ::write(2, crash_message, std::strlen(crash_message));
  (void)ignored;
  if (i < kNumFatalSignals) ::sigaction(sig, &previous_actions[i], nullptr);
  ::raise(sig);
}

class InitCrashMessage {
 public:
  explicit InitCrashMessage(const std::string& path) {
    std::snprintf(crash_message, sizeof crash_message,
                  "\nBackplane: fatal signal while plugin '%s' ran bp_plugin_init (set "
                  "BP_PLUGIN_LOAD_TIMEOUT to try plugin loads in a child process first)\n",
                  path.c_str());
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = &on_fatal_signal_in_init;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < kNumFatalSignals; ++i) {
      ::sigaction(kFatalSignals[i], &action, &previous_actions[i]);
    }
  }
  ~InitCrashMessage() {
    for (size_t i = 0; i < kNumFatalSignals; ++i) {
      ::sigaction(kFatalSignals[i], &previous_actions[i], nullptr);
    }
  }
  InitCrashMessage(const InitCrashMessage&) = delete;
  InitCrashMessage& operator=(const InitCrashMessage&) = delete;
};

// The steps of one load; throws with the cause, leaving nothing registered. `probe`: first in a
// child process, when BP_PLUGIN_LOAD_TIMEOUT asks for it.
std::unique_ptr<Plugin> load(const std::string& path, LoadRecord& record, uint64_t id, bool probe) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    fail(ErrorCode::kInvalidArgument,
         detail::str_cat("cannot load plugin '", path, "': no such file"));
  }
  if (const int timeout = probe ? load_timeout_seconds() : 0; timeout > 0) {
    const std::string why = probe_load(path, id, timeout);
    if (!why.empty()) {
      fail(ErrorCode::kInvalidArgument,
           detail::str_cat("plugin ", path, ": ", why,
                           "; it was tried in a child process and not loaded"));
    }
  }
  std::optional<InitCrashMessage> init_crash_message;
  if (probe) init_crash_message.emplace(path);  // not in the probe's child: its parent reports
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    fail(ErrorCode::kInvalidArgument,
         detail::str_cat("cannot load plugin '", path, "': ", why ? why : "dlopen failed"));
  }
  auto plugin = std::make_unique<Plugin>();
  plugin->id = id;
  plugin->path = path;
  plugin->library = std::make_shared<Library>(handle);
  auto init = reinterpret_cast<bp_plugin_init_fn>(::dlsym(handle, BP_PLUGIN_INIT_SYMBOL));
  if (init == nullptr) {
    fail(ErrorCode::kInvalidArgument,
         detail::str_cat("plugin '", path, "' has no '", BP_PLUGIN_INIT_SYMBOL,
                         "' symbol: is it a Backplane plugin? (in C++ the function must be "
                         "extern \"C\" and exported)"));
  }
  bp_plugin_desc& desc = plugin->desc;
  std::memset(&desc, 0, sizeof desc);
  desc.struct_size = sizeof desc;
  desc.api_major = -1;
  desc.api_minor = -1;
  PluginScope scope{id, &desc, plugin->library};
  bp_error* error;
  {
    LoadingPluginGuard loading(&scope);
    error = init(host_api.load(), &desc);
  }
  record.plugin_name = desc.name != nullptr ? desc.name : "";
  record.plugin_major = desc.api_major;
  record.plugin_minor = desc.api_minor;
  const std::string who = detail::str_cat(
      "plugin '", record.plugin_name.empty() ? path : record.plugin_name, "' (", path, ")");
  try {
    if (desc.api_major == -1) {
      if (error != nullptr) throw_error_object(error, who + " failed to initialise: ");
      fail(ErrorCode::kInvalidArgument,
           who +
               " did not report the API version it was built against (bp_plugin_begin sets "
               "it)");
    }
    const std::string refusal = plugin_version_refusal(who, desc.api_major, desc.api_minor);
    if (desc.api_major != BP_API_MAJOR) {
      // Another layout: even its init's error object may not be ours to read.
      destroy_error(std::exchange(error, nullptr));
      fail(ErrorCode::kInvalidArgument, refusal);
    }
    if (error != nullptr) throw_error_object(error, who + " failed to initialise: ");
    if (!refusal.empty()) fail(ErrorCode::kInvalidArgument, refusal);
  } catch (...) {
    unregister_plugin_backends(id);
    throw;
  }
  return plugin;
}

bp_error* plugin_load(const char* path, bp_plugin** out) {
  bp_error* error = guarded([&] {
    require(path, "plugin_load", "path");
    require(out, "plugin_load", "out");
  });
  if (error != nullptr) return error;
  Registry& r = registry();
  std::lock_guard<std::mutex> serial(r.load_mutex);
  LoadRecord record;
  record.path = path;
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    id = r.next_id++;
  }
  std::unique_ptr<Plugin> plugin;
  error = guarded([&] { plugin = load(record.path, record, id, /*probe=*/true); });
  if (error != nullptr) {
    record.error_code = error->code;
    record.error = error->message;
  } else {
    record.loaded = true;
    log_info(detail::str_cat("loaded plugin '", record.plugin_name, "' from ", record.path,
                             " (built against C ABI ", record.plugin_major, ".",
                             record.plugin_minor, ")"));
    *out = reinterpret_cast<bp_plugin*>(static_cast<uintptr_t>(id));
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  if (plugin) r.plugins.emplace(id, std::move(plugin));
  r.records.push_back(std::move(record));
  return error;
}

bp_error* plugin_unload(bp_plugin* handle) {
  return guarded([&] {
    require(handle, "plugin_unload", "plugin");
    Registry& r = registry();
    std::lock_guard<std::mutex> serial(r.load_mutex);
    std::unique_ptr<Plugin> plugin;
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      auto it = r.plugins.find(reinterpret_cast<uintptr_t>(handle));
      BP_CHECK(it != r.plugins.end(),
               "bp_api.plugin_unload: unknown plugin handle (it was unloaded, or never loaded)");
      plugin = std::move(it->second);
      r.plugins.erase(it);
    }
    if (plugin->desc.unload != nullptr) plugin->desc.unload(plugin->desc.user_data);
    unregister_plugin_backends(plugin->id);
    // `plugin` goes here; its library is dlclosed once its backends' memory is freed too.
  });
}

bp_error* plugin_load_records(void (*visit)(void*, const bp_plugin_load_record*), void* user_data) {
  return guarded([&] {
    require(reinterpret_cast<const void*>(visit), "plugin_load_records", "visit");
    std::vector<LoadRecord> records;
    {
      Registry& r = registry();
      std::lock_guard<std::mutex> lock(r.mutex);
      records = r.records;
    }
    for (const LoadRecord& rec : records) {
      bp_plugin_load_record out{sizeof out,       rec.path.c_str(), rec.plugin_name.c_str(),
                                rec.loaded,       rec.error_code,   rec.error.c_str(),
                                rec.plugin_major, rec.plugin_minor, BP_API_MAJOR,
                                BP_API_MINOR};
      visit(user_data, &out);
    }
  });
}

}  // namespace

void set_host_api(const bp_api* api) { host_api.store(api); }

void load_plugins_from_environment() {
  const char* list = std::getenv("BP_PLUGINS");
  if (list == nullptr) return;
  std::string paths = list;
  size_t start = 0;
  while (start <= paths.size()) {
    size_t end = paths.find(':', start);
    if (end == std::string::npos) end = paths.size();
    const std::string path = paths.substr(start, end - start);
    start = end + 1;
    if (path.empty()) continue;
    bp_plugin* plugin;
    if (bp_error* error = plugin_load(path.c_str(), &plugin)) {
      warn("BP_PLUGINS: " + error->message);
      destroy_error(error);
    }
  }
}

void install_plugin_functions(bp_api& api) {
  api.plugin_load = &plugin_load;
  api.plugin_unload = &plugin_unload;
  api.plugin_load_records = &plugin_load_records;
}

}  // namespace bp::c_api
