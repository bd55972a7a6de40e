// The command line's options, parsed.
//
// Thread safety: a value type.
#ifndef BACKPLANE_CONFORMANCE_CLI_OPTIONS_H_
#define BACKPLANE_CONFORMANCE_CLI_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/dtype_set.h"
#include "conformance/runner/op_selection.h"
#include "conformance/runner/results.h"

namespace bp::conformance {

struct CliOptions {
  // "cpu", an in-process backend's name, or the path of a C-ABI plugin (is_plugin_path).
  std::string backend = "cpu";
  // With a plugin path: which of the plugin's backends to test ("": its only one).
  std::string device;
  // --ops NAMES (repeatable), --ops-regex REGEX: the entries to run, list or write.
  OpSelection ops;
  DtypeSet dtypes = kAllDtypes;
  std::string profile;
  // --isolate / --no-isolate; unset: isolated for plugin backends (isolate_by_default).
  std::optional<bool> isolate;
  int timeout_seconds = 300;  // positive
  std::string expected_failures;
  std::string tolerances;
  std::string json_report;
  std::string html_report;
  std::string text_report;  // the printed summary, again
  // --report-dir: where report.json, report.html, summary.txt and repros/ go by default.
  std::string report_dir;
  std::string repro_dir = "conformance-repros";
  bool repros = true;
  std::string cases;
  std::string replay;
  std::string write_cases;
  bool list_ops = false;
  // --list-ops --schemas: every declared op's schema instead of the entries.
  bool schemas = false;
  // --schema NAMES: the ops to describe (names as --ops takes them).
  std::vector<std::string> schema;
  // --dispatch-table OP: print which kernel serves each dispatch key of OP, and why.
  std::string dispatch_table;
  // --fusion-chains N: the fusion check (conformance/fusion/random_chains.h) instead of the op
  // entries: N random chains on the backend, fused against eager; --fusion-seed S picks them.
  int64_t fusion_chains = 0;
  uint64_t fusion_seed = 1;
  bool list_backends = false;
  bool list_plugins = false;
  bool debug_checks = false;
  bool list_profiles = false;
  bool quiet = false;
  bool help = false;
  // Sharding, per-case results and merging (docs/conformance.md "Reports").
  Shard shard;  // --shard K/N, or from Bazel's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX
  // $TEST_SHARD_STATUS_FILE when the shard came from the environment: touched to tell the test
  // runner that this program shards.
  std::string shard_status_file;
  std::optional<CaseResultsLevel> case_results;  // unset: all with --cases, else failures
  bool merge = false;                            // `merge REPORT.json...`
  std::vector<std::string> merge_reports;
  // Perf mode (--perf; docs/conformance_guide.md "Perf mode"): the selected ops timed on their
  // samples and the catalogue's shapes (--perf-shapes: names or model prefixes, "all", "none").
  bool perf = false;
  int perf_warmup = 3;
  int perf_repeats = 10;
  std::vector<std::string> perf_shapes = {"all"};
  int perf_roof_mib = 64;       // the memory roof's copy, in MiB
  std::string perf_baseline;    // --perf-baseline FILE: a JSON report of a --perf run
  double perf_threshold = 0.5;  // --perf-threshold PERCENT, as a fraction
};

// Whether --backend names a shared library to load rather than an in-process backend.
bool is_plugin_path(const std::string& backend);

// Errors: std::invalid_argument naming the bad option.
CliOptions parse_options(const std::vector<std::string>& args);
// The --help text.
std::string usage();
// `path` relative to the directory the user ran `bazel run` from (BUILD_WORKING_DIRECTORY),
// when set; unchanged otherwise.
std::string user_path(const std::string& path);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_CLI_OPTIONS_H_
