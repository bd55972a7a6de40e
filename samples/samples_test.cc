// The sample plugins pass the conformance suite for the ops they implement (every dtype: their
// kernels run float32 / float64 and hand the rest to the CPU), and the report says which kernel
// served each op: the plugin's own, the Common key on its out= kernel, or the CPU fallback.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "conformance/cli/cli.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

// Runs the suite on `plugin` for the ops `ops` selects (--ops); returns the JSON report.
json run_on_plugin(const std::string& plugin, const std::string& ops, CliRun* run) {
  const std::string path = ::testing::TempDir() + "/samples_report.json";
  std::filesystem::remove(path);
  *run = run_cli_quietly({"--backend", plugin, "--ops", ops, "--json", path, "--no-repro"},
                         {cpu_backend_factory()});
  std::ifstream in(path);
  return in ? json::parse(in) : json();
}

void expect_served_by_kernel(const json& report, const std::string& out_op,
                             const std::string& functional_op) {
  const json& out = report_op(report, out_op);
  EXPECT_EQ(out["status"], "pass") << out_op;
  // The plugin's kernel serves the op; it hands the dtypes it lacks to api->cpu_fallback, which
  // served_by counts ("kernel [toy kernel (C ABI)] + cpu_fallback (572 of 649 calls)").
  EXPECT_EQ(out["dispatch_table"].get<std::string>().rfind("kernel [", 0), 0u) << out_op;
  EXPECT_LT(out["calls"]["cpu_fallback"].get<int64_t>(), out["calls"]["total"].get<int64_t>())
      << out_op << ": " << out["served_by"];
  const json& functional = report_op(report, functional_op);
  EXPECT_EQ(functional["status"], "pass") << functional_op;
  EXPECT_TRUE(functional["via_common"].get<bool>())
      << functional_op << ": " << functional["served_by"];
}

TEST(Samples, TheCPluginPassesForItsOpsAndFallsBackForTheRest) {
  CliRun r;
  const json report = run_on_plugin("samples/c_plugin/libtoy_plugin.so",
                                    "add.Tensor,sub.Tensor,mul.Tensor,neg,exp", &r);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  EXPECT_EQ(report["backend"]["name"], "toy");
  for (const std::string op : {"add", "sub", "mul"}) {
    expect_served_by_kernel(report, op + ".out", op + ".Tensor");
  }
  expect_served_by_kernel(report, "neg.out", "neg");
  const json& exp = report_op(report, "exp");
  EXPECT_EQ(exp["status"], "pass");
  EXPECT_TRUE(exp["via_fallback"].get<bool>()) << exp["served_by"];
  EXPECT_GT(exp["bytes_to_host"].get<int64_t>(), 0);
}

// Perf mode on the sample plugin: its own add.out kernel (float32) and an op it leaves to the
// CPU fallback (exp) timed on a model shape, compared with the CPU reference, and reported.
TEST(Samples, TheCPluginsPerfModeTimesItsKernelsAndItsFallback) {
  const std::string path = ::testing::TempDir() + "/samples_perf.json";
  std::filesystem::remove(path);
  const CliRun r = run_cli_quietly(
      {"--backend", "samples/c_plugin/libtoy_plugin.so", "--perf", "--ops", "add.Tensor,exp",
       "--dtypes", "float32", "--perf-shapes", "bert-base.pooled", "--perf-repeats", "3",
       "--perf-warmup", "1", "--perf-roof-mib", "1", "--json", path, "--no-repro"},
      {cpu_backend_factory()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Perf scores over 2 op x dtype cells: geomean speedup "));
  std::ifstream in(path);
  const json perf = json::parse(in)["perf"];
  EXPECT_EQ(perf["backend"], "toy");
  EXPECT_EQ(perf["reference"], "the CPU reference backend, same arguments");
  EXPECT_GT(perf["roof"]["gbps"].get<double>(), 0);
  int timed = 0;
  for (const json& rec : perf["records"]) {
    if (rec["shape"] != "bert-base.pooled") continue;
    ++timed;
    EXPECT_TRUE(rec["correct"].get<bool>()) << rec.dump();
    EXPECT_GT(rec["time"]["median_us"].get<double>(), 0) << rec.dump();
    EXPECT_GT(rec["reference_time"]["median_us"].get<double>(), 0) << rec.dump();
    EXPECT_GT(rec["speedup"].get<double>(), 0) << rec.dump();
    // The toy's add.out serves float32 itself; exp goes through the CPU fallback.
    EXPECT_EQ(rec["via_fallback"].get<bool>(), rec["op"] == "exp") << rec.dump();
    EXPECT_EQ(rec["fallback_calls"].get<int64_t>() > 0, rec["op"] == "exp") << rec.dump();
  }
  EXPECT_EQ(timed, 2);
}

// The minimal plugin, one run per op it implements: `--ops` names a single op (add.out selects the
// entry of add.Tensor, add_.Tensor and add.out), which selects the same entry whether --ops is
// searched as a regex or matched as an exact name.
TEST(Samples, TheMinimalCPluginPassesForItsOps) {
  for (const auto& [out_op, functional_op] : std::vector<std::pair<std::string, std::string>>{
           {"add.out", "add.Tensor"}, {"neg.out", "neg"}}) {
    CliRun r;
    const json report = run_on_plugin("samples/c_plugin_minimal/libmini_plugin.so", out_op, &r);
    ASSERT_EQ(r.status, 0) << out_op << "\n" << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
    EXPECT_EQ(report["backend"]["name"], "mini");
    ASSERT_EQ(report["ops"].size(), 3u) << report["ops"].dump(1);
    expect_served_by_kernel(report, out_op, functional_op);
    const json& in_place = report_op(report, out_op == "add.out" ? "add_.Tensor" : "neg_");
    EXPECT_EQ(in_place["status"], "pass");
    EXPECT_TRUE(in_place["via_common"].get<bool>()) << in_place["served_by"];
  }
}

TEST(Samples, TheMinimalCPluginFitsIn120Lines) {
  std::ifstream in("samples/c_plugin_minimal/mini_plugin.c");
  ASSERT_TRUE(in) << "cannot read samples/c_plugin_minimal/mini_plugin.c";
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_LE(std::count(text.begin(), text.end(), '\n'), 120);
}

TEST(Samples, TheCppPluginPassesForItsOps) {
  CliRun r;
  const json report =
      run_on_plugin("samples/cpp_plugin/libtoy_cpp_plugin.so", "add.Tensor,mul.Tensor", &r);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  EXPECT_EQ(report["backend"]["name"], "toycc");
  expect_served_by_kernel(report, "add.out", "add.Tensor");
  expect_served_by_kernel(report, "mul.out", "mul.Tensor");
}

}  // namespace
}  // namespace bp::conformance
