// What a run is doing, for the moments it cannot report normally. While a RunGuard is alive:
// - a process exit the run did not ask for (a kernel or a plugin's unload hook calling exit() or
//   quick_exit(), whatever the status) prints what was in flight and ends the process with
//   status 1, so that a run that stops before every planned case finished never ends green
//   (_exit() cannot be seen from inside the process: only isolation catches it);
// - a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) prints what was in flight, then the
//   signal's previous handler (or the default action) takes over and the process dies of it.
// Isolated runs inherit the guard in their child processes: the parent sees the child exit with
// status 1 before its "done" marker and fails the case (isolate.h).
//
//   RunGuard guard("backplane-conformance");
//   set_in_flight(case_in_flight("add.out", "float32", "out", "contiguous 2x3"));
//   ...                                         // an exit(0) here prints the case, exits 1
//   set_in_flight("unloading plugin libnpu.so");
//   // ~RunGuard: exits and signals are the program's own again
//
// Thread safety: one guard at a time; set_in_flight from the thread that runs cases.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_IN_FLIGHT_H_
#define BACKPLANE_CONFORMANCE_RUNNER_IN_FLIGHT_H_

#include <string>
#include <string_view>

namespace bp::conformance {

class RunGuard {
 public:
  // `program` starts each message.
  explicit RunGuard(std::string_view program);
  ~RunGuard();
  RunGuard(const RunGuard&) = delete;
  RunGuard& operator=(const RunGuard&) = delete;
};

// What the run does now, as "<program>: <what happened> while <what>" reads ("loading plugin
// libnpu.so"); copied, truncated to 1023 bytes. No effect without a RunGuard.
void set_in_flight(std::string_view what);

// In a child process of an isolated run (isolate.h): messages say that the child's case fails,
// not that the run did not finish.
void set_in_flight_child();

// What set_in_flight says while a case runs: "running case add.out float32 [out] (sample)".
std::string case_in_flight(std::string_view op, std::string_view dtype, std::string_view check,
                           std::string_view sample);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_IN_FLIGHT_H_
