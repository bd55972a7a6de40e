// Runs that must never end green or silent: the conformance binary run as a subprocess (so that a
// crash, an exit() or a hang is seen from outside) on deliberately broken C plugins
// (broken_plugin.c) and bad inputs. Each row says what the run must print, with what status it
// must end, and what its report may say.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "conformance/testing/test_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string kBinary = "conformance/backplane-conformance";

std::string plugin(const std::string& defect) {
  return "conformance/testing/libbroken_" + defect + ".so";
}

struct Ended {
  bool exited = false;
  int status = -1;  // exit status, when exited
  int signal = 0;   // the signal that killed it, when not
  bool hung = false;
  double seconds = 0;
  std::string out, err;

  bool green() const { return exited && status == 0; }
  std::string describe() const {
    return (hung     ? "hung"
            : exited ? "exit " + std::to_string(status)
                     : "signal " + std::to_string(signal)) +
           "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
  }
};

// Runs the conformance binary with `args` (and --quiet), `env` added to the environment; kills
// it after `timeout_seconds` (hung).
Ended run(const std::string& name, std::vector<std::string> args,
          const std::vector<std::pair<std::string, std::string>>& env = {},
          int timeout_seconds = 120) {
  const std::string dir = temp_dir("out-" + name);
  args.insert(args.begin(), kBinary);
  args.push_back("--quiet");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& [key, value] : env) ::setenv(key.c_str(), value.c_str(), 1);
    // Under ASan (the sanitizer builds of this test), SIGSEGV stays the program's, as in a plain
    // build: ASan's handler would turn a crash into exit(1) and the crash rows would test ASan.
    const char* asan = std::getenv("ASAN_OPTIONS");
    ::setenv("ASAN_OPTIONS",
             ((asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : std::string()) +
              "handle_segv=0")
                 .c_str(),
             1);
    const int out = ::open((dir + "/stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open((dir + "/stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Ended e;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(timeout_seconds)) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      e.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  e.exited = WIFEXITED(status);
  if (e.exited) e.status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
  e.out = read_file(dir + "/stdout");
  e.err = read_file(dir + "/stderr");
  return e;
}

// A case file: a correct add.out case, then one naming an op the registry does not declare.
const char kCases[] = R"json({
  "format": "backplane-conformance-cases", "version": 1,
  "cases": [
    {"op": "add.Tensor",
     "args": {"self": {"dtype": "float32", "sizes": [2], "values": [1, 2]},
              "other": {"dtype": "float32", "sizes": [2], "values": [3, 4]}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [4, 6]}]}}
    UNDECLARED
  ]})json";

std::string case_file(const std::string& name, bool with_undeclared_op) {
  std::string text = kCases;
  text.replace(
      text.find("UNDECLARED"), 10,
      with_undeclared_op
          ? R"json(, {"op": "no_such_op.Tensor", "args": {}, "expect": {"outputs": []}})json"
          : "");
  const std::string path = temp_dir("cases-" + name) + "/cases.json";
  std::ofstream(path) << text;
  return path;
}

// One broken run: its arguments (a report directory is added), environment, and what must come
// of it.
struct Row {
  std::string name = "";
  std::vector<std::string> args = {};
  std::vector<std::pair<std::string, std::string>> env = {};
  std::optional<int> status = std::nullopt;  // the exit status; unset: any end but green
  std::vector<std::string> err_has = {};
  std::vector<std::string> out_has = {};
  // report.json's verdict.passed must be false (when the run wrote one, or a placeholder).
  bool report = true;
};

