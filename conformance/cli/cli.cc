#include "conformance/cli/cli.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "conformance/cli/commands.h"
#include "conformance/cli/options.h"
#include "conformance/cli/perf_mode.h"
#include "conformance/cli/schemas.h"
#include "conformance/fusion/random_chains.h"
#include "conformance/io/case_file.h"
#include "conformance/io/progress.h"
#include "conformance/io/report.h"
#include "conformance/ops/database.h"
#include "conformance/perf/perf_report.h"
#include "conformance/runner/in_flight.h"
#include "conformance/runner/loaded_plugin_backend.h"
#include "conformance/runner/run.h"
#include "conformance/runner/verdict.h"
#include "nlohmann/json.hpp"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

std::unique_ptr<Backend> make_backend(const CliOptions& o, const BackendFactories& backends) {
  const std::string& name = o.backend;
  if (is_plugin_path(name)) return std::make_unique<LoadedPluginBackend>(name, o.device);
  if (!o.device.empty()) throw std::invalid_argument("--device goes with a plugin path --backend");
  for (const BackendFactory& f : backends) {
    if (f.name == name) return f.make();
  }
  throw std::invalid_argument("unknown backend '" + name + "' (see --list-backends)");
}

std::string cuda_plugin_path() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("BP_CUDA_PLUGIN");
  if (env != nullptr && *env != '\0') return env;
  const fs::path file = "libbackplane_cuda.so";
  const fs::path in_tree = fs::path("reference_backend") / "cuda" / file;
  std::error_code error;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", error).parent_path();
  // bazel-bin/conformance/backplane-conformance -> bazel-bin/reference_backend/cuda/; the SDK
  // package's bin/backplane-conformance -> lib/backplane/.
  for (const fs::path& candidate :
       {in_tree, exe_dir.parent_path() / in_tree,
        exe_dir.parent_path() / "lib" / "backplane" / file, exe_dir / file}) {
    if (fs::exists(candidate, error)) return candidate.string();
  }
  throw std::runtime_error(
      "cannot find libbackplane_cuda.so: set BP_CUDA_PLUGIN, or build it with `bazel build "
      "//reference_backend/cuda:libbackplane_cuda.so`");
}

// Checks that every report file can be written before anything runs, and leaves in each a
// placeholder that says the run has not passed: a run that dies before its end (a crash in a
// plugin's unload hook, an exit() in a kernel) leaves no report that says it passed, and no
// stale report of an earlier run. Errors: std::runtime_error naming the file.
void prepare_reports(const CliOptions& o) {
  const std::string why =
      "the run has not finished (or did not finish): backplane-conformance replaces this "
      "placeholder with the report at the end of the run";
  const std::pair<const std::string*, std::string> files[] = {
      {&o.json_report, nlohmann::json{{"format", "backplane-conformance-report"},
                                      {"version", 1},
                                      {"incomplete", true},
                                      {"verdict", {{"passed", false}, {"reasons", {why}}}}}
                               .dump(2) +
                           "\n"},
      {&o.html_report,
       "<!DOCTYPE html><title>backplane-conformance: incomplete</title><p>" + why + "</p>\n"},
      {&o.text_report, "Verdict: INCOMPLETE (" + why + ")\n"},
  };
  for (const auto& [path, placeholder] : files) {
    if (path->empty()) continue;
    try {
      write_text_file(*path, placeholder);
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot write the report file " + *path + " (" + e.what() +
                               "): check it before the run, not after");
    }
  }
}

// `perf` (may be null): the perf mode's results, added to each report.
void write_reports(const CliOptions& o, const RunResults& results, const RunVerdict& verdict,
                   const Profile* profile, std::ostream& out, const PerfRun* perf = nullptr) {
  std::ostringstream summary;
  print_summary(results, verdict, profile, summary);
  const BaselineComparison* comparison =
      perf != nullptr && perf->comparison ? &*perf->comparison : nullptr;
  if (perf != nullptr) print_perf_summary(perf->results, comparison, summary);
  out << summary.str();
  for (const std::string& path : {o.json_report, o.html_report, o.text_report}) {
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (!path.empty() && !dir.empty()) std::filesystem::create_directories(dir);
  }
  if (!o.text_report.empty()) {
    write_text_file(o.text_report, summary.str());
    out << "Summary: " << o.text_report << "\n";
  }
  if (!o.json_report.empty()) {
    nlohmann::json report = report_json(results, verdict, profile);
    if (perf != nullptr) report["perf"] = perf_json(perf->results, &results);
    write_text_file(o.json_report, report.dump(2) + "\n");
    out << "JSON report: " << o.json_report << "\n";
  }
  if (!o.html_report.empty()) {
    write_text_file(
        o.html_report,
        report_html(results, verdict, profile,
                    perf != nullptr ? perf_html(perf->results, &results, comparison) : ""));
    out << "HTML report: " << o.html_report << "\n";
  }
}

