#include "conformance/runner/in_flight.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace bp::conformance {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr size_t kNumSignals = sizeof kFatalSignals / sizeof kFatalSignals[0];

// Read by the exit and signal handlers: fixed buffers, no allocation.
std::atomic<bool> armed{false};
std::atomic<bool> in_child{false};
char program[64];
char in_flight[1024];
struct sigaction previous[kNumSignals];

void write_all(const char* text) {
  size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(2, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

// `value` in decimal into `out` (at least 12 bytes).
void format_int(int value, char* out) {
  char digits[12];
  int n = 0;
  unsigned v = value < 0 ? 0u - static_cast<unsigned>(value) : static_cast<unsigned>(value);
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < 11);
  if (value < 0) *out++ = '-';
  while (n > 0) *out++ = digits[--n];
  *out = '\0';
}

void report(const char* what_happened) {
  write_all("\n");
  write_all(program);
  write_all(": ");
  write_all(what_happened);
  write_all(" while ");
  write_all(in_flight[0] != '\0' ? in_flight : "starting the run");
  write_all(in_child.load() ? "; this isolated child process ends and its case fails\n"
                            : "; the run did not finish and no report says it passed\n");
}

void on_exit() {
  if (!armed.load()) return;
  armed.store(false);
  report("the process was asked to exit (exit() called)");
  _exit(1);
}

void on_fatal_signal(int sig) {
  size_t i = 0;
  while (i < kNumSignals && kFatalSignals[i] != sig) ++i;
  if (armed.exchange(false)) {
    char text[64] = "fatal signal ";
    format_int(sig, text + std::strlen(text));
    report(text);
  }
  // Back to the handler that was there before (ASan's, or the default): the signal is raised
  // again when this handler returns (faults re-execute; raise() covers sent signals).
  if (i < kNumSignals) ::sigaction(sig, &previous[i], nullptr);
  ::raise(sig);
}

}  // namespace

RunGuard::RunGuard(std::string_view name) {
  static const bool registered = std::atexit(&on_exit) == 0 && std::at_quick_exit(&on_exit) == 0;
  (void)registered;
  const size_t n = std::min(name.size(), sizeof program - 1);
  std::memcpy(program, name.data(), n);
  program[n] = '\0';
  in_flight[0] = '\0';
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = &on_fatal_signal;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < kNumSignals; ++i) ::sigaction(kFatalSignals[i], &action, &previous[i]);
  armed.store(true);
}

RunGuard::~RunGuard() {
  armed.store(false);
  for (size_t i = 0; i < kNumSignals; ++i) ::sigaction(kFatalSignals[i], &previous[i], nullptr);
}

void set_in_flight(std::string_view what) {
  if (!armed.load(std::memory_order_relaxed)) return;
  const size_t n = std::min(what.size(), sizeof in_flight - 1);
  // The handlers may read a half-written description; it is text either way.
  std::memcpy(in_flight, what.data(), n);
  in_flight[n] = '\0';
}

void set_in_flight_child() { in_child.store(true); }

std::string case_in_flight(std::string_view op, std::string_view dtype, std::string_view check,
                           std::string_view sample) {
  std::string s = "running case ";
  s.append(op).append(" ").append(dtype).append(" [").append(check).append("]");
  if (!sample.empty()) s.append(" (").append(sample).append(")");
  return s;
}

}  // namespace bp::conformance
