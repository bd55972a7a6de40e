#include "sdk/c_api/logging.h"

#include <mutex>
#include <string>

#include "sdk/c_api/debug_checks.h"
#include "sdk/c_api/install.h"
#include "sdk/core/warning.h"

namespace bp::c_api {
namespace {

struct LogHandler {
  std::mutex mutex;
  bp_log_fn fn = nullptr;
  void* user_data = nullptr;
};

LogHandler& log_handler() {
  static LogHandler* h = new LogHandler();  // never destroyed: messages may come during exit
  return *h;
}

void deliver(int32_t level, const char* message) {
  LogHandler& h = log_handler();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.fn != nullptr) h.fn(h.user_data, level, message);
}

void forward_warning(const std::string& message, void*) {
  deliver(BP_LOG_WARNING, message.c_str());
}

void set_debug_checks(bool enabled) { set_debug_checks_enabled(enabled); }

}  // namespace

void set_log_handler(bp_log_fn handler, void* user_data) {
  LogHandler& h = log_handler();
  {
    std::lock_guard<std::mutex> lock(h.mutex);
    h.fn = handler;
    h.user_data = user_data;
  }
  set_warning_handler(handler != nullptr ? &forward_warning : nullptr, nullptr);
}

void log_info(std::string_view message) { deliver(BP_LOG_INFO, std::string(message).c_str()); }

void install_diagnostic_functions(bp_api& api) {
  api.set_log_handler = &set_log_handler;
  api.set_debug_checks = &set_debug_checks;
}

}  // namespace bp::c_api