std::vector<Row> rows() {
  const std::string add = "add.out";
  return {
      // A failed case in an undeclared op is a failure, not "not declared".
      {.name = "undeclared_op_in_case_file",
       .args = {"--cases", case_file("undeclared", true)},
       .status = 1,
       .err_has = {"no_such_op.Tensor"},
       .out_has = {"Verdict: FAIL"}},
      // A kernel that calls exit(0) in process: the run names the case and ends with status 1.
      {.name = "kernel_exit_in_process",
       .args = {"--backend", plugin("kernel_exit"), "--no-isolate", "--ops", add, "--dtypes",
                "float32"},
       .status = 1,
       .err_has = {"exit() called", "while running case add.", "float32"}},
      // Isolated (the default for plugins): the child that exits before its "done" marker fails
      // its case.
      {.name = "kernel_exit_isolated",
       .args = {"--backend", plugin("kernel_exit"), "--ops", add, "--dtypes", "float32"},
       .status = 1,
       .out_has = {"exited with status", "Verdict: FAIL"}},
      // A crashing kernel fails its op; the run goes on and reports (isolation by default).
      {.name = "kernel_crash_isolated_by_default",
       .args = {"--backend", plugin("kernel_crash"), "--ops", "add.out,neg", "--dtypes", "float32"},
       .status = 1,
       .out_has = {"killed by signal", "Verdict: FAIL"}},
      // In process, the crash ends the run naming the case; no report says it passed.
      {.name = "kernel_crash_in_process",
       .args = {"--backend", plugin("kernel_crash"), "--no-isolate", "--ops", add, "--dtypes",
                "float32"},
       .err_has = {"fatal signal", "while running case add."}},
      // A hanging kernel is killed after --timeout and fails its op.
      {.name = "kernel_hang_isolated",
       .args = {"--backend", plugin("kernel_hang"), "--timeout", "1", "--ops", add, "--dtypes",
                "float32"},
       .status = 1,
       .out_has = {"timed out after 1 s", "Verdict: FAIL"}},
      // A crash in the unload hook comes before the reports: no report says passed.
      {.name = "unload_hook_crash",
       .args = {"--backend", plugin("unload_crash"), "--ops", "neg", "--dtypes", "float32"},
       .err_has = {"fatal signal", "while unloading the backend broken (teardown)"}},
      // Plugin loading is tried in a child process first.
      {.name = "init_crash",
       .args = {"--backend", plugin("init_crash")},
       .status = 2,
       .err_has = {"plugin " + plugin("init_crash") + ": bp_plugin_init crashed (signal 11"}},
      {.name = "init_hang",
       .args = {"--backend", plugin("init_hang")},
       .env = {{"BP_PLUGIN_LOAD_TIMEOUT", "1"}},
       .status = 2,
       .err_has = {"plugin " + plugin("init_hang") + ": bp_plugin_init did not return within 1 s"}},
      // --cases and --replay run isolated too, with the per-case timeout.
      {.name = "cases_isolated_crash",
       .args = {"--backend", plugin("kernel_crash"), "--cases", case_file("crash", false)},
       .status = 1,
       .out_has = {"killed by signal", "Verdict: FAIL"}},
      {.name = "cases_isolated_hang",
       .args = {"--backend", plugin("kernel_hang"), "--timeout", "1", "--cases",
                case_file("hang", false)},
       .status = 1,
       .out_has = {"timed out after 1 s", "Verdict: FAIL"}},
      {.name = "cases_exit_in_process",
       .args = {"--backend", plugin("kernel_exit"), "--no-isolate", "--cases",
                case_file("exit", false)},
       .status = 1,
       .err_has = {"exit() called", "while running case add."}},
      {.name = "replay_isolated_crash",
       .args = {"--backend", plugin("kernel_crash"), "--replay", case_file("replay", false)},
       .status = 1,
       .out_has = {"killed by signal", "verdict:  fail"},
       .report = false},
      {.name = "replay_isolated_hang",
       .args = {"--backend", plugin("kernel_hang"), "--timeout", "1", "--replay",
                case_file("replay_hang", false)},
       .status = 1,
       .out_has = {"timed out after 1 s", "verdict:  fail"},
       .report = false},
  };
}

class BrokenRun : public ::testing::TestWithParam<Row> {};

TEST_P(BrokenRun, NeverEndsGreenOrSilent) {
  const Row& row = GetParam();
  const std::string dir = temp_dir("report-" + row.name);
  std::vector<std::string> args = row.args;
  if (row.report) args.insert(args.end(), {"--report-dir", dir});
  const Ended e = run(row.name, args, row.env, 60);
  ASSERT_FALSE(e.hung) << e.describe();
  EXPECT_FALSE(e.green()) << e.describe();
  if (row.status) {
    EXPECT_TRUE(e.exited) << e.describe();
    EXPECT_EQ(e.status, *row.status) << e.describe();
  }
  for (const std::string& s : row.err_has) EXPECT_THAT(e.err, HasSubstr(s)) << e.describe();
  for (const std::string& s : row.out_has) EXPECT_THAT(e.out, HasSubstr(s)) << e.describe();
  if (row.report && std::filesystem::exists(dir + "/report.json")) {
    const json report = json::parse(read_file(dir + "/report.json"));
    EXPECT_FALSE(report["verdict"]["passed"].get<bool>()) << report.dump(2);
  }
  // The reports are written before anything runs (placeholders), so a run that got as far as
  // loading its backend always leaves one.
  if (row.report && row.status != 2) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/report.json")) << e.describe();
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, BrokenRun, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Row>& info) { return info.param.name; });

