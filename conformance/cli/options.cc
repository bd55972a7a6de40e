#include "conformance/cli/options.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace bp::conformance {

std::string usage() {
  return R"(Usage: backplane-conformance [options]
       backplane-conformance merge [--report-dir DIR | --json/--html/--text FILE] REPORT.json...

Checks every op of a backend against naive references (docs/conformance_guide.md).

Backend:
  --backend NAME|PATH       the backend under test: cpu (default), cuda (the reference CUDA
                            plugin; $BP_CUDA_PLUGIN or bazel-bin's), --list-backends lists all;
                            or the path of a C-ABI plugin (a .so, or any path with a '/'),
                            loaded into this process and compared with the CPU (isolated,
                            unless --no-isolate)
  --device NAME             with a plugin: which of its backends to test (default: its only one)
  --debug-checks            with a plugin: the host checks each of its kernel's results against
                            the op's meta function (sizes, strides, dtype, aliasing) and fails
                            the call at the first mismatch
  --list-plugins            every plugin load attempt: those in $BP_PLUGINS (path list), with
                            the plugin's name, or why it failed, and both C ABI versions
                            Every plugin load is tried first in a child process, killed after
                            $BP_PLUGIN_LOAD_TIMEOUT seconds (default 60; 0: no trial load)
Selection:
  --ops NAMES               comma-separated names, each matched exactly: an op's base name
                            (add: add.Tensor with add_.Tensor and add.out, add.Scalar, ...), an
                            op (add.out, sum.IntList_out) or an entry (sum.dim_IntList); a name
                            that selects nothing is a usage error naming close names
  --ops-regex REGEX         entries with an entry or op name (or base name) that REGEX
                            (ECMAScript) matches whole: '(add|mul)\..*'; with --ops: either
  --dtypes LIST             comma-separated dtypes (default: all 12), e.g. float32,int64
  --profile NAME            fail unless the profile's ops all pass: tier1, tier1-all-dtypes
  --list-ops, --list-profiles
Ops and schemas:
  --list-ops --schemas      every declared op's schema (PyTorch syntax), one a line
  --schema NAMES            each overload of the named ops (names as --ops takes them): its
                            schema, the dtypes the suite checks, its variants (functional,
                            in-place, out=) and which of them the Common key provides to a
                            backend that registers only the out= op
  --dispatch-table OP       OP's dispatch table ("add.out"): for each dispatch key, the kernel
                            that serves it, why (own kernel, CompositeExplicit/Implicit,
                            backend fallback, fallthrough, missing) and where it was registered;
                            with --backend, after loading that backend
Fusion:
  --fusion-chains N         instead of the ops: N random chains of 2-8 pointwise and reduction
                            ops on the backend, run eagerly and fused in lazy mode, results
                            compared (docs/fusion.md); fails on any mismatch
  --fusion-seed S           the chains' seed (default 1)
Running:
  --isolate                 run each entry (each case of --cases / --replay) in a child
                            process: a crash, a hang or an exit fails its case, not the run;
                            the default for plugin backends (--backend PATH)
  --no-isolate              run in this process (the default for cpu and cuda): faster, but a
                            crash or hang ends the run (it still exits non-zero, naming the case)
  --timeout SECONDS         isolated: kill an entry (a --cases / --replay case) running longer
                            than SECONDS, a whole number from 1 (default 300)
  --expected-failures FILE  known gaps ("<op> <dtype or *>" lines): they do not fail the run
  --tolerances FILE         tolerance overrides (the shape of conformance/tolerances.json)
  --quiet                   no progress bar
Output:
  --report-dir DIR          write report.json, report.html, summary.txt and repros/ in DIR
  --json FILE, --html FILE  write the JSON / self-contained HTML report
  --text FILE               write the summary (as printed) to FILE
  --repro-dir DIR           where each failure's repro file goes (default: conformance-repros)
  --no-repro                write no repro files
Per-case results, sharding, merging:
  --case-results all|failures|none
                            which cases report.json lists one by one (id, status, message):
                            default all with --cases, failures (the cases that did not pass)
                            for the op database (its ~168,000 cases make a large report)
  --shard K/N               run shard K (from 1) of N: the selected entries (the cases of
                            --cases), item i in shard i % N + 1; Bazel's TEST_TOTAL_SHARDS /
                            TEST_SHARD_INDEX shard the same way when set
  merge REPORT.json...      merge the JSON reports of every shard of one run into one verdict
                            and report (exit status: the merged verdict)
Perf mode (in this process; docs/conformance_guide.md "Perf mode"):
  --perf                    also time each selected op x dtype on its samples and on the shape
                            catalogue's model shapes (GPT-2, LLaMA-7B, ResNet-50, BERT-base):
                            median time, spread, GB/s, fraction of the memory roof (a copy
                            within the device), speedup over the CPU reference, CPU fallback;
                            wrong calls are not timed; scores in the summary and reports
  --perf-shapes NAMES       catalogue shapes to time: shape names (bert-base.hidden), model
                            prefixes (gpt2-small, resnet50), all (default) or none
  --perf-warmup N           untimed calls before timing one (default 3)
  --perf-repeats N          timed calls per shape, from 1 (default 10)
  --perf-roof-mib N         MiB the memory roof's copy moves (default 64)
  --perf-baseline FILE      the JSON report of an earlier --perf run: fail (exit 1) when a
                            call's fastest repeat grew beyond the threshold (and by over 20 us)
  --perf-threshold PERCENT  the regression threshold (default 50: 50% slower)
Cases as data:
  --cases FILE              run the cases of a case file instead of the op database
  --replay FILE             run a repro file's case again and show the difference
  --write-cases FILE        write the selected entries' cases as a case file (no run)
Exit status: 0 pass, 1 fail, 2 usage error.
)";
}

