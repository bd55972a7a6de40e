// The CLI's perf mode (--perf): the perf run after the correctness run, on the same backend,
// and the --perf-baseline gate.
//
//   std::optional<PerfRun> perf = run_perf_mode(o, backend, compare_with, tolerances, results);
//   apply_perf_baseline(*perf, verdict);   // a regression fails the verdict, naming the call
//
// Thread safety: one call at a time.
#ifndef BACKPLANE_CONFORMANCE_CLI_PERF_MODE_H_
#define BACKPLANE_CONFORMANCE_CLI_PERF_MODE_H_

#include <optional>
#include <ostream>

#include "conformance/cli/options.h"
#include "conformance/perf/baseline.h"
#include "conformance/perf/perf_results.h"
#include "conformance/runner/results.h"
#include "conformance/runner/tolerances.h"
#include "conformance/runner/verdict.h"

namespace bp::conformance {

struct PerfRun {
  PerfResults results;
  std::optional<PerfResults> baseline;  // --perf-baseline's, read before anything ran
  std::optional<BaselineComparison> comparison;
};

// Reads --perf-baseline (before the run, so a bad file is a usage error that wastes no time)
// and checks --perf-shapes. Errors: std::invalid_argument (--perf-shapes),
// std::runtime_error naming the baseline file.
PerfRun prepare_perf_mode(const CliOptions& o);

// Times the selected ops (perf_run.h) and adds its checked cases to `results`; `compare_with`
// is the CPU reference backend (null when `backend` is the CPU). Prints one progress line per
// entry to `err` unless --quiet.
void run_perf_mode(const CliOptions& o, const Backend& backend, const Backend* compare_with,
                   const Tolerances& tolerances, RunResults& results, PerfRun& run,
                   std::ostream& err);

// With a baseline: compares, and fails `verdict` with one reason per regression.
void apply_perf_baseline(const CliOptions& o, PerfRun& run, RunVerdict& verdict);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_CLI_PERF_MODE_H_
