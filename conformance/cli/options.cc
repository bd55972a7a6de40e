#include "conformance/cli/options.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace bp::conformance {

std::string usage() {
  return R"(Usage: backplane-conformance [options]

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

}  // namespace

CliOptions parse_options(const std::vector<std::string>& args) {
  CliOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
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
    if (flag == "--backend") {
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
  return o;
}

}  // namespace bp::conformance
