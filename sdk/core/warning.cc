#include "sdk/core/warning.h"

#include <cstdio>
#include <mutex>

namespace bp {
namespace {

thread_local WarningCapture* tls_capture = nullptr;

struct Handler {
  std::mutex mutex;
  WarningHandler fn = nullptr;
  void* user_data = nullptr;
};

Handler& handler() {
  static Handler* h = new Handler();  // never destroyed: warnings may come during exit
  return *h;
}

}  // namespace

void warn(const std::string& message) {
  if (tls_capture != nullptr) {
    tls_capture->messages_.push_back(message);
    return;
  }
  Handler& h = handler();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.fn != nullptr) {
    h.fn(message, h.user_data);
  } else {
    std::fprintf(stderr, "Backplane warning: %s\n", message.c_str());
  }
}

void set_warning_handler(WarningHandler fn, void* user_data) {
  Handler& h = handler();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.fn = fn;
  h.user_data = user_data;
}

WarningCapture::WarningCapture() : previous_(tls_capture) { tls_capture = this; }

WarningCapture::~WarningCapture() { tls_capture = previous_; }

}  // namespace bp
