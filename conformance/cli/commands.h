// The CLI's commands besides the default run (cli.cc): listings, case files and replay.
//
// Thread safety: one call at a time.
#ifndef BACKPLANE_CONFORMANCE_CLI_COMMANDS_H_
#define BACKPLANE_CONFORMANCE_CLI_COMMANDS_H_

#include <ostream>

#include "conformance/cli/cli.h"
#include "conformance/cli/options.h"
#include "conformance/runner/results.h"
#include "conformance/runner/tolerances.h"
#include "conformance/runner/verdict.h"

namespace bp::conformance {

// --list-ops: the entries o.ops selects (all by default) with their family, tier, dtypes and
// variants (declared or not). Errors: std::invalid_argument when o.ops selects nothing.
void list_ops(const CliOptions& o, std::ostream& out);

// --cases FILE: runs the file's cases; the results come back as a run's (one op per case op).
RunResults run_case_file(const CliOptions& o, const Backend& backend, const Backend* compare_with,
                         const Tolerances& tolerances, std::ostream& err);

// --replay FILE: runs a repro file's case again, printing what it expects and what it got.
// Returns the exit status (0: passes now).
int replay(const CliOptions& o, const Backend& backend, const Backend* compare_with,
           const Tolerances& tolerances, std::ostream& out);

// merge REPORT.json...: the shards' reports read and merged (merge_results.h), and their
// profile (null for none). Errors: std::invalid_argument when the reports are not the shards of
// one run (merge_results, or different profiles); std::runtime_error for a report that cannot be
// read (read_report_json).
struct MergedRun {
  RunResults results;
  const Profile* profile = nullptr;
};
MergedRun merge_reports(const CliOptions& o);

// --write-cases FILE: writes the selected entries' cases (no run). Returns how many.
size_t write_cases(const CliOptions& o, const Tolerances& tolerances);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_CLI_COMMANDS_H_
