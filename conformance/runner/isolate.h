// Crash isolation: cases run in a forked child process that streams each result to the parent,
// so that a kernel that crashes (SIGSEGV, abort), hangs or exits fails its case instead of ending
// the run. The child says "begin" before each case and "done" after the last; when it ends
// without "done" (killed by a signal, or exited, with any status), the parent records a failure
// for the case that was running ("crashed: killed by signal 11 (Segmentation fault)") and starts
// a new child that resumes after it. A child that runs past its timeout is killed and reported
// the same way ("timed out after 300 s: killed").
//
//   Isolation how;
//   how.timeout_seconds = 10;
//   how.timeout_per_case = true;  // each case gets 10 s (else: each child)
//   run_isolated(how, [&](const ChildHooks& hooks) { /* run cases, calling the hooks */ },
//                [&](const CaseRecord& r, const std::string& output) { /* in the parent */ });
//
// run_entry_isolated runs one op database entry that way (run_suite's --isolate): after a crash
// the rest of that op and dtype is left out.
//
// The parent must not have started threads that the child needs (it forks); the suite's parent
// runs no ops in isolation mode.
//
// Thread safety: one isolated run at a time.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_
#define BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_

#include <cstddef>
#include <functional>
#include <string>

#include "conformance/runner/run.h"

namespace bp::conformance {

// What the child's body calls for each case, in order. `label` names the case (op, dtype, check
// and sample; its verdict is ignored).
struct ChildHooks {
  // Whether to leave case `index` out (it ran in an earlier child, or its cell crashed).
  std::function<bool(size_t index, const CaseRecord& label)> skip;
  // Before the case runs.
  std::function<void(size_t index, const CaseRecord& label)> begin;
  // The case's result, and text for the parent to print (may be empty).
  std::function<void(const CaseRecord& record, const std::string& output)> emit;
};

struct Isolation {
  int timeout_seconds = 300;
  // true: the timeout is per case (restarted at each "begin"); false: per child process.
  bool timeout_per_case = false;
  // After a crash, also leave out the later cases of the crashed case's op and dtype.
  bool skip_cell_after_crash = true;
  // Whom to charge a crash outside any case (op and dtype), e.g. before the first case.
  CaseRecord outside;
};

using IsolatedSink = std::function<void(const CaseRecord& record, const std::string& output)>;

void run_isolated(const Isolation& how, const std::function<void(const ChildHooks&)>& body,
                  const IsolatedSink& sink);

void run_entry_isolated(const OpEntry& entry, const Backend& backend, const RunOptions& options,
                        const std::function<void(const CaseRecord&)>& sink);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_
