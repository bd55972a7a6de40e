// Crash isolation: an entry's cases run in a forked child process that streams each result to the
// parent, so that a kernel that crashes (SIGSEGV, abort) or hangs fails its op instead of ending
// the run. After a crash, the parent records a failure for the case that was running ("crashed:
// killed by signal 11 (Segmentation fault)"), and starts a new child that resumes after it,
// leaving out the rest of that op and dtype; a child that runs past the entry's timeout is killed
// and reported the same way.
//
// The parent must not have started threads that the child needs (it forks); the suite's parent
// runs no ops in isolation mode.
//
// Thread safety: one isolated entry at a time.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_
#define BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_

#include <functional>

#include "conformance/runner/run.h"

namespace bp::conformance {

void run_entry_isolated(const OpEntry& entry, const Backend& backend, const RunOptions& options,
                        const std::function<void(const CaseRecord&)>& sink);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_ISOLATE_H_
