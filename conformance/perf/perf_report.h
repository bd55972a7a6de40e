// The perf mode's part of the reports: lines for the printed summary (the memory roof, one line
// per op x dtype cell, the scores) and the HTML report's perf section (every timed call with its
// time, spread, GB/s, fraction of the roof, speedup over the CPU reference, CPU fallback and
// correctness). The JSON report's "perf" section is perf_json (perf_results.h).
//
//   print_perf_summary(perf, std::cout);
//   report_html(results, verdict, profile, perf_html(perf, &results));
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_PERF_PERF_REPORT_H_
#define BACKPLANE_CONFORMANCE_PERF_PERF_REPORT_H_

#include <ostream>
#include <string>

#include "conformance/perf/baseline.h"
#include "conformance/perf/perf_results.h"
#include "conformance/runner/results.h"

namespace bp::conformance {

// `baseline` (may be null): the comparison with --perf-baseline, printed after the scores.
void print_perf_summary(const PerfResults& perf, const BaselineComparison* baseline,
                        std::ostream& out);
// `run` (may be null): each op's served_by from the correctness run.
std::string perf_html(const PerfResults& perf, const RunResults* run,
                      const BaselineComparison* baseline);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_PERF_REPORT_H_
