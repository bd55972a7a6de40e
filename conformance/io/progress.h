// Progress of a run on stderr: a bar redrawn in place on a terminal, one line per entry
// otherwise (CI logs).
//
//   ProgressPrinter progress(std::cerr, isatty(2));
//   options.progress = [&](const Progress& p) { progress.update(p); };
//   ...
//   progress.finish();
//
// Thread safety: one thread.
#ifndef BACKPLANE_CONFORMANCE_IO_PROGRESS_H_
#define BACKPLANE_CONFORMANCE_IO_PROGRESS_H_

#include <ostream>

#include "conformance/runner/run.h"

namespace bp::conformance {

class ProgressPrinter {
 public:
  ProgressPrinter(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
  void update(const Progress& p);
  // Ends the bar's line (terminal only).
  void finish();

 private:
  std::ostream& out_;
  bool terminal_;
  bool drawn_ = false;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_IO_PROGRESS_H_
