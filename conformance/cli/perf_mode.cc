#include "conformance/cli/perf_mode.h"

#include "conformance/ops/database.h"
#include "conformance/perf/perf_run.h"
#include "conformance/perf/shape_catalogue.h"

namespace bp::conformance {

PerfRun prepare_perf_mode(const CliOptions& o) {
  PerfRun run;
  select_shapes(shape_catalogue(), o.perf_shapes);  // a bad name: a usage error before the run
  if (!o.perf_baseline.empty()) run.baseline = read_perf_baseline(o.perf_baseline);
  return run;
}

void run_perf_mode(const CliOptions& o, const Backend& backend, const Backend* compare_with,
                   const Tolerances& tolerances, RunResults& results, PerfRun& run,
                   std::ostream& err) {
  PerfOptions options;
  options.ops = o.ops;
  options.dtypes = o.dtypes;
  options.shapes = select_shapes(shape_catalogue(), o.perf_shapes);
  options.timing = TimingOptions{o.perf_warmup, o.perf_repeats};
  options.tolerances = &tolerances;
  options.reference = compare_with;
  options.roof_bytes = static_cast<size_t>(o.perf_roof_mib) << 20;
  if (!o.quiet)
    options.progress = [&](const std::string& entry) { err << "perf: " << entry << "\n"; };
  run.results = run_perf(op_database(), backend, options, results);
}

void apply_perf_baseline(const CliOptions& o, PerfRun& run, RunVerdict& verdict) {
  if (!run.baseline) return;
  run.comparison = compare_with_baseline(run.results, *run.baseline, o.perf_threshold);
  if (run.comparison->regressions.empty()) return;
  verdict.passed = false;
  for (const std::string& r : run.comparison->regressions) {
    verdict.reasons.push_back(r + " (--perf-baseline " + o.perf_baseline + ")");
  }
}

}  // namespace bp::conformance