bool is_plugin_path(const std::string& backend) {
  return backend.ends_with(".so") || backend.find('/') != std::string::npos;
}

std::string user_path(const std::string& path) {
  const char* dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || dir == nullptr || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(dir) / path).string();
}

namespace {

// A whole number of seconds, at least 1 (at most a day); `flag` names the option in errors.
// A decimal number from `min` to 999,999,999. Errors name the flag and the value.
int64_t whole_number(const std::string& flag, const std::string& value, int64_t min) {
  if (value.empty() || value.size() > 9 ||
      value.find_first_not_of("0123456789") != std::string::npos || std::stoll(value) < min) {
    throw std::invalid_argument(flag + ": expected a whole number from " + std::to_string(min) +
                                " to 999999999, got '" + value + "'");
  }
  return std::stoll(value);
}

int positive_seconds(const std::string& flag, const std::string& value) {
  constexpr long kMax = 24 * 3600;
  const std::string message = flag + ": expected a whole number of seconds from 1 to " +
                              std::to_string(kMax) + ", got '" + value + "'";
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument(message);
  }
  if (value.size() > 6 || std::stol(value) < 1 || std::stol(value) > kMax) {
    throw std::invalid_argument(message);
  }
  return static_cast<int>(std::stol(value));
}

// A whole number from `min` to `max`; `flag` names the option in errors.
int whole_number(const std::string& flag, const std::string& value, int min, int max) {
  const std::string message = flag + ": expected a whole number from " + std::to_string(min) +
                              " to " + std::to_string(max) + ", got '" + value + "'";
  if (value.empty() || value.size() > 9 ||
      value.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument(message);
  }
  const long n = std::stol(value);
  if (n < min || n > max) throw std::invalid_argument(message);
  return static_cast<int>(n);
}

// The options of the perf mode; false for any other flag.
bool parse_perf_option(CliOptions& o, const std::string& flag,
                       const std::function<std::string()>& next) {
  if (flag == "--perf") {
    o.perf = true;
  } else if (flag == "--perf-shapes") {
    const std::string list = next();
    std::istringstream in(list);
    o.perf_shapes.clear();
    for (std::string name; std::getline(in, name, ',');) o.perf_shapes.push_back(name);
    if (o.perf_shapes.empty() || list.back() == ',' ||
        std::find(o.perf_shapes.begin(), o.perf_shapes.end(), "") != o.perf_shapes.end()) {
      throw std::invalid_argument(
          "--perf-shapes: expected comma-separated shape or model names "
          "(gpt2-small,resnet50.conv1, all, none), got '" +
          list + "'");
    }
  } else if (flag == "--perf-warmup") {
    o.perf_warmup = whole_number(flag, next(), 0, 10000);
  } else if (flag == "--perf-repeats") {
    o.perf_repeats = whole_number(flag, next(), 1, 100000);
  } else if (flag == "--perf-roof-mib") {
    o.perf_roof_mib = whole_number(flag, next(), 1, 16384);
  } else if (flag == "--perf-baseline") {
    o.perf_baseline = user_path(next());
  } else if (flag == "--perf-threshold") {
    o.perf_threshold = whole_number(flag, next(), 1, 100000) / 100.0;
  } else {
    return false;
  }
  return true;
}