int run(CliOptions o, const BackendFactories& backends, std::ostream& out, std::ostream& err) {
  // Plugin backends run isolated unless --no-isolate: a crash, hang or exit in a vendor's kernel
  // fails its case instead of ending the run. The reference CUDA plugin runs in process: its
  // init starts the CUDA driver, which does not survive fork().
  // The perf mode times in process (parse_options refuses --isolate with --perf).
  if (!o.isolate) o.isolate = is_plugin_path(o.backend) && !o.perf;
  // Every plugin load of this run (--backend PATH, $BP_PLUGINS) is first tried in a child
  // process, so that an init that crashes or hangs is reported, naming the plugin.
  ::setenv("BP_PLUGIN_LOAD_TIMEOUT", "60", /*overwrite=*/0);
  if (o.help) {
    out << usage();
    return 0;
  }
  if (o.list_backends) {
    for (const BackendFactory& f : backends) out << f.name << "\t" << f.description << "\n";
    return 0;
  }
  if (o.list_plugins) {
    print_plugin_loads(out);
    return 0;
  }
  if (o.list_profiles) {
    for (const Profile& p : profiles()) out << p.name << "\t" << p.description << "\n";
    return 0;
  }
  if (o.list_ops && o.schemas) {
    list_schemas(out);
    return 0;
  }
  if (o.list_ops) {
    list_ops(o, out);
    return 0;
  }
  if (!o.schema.empty()) {
    describe_ops(o.schema, out);
    return 0;
  }
  if (!o.dispatch_table.empty()) {
    const std::unique_ptr<Backend> backend = make_backend(o, backends);  // its kernels show too
    out << Dispatcher::singleton().dump_dispatch_table(o.dispatch_table);
    return 0;
  }
  if (o.merge) {
    const MergedRun merged = merge_reports(o);
    const RunVerdict verdict = judge(merged.results, merged.profile, op_database());
    write_reports(o, merged.results, verdict, merged.profile, out);
    return verdict.passed ? 0 : 1;
  }
  if (!o.shard_status_file.empty()) write_text_file(o.shard_status_file, "");
  const Profile* profile = nullptr;
  if (!o.profile.empty()) {
    profile = find_profile(o.profile);
    if (profile == nullptr) throw std::invalid_argument("unknown profile '" + o.profile + "'");
  }
  Tolerances tolerances = Tolerances::builtin();
  if (!o.tolerances.empty()) tolerances.merge_file(o.tolerances);
  if (!o.write_cases.empty()) {
    const size_t n = write_cases(o, tolerances);
    out << "wrote " << n << " cases to " << o.write_cases << "\n";
    return 0;
  }
  if (o.fusion_chains > 0) {
    const std::unique_ptr<Backend> backend = make_backend(o, backends);
    const RandomChainsReport report =
        check_random_chains(backend->device(), o.fusion_chains, o.fusion_seed);
    out << to_string(report) << "\n";
    return report.mismatches == 0 ? 0 : 1;
  }
  std::optional<PerfRun> perf;
  if (o.perf) perf = prepare_perf_mode(o);
  if (o.replay.empty()) prepare_reports(o);
  // From here to the end of teardown, an exit() in a plugin ends the run with status 1 and a
  // fatal signal names what was running (in_flight.h).
  std::optional<RunGuard> guard(std::in_place, "backplane-conformance");
  const PluginDebugChecks debug_checks(o.debug_checks);
  set_in_flight("loading the backend " + o.backend);
  std::unique_ptr<Backend> backend = make_backend(o, backends);
  set_in_flight("");
  // Plugin backends are also compared with the reference CPU backend.
  const CpuBackend cpu;
  const Backend* compare_with = backend->is_cpu() ? nullptr : &cpu;
  // Teardown (unloading a plugin runs its unload hook) comes before any verdict is reported.
  auto teardown = [&] {
    set_in_flight("unloading the backend " + backend->name() + " (teardown)");
    backend.reset();
    guard.reset();
  };
  if (!o.replay.empty()) {
    const int status = replay(o, *backend, compare_with, tolerances, out);
    teardown();
    return status;
  }

  RunResults results;
  if (!o.cases.empty()) {
    results = run_case_file(o, *backend, compare_with, tolerances, err);
  } else {
    RunOptions options;
    options.ops = o.ops;
    options.dtypes = o.dtypes;
    options.isolate = o.isolate.value_or(false);
    options.entry_timeout_seconds = o.timeout_seconds;
    options.tolerances = &tolerances;
    options.compare_with = compare_with;
    options.shard = o.shard;
    options.case_results = o.case_results.value_or(CaseResultsLevel::kFailures);
    const std::string backend_name = backend->name();
    if (o.repros) {
      options.on_failure = [&](const Case& c, const CaseOutcome& outcome) {
        return write_repro(o.repro_dir, c, outcome, backend_name);
      };
    }
    ProgressPrinter progress(err, ::isatty(2) != 0);
    if (!o.quiet) options.progress = [&](const Progress& p) { progress.update(p); };
    results = run_suite(op_database(), *backend, options);
    progress.finish();
    if (perf) run_perf_mode(o, *backend, compare_with, tolerances, results, *perf, err);
  }
  teardown();
  if (!o.expected_failures.empty()) {
    const ExpectedFailures xf = ExpectedFailures::load(o.expected_failures);
    results.expected_failures_file = o.expected_failures;
    results.expected_failures_text = xf.text;
    apply_expected_failures(results, xf);
  }
  RunVerdict verdict = judge(results, profile, op_database());
  if (perf) apply_perf_baseline(o, *perf, verdict);
  write_reports(o, results, verdict, profile, out, perf ? &*perf : nullptr);
  return verdict.passed ? 0 : 1;
}

}  // namespace

BackendFactory cpu_backend_factory() {
  return {"cpu", "the reference CPU backend, in process",
          [] { return std::unique_ptr<Backend>(new CpuBackend()); }};
}

BackendFactory cuda_backend_factory() {
  return {"cuda", "the reference CUDA backend (the libbackplane_cuda.so plugin)", [] {
            return std::unique_ptr<Backend>(new LoadedPluginBackend(cuda_plugin_path(), "cuda"));
          }};
}

int run_cli(const std::vector<std::string>& args, const BackendFactories& backends,
            std::ostream& out, std::ostream& err) {
  try {
    return run(parse_options(args), backends, out, err);
  } catch (const std::invalid_argument& e) {
    err << "backplane-conformance: " << e.what() << "\n\n" << usage();
    return 2;
  } catch (const std::exception& e) {
    err << "backplane-conformance: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace bp::conformance