// The control: the same plugin without a defect passes, isolated by default.
TEST(BrokenRuns, TheCorrectVariantPassesIsolatedByDefault) {
  const std::string dir = temp_dir("report-correct");
  const Ended e = run("correct", {"--backend", plugin("none"), "--ops", "add.out,neg", "--dtypes",
                                  "float32", "--report-dir", dir});
  EXPECT_TRUE(e.green()) << e.describe();
  const json report = json::parse(read_file(dir + "/report.json"));
  EXPECT_TRUE(report["verdict"]["passed"].get<bool>());
  EXPECT_TRUE(report["isolated"].get<bool>());
}

// $BP_PLUGINS users (here --list-plugins): the CLI probes each load in a child process.
TEST(BrokenRuns, ListPluginsReportsAPluginWhoseInitCrashesOrHangs) {
  Ended e = run("list_crash", {"--list-plugins"}, {{"BP_PLUGINS", plugin("init_crash")}}, 60);
  EXPECT_TRUE(e.green()) << e.describe();
  EXPECT_THAT(e.out, HasSubstr("failed  " + plugin("init_crash") + ": plugin " +
                               plugin("init_crash") + ": bp_plugin_init crashed (signal 11"));
  e = run("list_hang", {"--list-plugins"},
          {{"BP_PLUGINS", plugin("init_hang")}, {"BP_PLUGIN_LOAD_TIMEOUT", "1"}}, 60);
  EXPECT_TRUE(e.green()) << e.describe();
  EXPECT_THAT(e.out, HasSubstr("bp_plugin_init did not return within 1 s"));
  EXPECT_LT(e.seconds, 30);
}

// Without the probe (BP_PLUGIN_LOAD_TIMEOUT=0, as in a library user's process by default), a
// crash in init still names the plugin.
TEST(BrokenRuns, WithoutTheProbeACrashInInitNamesThePlugin) {
  const Ended e = run("list_crash_no_probe", {"--list-plugins"},
                      {{"BP_PLUGINS", plugin("init_crash")}, {"BP_PLUGIN_LOAD_TIMEOUT", "0"}});
  EXPECT_FALSE(e.green()) << e.describe();
  EXPECT_THAT(e.err, HasSubstr("Backplane: fatal signal while plugin '" + plugin("init_crash") +
                               "' ran bp_plugin_init"));
}

// Bad option values and unwritable report paths are found before anything runs.
TEST(BrokenRuns, BadTimeoutsAndUnwritableReportsAreUsageErrorsBeforeTheRun) {
  for (const char* value : {"abc", "0", "-5", "1.5", "99999999999"}) {
    const Ended e =
        run("timeout", {"--timeout", value, "--ops", "neg", "--dtypes", "float32"}, {}, 60);
    EXPECT_EQ(e.status, 2) << e.describe();
    EXPECT_THAT(e.err, HasSubstr(std::string("--timeout: expected a whole number of seconds from "
                                             "1 to 86400, got '") +
                                 value + "'"));
  }
  const std::string dir = temp_dir("unwritable");
  std::ofstream(dir + "/a_file") << "not a directory";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--report-dir", dir + "/a_file/reports"},
        std::vector<std::string>{"--json", dir + "/a_file/report.json"}}) {
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--ops", "neg", "--dtypes", "float32"});
    const Ended e = run("unwritable", all);
    EXPECT_EQ(e.status, 2) << e.describe();
    EXPECT_THAT(e.err, HasSubstr("cannot write the report file " + dir + "/a_file/"));
    EXPECT_THAT(e.out, ::testing::Not(HasSubstr("Verdict")));
  }
}

}  // namespace
}  // namespace bp::conformance