// Perf options only with --perf, and --perf only with a run of the op database in process.
void check_perf_options(const CliOptions& o, const std::vector<std::string>& args) {
  if (!o.perf) {
    for (const std::string& a : args) {
      if (a.starts_with("--perf-")) {
        throw std::invalid_argument(a.substr(0, a.find('=')) + " goes with --perf");
      }
    }
    return;
  }
  if (o.isolate.value_or(false)) {
    throw std::invalid_argument(
        "--perf runs in this process (timing a child process would time its start): drop "
        "--isolate");
  }
  if (!o.cases.empty() || !o.replay.empty() || !o.write_cases.empty() || o.merge) {
    throw std::invalid_argument(
        "--perf times the op database's entries: it does not go with --cases, --replay, "
        "--write-cases or merge");
  }
  if (o.shard.count > 1) throw std::invalid_argument("--perf does not go with --shard");
}

// --- Sharding, per-case results and merging: their options and environment. ---

// "K/N" with 1 <= K <= N (at most 100000 shards).
Shard parse_shard(const std::string& value) {
  const std::string message =
      "--shard: expected K/N, shard K (from 1) of N, with 1 <= K <= N <= 100000 (e.g. 2/4), got '" +
      value + "'";
  const size_t slash = value.find('/');
  const std::string k = value.substr(0, slash);
  const std::string n = slash == std::string::npos ? "" : value.substr(slash + 1);
  for (const std::string& part : {k, n}) {
    if (part.empty() || part.size() > 6 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(message);
  }
  const Shard shard{std::stoi(k), std::stoi(n)};
  if (shard.count < 1 || shard.count > 100000 || shard.index < 1 || shard.index > shard.count)
    throw std::invalid_argument(message);
  return shard;
}

// The options of this block; false for any other flag. With `merge`, only these and the
// report options are accepted.
bool parse_split_option(CliOptions& o, const std::string& flag,
                        const std::function<std::string()>& next) {
  if (o.merge && !flag.starts_with("-")) {
    o.merge_reports.push_back(user_path(flag));
  } else if (o.merge && flag != "--report-dir" && flag != "--json" && flag != "--html" &&
             flag != "--text" && flag != "--quiet" && flag != "--help" && flag != "-h") {
    throw std::invalid_argument(
        "merge takes REPORT.json files and --report-dir, --json, --html, "
        "--text; not '" +
        flag + "'");
  } else if (flag == "--shard") {
    o.shard = parse_shard(next());
  } else if (flag == "--case-results") {
    const std::string level = next();
    if (level == "all") {
      o.case_results = CaseResultsLevel::kAll;
    } else if (level == "failures") {
      o.case_results = CaseResultsLevel::kFailures;
    } else if (level == "none") {
      o.case_results = CaseResultsLevel::kNone;
    } else {
      throw std::invalid_argument("--case-results: expected all, failures or none, got '" + level +
                                  "'");
    }
  } else {
    return false;
  }
  return true;
}

// Bazel's (and GoogleTest's) test sharding: TEST_TOTAL_SHARDS shards, this one TEST_SHARD_INDEX
// (from 0); TEST_SHARD_STATUS_FILE is touched to say that sharding is supported.
void apply_sharding_environment(CliOptions& o, bool shard_flag_given) {
  const char* total = std::getenv("TEST_TOTAL_SHARDS");
  if (total == nullptr || *total == '\0') return;
  const char* index = std::getenv("TEST_SHARD_INDEX");
  if (shard_flag_given) {
    throw std::invalid_argument(
        "--shard and the test runner's sharding (TEST_TOTAL_SHARDS is set) both ask for a shard: "
        "give one of them");
  }
  const std::string k = index == nullptr ? "" : index;
  const std::string n = total;
  if (k.empty() || k.size() > 6 || k.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("TEST_SHARD_INDEX is '" + k + "': with TEST_TOTAL_SHARDS=" + n +
                                " it must be a shard index from 0 to " + n + " - 1");
  }
  try {
    o.shard = parse_shard(std::to_string(std::stoi(k) + 1) + "/" + n);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("TEST_TOTAL_SHARDS=" + n + " and TEST_SHARD_INDEX=" + k +
                                ": expected 1 to 100000 shards and an index from 0 to " +
                                "TEST_TOTAL_SHARDS - 1");
  }
  const char* status = std::getenv("TEST_SHARD_STATUS_FILE");
  if (status != nullptr) o.shard_status_file = status;
}

}  // namespace

