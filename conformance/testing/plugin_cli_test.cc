// `--backend path/to/plugin.so`: the CLI loads a C-ABI plugin (sdk/c_api/testing/c_test_plugin.c:
// kernels for add.out and mul.out, the CPU fallback for the rest), checks its ops against the
// reference, says which kernel served each op and how many bytes moved, and gives clear errors
// for plugins it cannot test.
#include <filesystem>
#include <fstream>
#include <utility>

#include "conformance/cli/cli.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string kPlugin = "sdk/c_api/testing/libc_test_plugin.so";

CliRun cli(std::vector<std::string> args) {
  return run_cli_quietly(std::move(args), {cpu_backend_factory(), cuda_backend_factory()});
}

json run_report(const std::vector<std::string>& args, CliRun* run) {
  const std::string path = ::testing::TempDir() + "/plugin_report.json";
  std::filesystem::remove(path);
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--json", path, "--no-repro"});
  *run = cli(all);
  std::ifstream in(path);
  return in ? json::parse(in) : json();
}

TEST(PluginCli, APluginsKernelsAndItsCpuFallbackPassAndAreReportedAsSuch) {
  CliRun r;
  const json report = run_report({"--backend", kPlugin, "--ops", "add.Tensor,mul.Tensor,neg"}, &r);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  EXPECT_EQ(report["backend"]["name"], "cplug");
  EXPECT_THAT(report["backend"]["description"].get<std::string>(),
              HasSubstr("plugin cplug (" + kPlugin + ")"));
  EXPECT_GT(report["totals"]["cases"]["passed"].get<int>(), 100);

  // add.out has the plugin's kernel; add and add_ reach it through Common. The kernel hands the
  // dtypes it does not handle (half, bfloat16, complex) to api->cpu_fallback: served_by says
  // in how many calls.
  const json& add_out = report_op(report, "add.out");
  EXPECT_EQ(add_out["dispatch_table"], "kernel [cplug kernel (C ABI)]");
  const int64_t calls = add_out["calls"]["total"].get<int64_t>();
  const int64_t fell_back = add_out["calls"]["cpu_fallback"].get<int64_t>();
  EXPECT_GT(fell_back, 0);
  EXPECT_LT(fell_back, calls / 2);  // most calls ran on the plugin's own kernel
  EXPECT_EQ(add_out["served_by"], "kernel [cplug kernel (C ABI)] + cpu_fallback (" +
                                      std::to_string(fell_back) + " of " + std::to_string(calls) +
                                      " calls)");
  EXPECT_TRUE(add_out["via_fallback"].get<bool>());
  EXPECT_EQ(add_out["dtypes"]["float32"]["status"], "pass");
  const json& add = report_op(report, "add.Tensor");
  EXPECT_TRUE(add["via_common"].get<bool>()) << add["served_by"];
  EXPECT_THAT(add["served_by"].get<std::string>(),
              HasSubstr("Common -> add.out: kernel [cplug kernel (C ABI)] + cpu_fallback ("));
  EXPECT_EQ(add["status"], "pass");
  // neg has no kernel: the CPU fallback runs it, moving its tensors to the host and back.
  const json& neg = report_op(report, "neg.out");
  EXPECT_TRUE(neg["via_fallback"].get<bool>()) << neg["served_by"];
  EXPECT_EQ(neg["status"], "pass");
  EXPECT_GT(neg["bytes_to_host"].get<int64_t>(), 0);
  EXPECT_GT(neg["bytes_to_device"].get<int64_t>(), 0);
}

TEST(PluginCli, TheSameRunInChildProcessesGivesTheSameVerdict) {
  CliRun r;
  const json report = run_report({"--backend", kPlugin, "--ops", "mul.Tensor", "--isolate"}, &r);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(report_op(report, "mul.out")["status"], "pass");
}

TEST(PluginCli, PluginsThatCannotBeTestedGiveClearErrors) {
  CliRun r = cli({"--backend", "sdk/c_api/testing/libno_such_plugin.so"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot test plugin sdk/c_api/testing/libno_such_plugin.so: "
                               "cannot load plugin 'sdk/c_api/testing/libno_such_plugin.so': "
                               "no such file"));

  r = cli({"--backend", "sdk/c_api/testing/libc_test_plugin_failing.so"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot test plugin sdk/c_api/testing/libc_test_plugin_failing.so"));

  r = cli({"--backend", kPlugin, "--device", "npu"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("plugin " + kPlugin +
                               " registered no backend 'npu' (it registered: cplug)"));

  r = cli({"--backend", "cpu", "--device", "cplug"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--device goes with a plugin path --backend"));
}

// --debug-checks: a correct plugin's kernels pass the host's checks against the meta functions.
TEST(PluginCli, DebugChecksPassACorrectPlugin) {
  const CliRun r = cli({"--backend", kPlugin, "--debug-checks", "--ops", "add.Tensor,mul.Tensor",
                        "--dtypes", "float32,int64", "--no-repro"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
}

// Every load attempt is kept as a record: --list-plugins prints them, failures with their cause.
TEST(PluginCli, ListPluginsPrintsEachLoadAttempt) {
  cli({"--backend", "sdk/c_api/testing/libno_such_plugin.so"});
  cli({"--backend", kPlugin, "--ops", "neg", "--dtypes", "float32", "--no-repro"});
  const CliRun r = cli({"--list-plugins"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("failed  sdk/c_api/testing/libno_such_plugin.so: cannot load "
                               "plugin 'sdk/c_api/testing/libno_such_plugin.so': no such file "
                               "(host C ABI 0.5)\n"));
  EXPECT_THAT(r.out,
              HasSubstr("loaded  cplug  " + kPlugin + "  (built against C ABI 0.5; host 0.5)\n"));
}

// `--backend cuda` loads the reference CUDA plugin: on a machine without a GPU (CI) the run stops
// with the plugin's own reason; with one, add.out passes.
TEST(PluginCli, TheCudaBackendRunsOrSaysWhyCudaIsUnavailable) {
  const CliRun r = cli({"--backend", "cuda", "--ops", "add.out", "--dtypes", "float32"});
  if (r.status == 2) {
    EXPECT_THAT(r.err, HasSubstr("cannot test plugin reference_backend/cuda/libbackplane_cuda.so"));
    EXPECT_THAT(r.err, HasSubstr("CUDA unavailable: "));
  } else {
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("Backplane conformance on backend 'cuda'"));
    EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  }
}

TEST(PluginCli, ThePluginIsUnloadedAfterARunSoItCanBeLoadedAgain) {
  for (int i = 0; i < 2; ++i) {
    CliRun r;
    run_report({"--backend", kPlugin, "--ops", "add.out", "--dtypes", "float32"}, &r);
    ASSERT_EQ(r.status, 0) << "run " << i << ": " << r.out << r.err;
  }
}

}  // namespace
}  // namespace bp::conformance
