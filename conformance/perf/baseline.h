// --perf-baseline FILE: this run's times against a saved perf report's, for a vendor's CI. A
// timed call (op, dtype, shape) regressed when its fastest repeat grew beyond the threshold
// (new > old * (1 + threshold)) and by more than a noise floor of kBaselineNoiseFloorUs. The
// fastest repeat, not the median: other work on a loaded machine only ever adds time, so the
// fastest of a few repeats is the estimate it disturbs least (a median of 3 repeats of a 1 us
// call was seen at 38 us on a shared 2-core CI machine), while a kernel that got slower is
// slower in every repeat.
//
//   BaselineComparison cmp = compare_with_baseline(perf, read_perf_baseline(path), 0.5);
//   for (const std::string& line : cmp.regressions) std::cerr << line << "\n";
//
// Thread safety: pure functions (read_perf_baseline reads a file).
#ifndef BACKPLANE_CONFORMANCE_PERF_BASELINE_H_
#define BACKPLANE_CONFORMANCE_PERF_BASELINE_H_

#include <string>
#include <vector>

#include "conformance/perf/perf_results.h"

namespace bp::conformance {

inline constexpr double kBaselineNoiseFloorUs = 20.0;
inline constexpr double kDefaultPerfThreshold = 0.5;  // 50% slower

struct BaselineComparison {
  int compared = 0;  // calls timed in both runs
  // One line per regression: "perf regression: add.Tensor float32 gpt2-small.residual
  // (self=float32[1, 1024, 768] other=float32[1, 1024, 768]): fastest of 10 repeats 120.0 us
  // in the baseline, 250.0 us now (2.08x; threshold +50% and 20 us)".
  std::vector<std::string> regressions;
  // Calls of the baseline this run did not time (or not correctly), and new ones: notes only.
  std::vector<std::string> notes;
};

// `threshold`: a fraction (0.5: 50% slower), above 0.
BaselineComparison compare_with_baseline(const PerfResults& now, const PerfResults& baseline,
                                         double threshold);

// The "perf" section of a JSON report written with --perf. Errors: std::runtime_error naming
// `path`: unreadable, not JSON, a report without a "perf" section (run without --perf), or a
// field missing or of the wrong type.
PerfResults read_perf_baseline(const std::string& path);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_BASELINE_H_