CliOptions parse_options(const std::vector<std::string>& args) {
  CliOptions o;
  o.merge = !args.empty() && args[0] == "merge";
  bool shard_flag_given = false;
  for (size_t i = o.merge ? 1 : 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string value;
    bool has_value = false;
    if (const size_t eq = flag.find('='); flag.starts_with("--") && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    auto next = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      return args[++i];
    };
    if (parse_split_option(o, flag, next)) {
      shard_flag_given = shard_flag_given || flag == "--shard";
    } else if (parse_perf_option(o, flag, next)) {
      // the perf mode's
    } else if (flag == "--backend") {
      o.backend = next();
      if (is_plugin_path(o.backend)) o.backend = user_path(o.backend);
    } else if (flag == "--device") {
      o.device = next();
    } else if (flag == "--ops") {
      for (std::string& name : split_op_names(flag, next())) o.ops.names.push_back(std::move(name));
    } else if (flag == "--ops-regex") {
      o.ops.regex = next();
    } else if (flag == "--dtypes") {
      std::istringstream list(next());
      std::string name;
      o.dtypes = DtypeSet();
      while (std::getline(list, name, ',')) {
        std::optional<ScalarType> t = scalar_type_from_name(name);
        if (!t) throw std::invalid_argument("--dtypes: unknown dtype '" + name + "'");
        o.dtypes = o.dtypes | DtypeSet(*t);
      }
    } else if (flag == "--profile") {
      o.profile = next();
    } else if (flag == "--isolate") {
      o.isolate = true;
    } else if (flag == "--no-isolate") {
      o.isolate = false;
    } else if (flag == "--timeout") {
      o.timeout_seconds = positive_seconds(flag, next());
    } else if (flag == "--expected-failures") {
      o.expected_failures = user_path(next());
    } else if (flag == "--tolerances") {
      o.tolerances = user_path(next());
    } else if (flag == "--json") {
      o.json_report = user_path(next());
    } else if (flag == "--html") {
      o.html_report = user_path(next());
    } else if (flag == "--text") {
      o.text_report = user_path(next());
    } else if (flag == "--report-dir") {
      o.report_dir = user_path(next());
    } else if (flag == "--repro-dir") {
      o.repro_dir = user_path(next());
    } else if (flag == "--no-repro") {
      o.repros = false;
    } else if (flag == "--cases") {
      o.cases = user_path(next());
    } else if (flag == "--replay") {
      o.replay = user_path(next());
    } else if (flag == "--write-cases") {
      o.write_cases = user_path(next());
    } else if (flag == "--list-ops") {
      o.list_ops = true;
    } else if (flag == "--schemas") {
      o.schemas = true;
    } else if (flag == "--schema") {
      for (std::string& name : split_op_names(flag, next())) o.schema.push_back(std::move(name));
    } else if (flag == "--dispatch-table") {
      o.dispatch_table = next();
    } else if (flag == "--fusion-chains") {
      o.fusion_chains = whole_number(flag, next(), 1);
    } else if (flag == "--fusion-seed") {
      o.fusion_seed = static_cast<uint64_t>(whole_number(flag, next(), 0));
    } else if (flag == "--list-backends") {
      o.list_backends = true;
    } else if (flag == "--debug-checks") {
      o.debug_checks = true;
    } else if (flag == "--list-plugins") {
      o.list_plugins = true;
    } else if (flag == "--list-profiles") {
      o.list_profiles = true;
    } else if (flag == "--quiet") {
      o.quiet = true;
    } else if (flag == "-h" || flag == "--help") {
      o.help = true;
    } else {
      throw std::invalid_argument("unknown option '" + args[i] + "'");
    }
  }
  if (o.schemas && !o.list_ops) throw std::invalid_argument("--schemas goes with --list-ops");
  if (!o.report_dir.empty()) {
    const std::filesystem::path dir(o.report_dir);
    if (o.json_report.empty()) o.json_report = (dir / "report.json").string();
    if (o.html_report.empty()) o.html_report = (dir / "report.html").string();
    if (o.text_report.empty()) o.text_report = (dir / "summary.txt").string();
    if (o.repro_dir == "conformance-repros") o.repro_dir = (dir / "repros").string();
  }
  if (o.repro_dir == "conformance-repros") o.repro_dir = user_path(o.repro_dir);
  if (o.merge && o.merge_reports.empty() && !o.help) {
    throw std::invalid_argument("merge: give the JSON reports of every shard of a run");
  }
  if (!o.merge) apply_sharding_environment(o, shard_flag_given);
  check_perf_options(o, args);
  return o;
}

}  // namespace bp::conformance
