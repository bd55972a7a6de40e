// backplane-conformance --perf: reports and scores on the CPU backend; a wrong kernel is not
// timed and scores nothing; the --perf-baseline gate fails on a deliberately slowed plugin
// (libbroken_kernel_slow.so: add.out sleeps 20 ms per call) and passes on an unchanged one; bad
// perf options and baselines are usage errors. Shapes and repeats are kept small: CI has two
// cores, shared.
#include <string>
#include <utility>
#include <vector>

#include "conformance/cli/cli.h"
#include "conformance/testing/broken_backends.h"
#include "conformance/testing/cli_run.h"
#include "conformance/testing/test_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

// A quick perf run: one dtype, few repeats, a 1 MiB roof.
std::vector<std::string> perf_args(std::vector<std::string> more) {
  std::vector<std::string> args = {"--perf", "--dtypes",      "float32", "--perf-repeats",
                                   "3",      "--perf-warmup", "1",       "--perf-roof-mib",
                                   "1",      "--no-repro"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

const json* perf_record(const json& report, const std::string& op, const std::string& shape) {
  for (const json& r : report["perf"]["records"]) {
    if (r["op"] == op && r["shape"] == shape) return &r;
  }
  return nullptr;
}

TEST(PerfCli, TimesTheCpuBackendOnModelShapesAndWritesEveryReport) {
  const std::string dir = temp_dir("perf_cpu");
  const CliRun r =
      run_cli_quietly(perf_args({"--ops", "add.Tensor,neg", "--perf-shapes", "resnet50.pooled",
                                 "--case-results", "all", "--report-dir", dir}),
                      {cpu_backend_factory()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // The CPU is its own reference: every correct cell is exactly 1.0x, none faster.
  EXPECT_THAT(r.out, HasSubstr("Perf scores over 2 op x dtype cells: geomean speedup 1.00x over "
                               "the CPU reference; 0% faster than the reference;"));
  EXPECT_THAT(r.out, HasSubstr("memory roof: "));
  const json report = read_json_file(dir + "/report.json");
  EXPECT_TRUE(report["verdict"]["passed"].get<bool>());
  const json& perf = report["perf"];
  EXPECT_EQ(perf["backend"], "cpu");
  EXPECT_EQ(perf["repeats"], 3);
  EXPECT_EQ(perf["shapes"], json::array({"resnet50.pooled"}));
  EXPECT_GT(perf["roof"]["gbps"].get<double>(), 0);
  EXPECT_EQ(perf["roof"]["bytes"], 1 << 20);
  EXPECT_EQ(perf["scores"]["cells"], 2);
  EXPECT_EQ(perf["scores"]["wrong_cells"], 0);
  const json* add = perf_record(report, "add.Tensor", "resnet50.pooled");
  ASSERT_NE(add, nullptr) << perf.dump(1);
  EXPECT_TRUE((*add)["correct"].get<bool>());
  EXPECT_EQ((*add)["time"]["repeats"], 3);
  EXPECT_GT((*add)["time"]["median_us"].get<double>(), 0);
  EXPECT_EQ((*add)["bytes"], 3 * 2048 * 4);
  EXPECT_EQ((*add)["speedup"], 1.0);
  EXPECT_FALSE((*add)["via_fallback"].get<bool>());
  EXPECT_THAT((*add)["served_by"].get<std::string>(), HasSubstr("kernel"));
  // The op's own samples are timed too.
  EXPECT_NE(perf_record(report, "neg", "sample 0"), nullptr);
  // The timed calls were checked: their cases count in the op's results.
  EXPECT_THAT(report.dump(), HasSubstr("perf/add.Tensor/float32/resnet50.pooled"));
  const std::string html = read_file(dir + "/report.html");
  EXPECT_THAT(html, HasSubstr("<h2>Perf</h2>"));
  EXPECT_THAT(html, HasSubstr("resnet50.pooled"));
  EXPECT_THAT(read_file(dir + "/summary.txt"), HasSubstr("Perf scores over 2"));
}

TEST(PerfCli, AWrongKernelIsNotTimedAndScoresNothing) {
  const std::string dir = temp_dir("perf_wrong");
  // add.out computes int32 wrongly; its float32 calls are right.
  const CliRun r =
      run_cli_quietly({"--perf", "--backend", "wrong_values_int32", "--ops", "add.Tensor",
                       "--dtypes", "int32,float32", "--perf-shapes", "none", "--perf-repeats", "2",
                       "--perf-roof-mib", "1", "--no-repro", "--json", dir + "/report.json"},
                      test_backend_factories());
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("WRONG (not timed)"));
  const json report = read_json_file(dir + "/report.json");
  // Its int32 calls with elements to add are wrong (empty ones and those computing in another
  // dtype are right): wrong calls have no time, no speedup, and say why.
  int wrong = 0;
  for (const json& rec : report["perf"]["records"]) {
    if (rec["correct"].get<bool>()) {
      EXPECT_FALSE(rec["time"].is_null()) << rec.dump();
      continue;
    }
    ++wrong;
    EXPECT_EQ(rec["dtype"], "int32") << rec.dump();
    EXPECT_TRUE(rec["time"].is_null()) << rec.dump();
    EXPECT_TRUE(rec["speedup"].is_null()) << rec.dump();
    EXPECT_THAT(rec["problem"].get<std::string>(), HasSubstr("differ"));
  }
  EXPECT_GT(wrong, 0);
  EXPECT_EQ(report["perf"]["scores"]["wrong_cells"], 1);
  EXPECT_EQ(report["perf"]["scores"]["cells"], 2);
  for (const json& cell : report["perf"]["cells"]) {
    if (cell["dtype"] == "int32") {
      EXPECT_FALSE(cell["correct"].get<bool>());
      EXPECT_EQ(cell["speedup"], 1.0);
    }
  }
}

// The plugins, loaded into this process (perf mode does not isolate).
const std::string kCorrectPlugin = "conformance/testing/libbroken_none.so";
const std::string kSlowedPlugin = "conformance/testing/libbroken_kernel_slow.so";

// The gate's threshold: +100%, on each call's fastest of 5 repeats. The slowed kernel sleeps
// 20 ms a call where the correct one takes microseconds. Both directions compare runs whose
// times differ by orders of magnitude, so no load on a shared machine flips a verdict: an
// "unchanged" kernel timed twice would be a timing assertion (one such run saw a 29 us call
// take 8 ms). The threshold's edges are unit-tested on made-up times (perf_test.cc).
const std::vector<std::string> kGate = {"--perf-threshold", "100", "--perf-repeats", "5"};

TEST(PerfCli, TheBaselineGateFailsASlowedKernelAndPassesAFasterOne) {
  const std::string dir = temp_dir("perf_gate");
  auto record_baseline = [&](const std::string& plugin, const std::string& json_path) {
    std::vector<std::string> args = perf_args({"--ops", "add.Tensor", "--perf-shapes", "none",
                                               "--perf-repeats", "5", "--json", json_path});
    args.insert(args.begin(), {"--backend", plugin});
    const CliRun run = run_cli_quietly(args, {cpu_backend_factory()});
    EXPECT_EQ(run.status, 0) << run.out << run.err;
  };
  const std::string fast_baseline = dir + "/fast_baseline.json";
  const std::string slow_baseline = dir + "/slow_baseline.json";
  record_baseline(kCorrectPlugin, fast_baseline);
  record_baseline(kSlowedPlugin, slow_baseline);

  auto against_baseline = [&](const std::string& plugin, const std::string& baseline,
                              const std::string& json_path) {
    std::vector<std::string> args = perf_args({"--ops", "add.Tensor", "--perf-shapes", "none",
                                               "--perf-baseline", baseline, "--json", json_path});
    args.insert(args.begin(), {"--backend", plugin});
    args.insert(args.end(), kGate.begin(), kGate.end());
    return run_cli_quietly(args, {cpu_backend_factory()});
  };
  const CliRun slowed = against_baseline(kSlowedPlugin, fast_baseline, dir + "/slowed.json");
  EXPECT_EQ(slowed.status, 1) << slowed.out << slowed.err;
  // Correct, but slow: the verdict fails only on the gate, naming the call, both times and the
  // threshold.
  EXPECT_THAT(slowed.out, HasSubstr("Verdict: FAIL"));
  EXPECT_THAT(slowed.out,
              ::testing::ContainsRegex("perf regression: add.Tensor float32 sample 0 \\([^)]*\\): "
                                       "fastest of 5 repeats [0-9.]+ us in the baseline, "
                                       "[0-9]{5,}\\.[0-9] us now \\([0-9.]+x; threshold "
                                       "\\+100% and 20 us\\)"));
  EXPECT_THAT(slowed.out, Not(HasSubstr("WRONG")));
  const json slowed_report = read_json_file(dir + "/slowed.json");
  EXPECT_FALSE(slowed_report["verdict"]["passed"].get<bool>());
  EXPECT_EQ(slowed_report["perf"]["scores"]["wrong_cells"], 0);

  // The same calls, now fast: every one compared, none regressed.
  const CliRun faster = against_baseline(kCorrectPlugin, slow_baseline, dir + "/faster.json");
  EXPECT_EQ(faster.status, 0) << faster.out << faster.err;
  EXPECT_THAT(faster.out, ::testing::ContainsRegex(
                              "Perf baseline: [1-9][0-9]* calls compared, 0 regressions\n"));
  EXPECT_THAT(faster.out, HasSubstr("Verdict: PASS"));
}

TEST(PerfCli, RefusesBadPerfOptionsAndBaselines) {
  const std::string dir = temp_dir("perf_usage");
  const BackendFactories cpu = {cpu_backend_factory()};
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  write_file(dir + "/plain.json", R"({"format": "backplane-conformance-report", "ops": []})");
  write_file(
      dir + "/broken.json",
      R"({"perf": {"backend": "cpu", "roof": {"bytes": 1, "gbps": 1}, "records": [{"op": "neg"}]}})");
  const std::vector<Bad> bad = {
      {{"--perf", "--perf-repeats", "0"}, "--perf-repeats: expected a whole number from 1"},
      {{"--perf-threshold", "20"}, "--perf-threshold goes with --perf"},
      {{"--perf", "--isolate"}, "--perf runs in this process"},
      {{"--perf", "--cases", dir + "/plain.json"}, "does not go with --cases"},
      {{"--perf", "--perf-shapes", "gpt5"}, "'gpt5' names no shape of the catalogue"},
      {{"--perf", "--perf-shapes", "gpt2-small,"}, "--perf-shapes: expected comma-separated"},
      {{"--perf", "--perf-baseline", dir + "/missing.json"},
       "cannot read " + dir + "/missing.json"},
      {{"--perf", "--perf-baseline", dir + "/plain.json"},
       "has no \"perf\" section: give the JSON report of a run with --perf"},
      {{"--perf", "--perf-baseline", dir + "/broken.json"},
       "broken.json: perf.records[0]: missing \"entry\""},
  };
  for (const Bad& b : bad) {
    std::vector<std::string> args = b.args;
    args.insert(args.end(), {"--ops", "neg"});
    const CliRun r = run_cli_quietly(args, cpu);
    EXPECT_EQ(r.status, 2) << b.message << "\n" << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(b.message));
  }
}

}  // namespace
}  // namespace bp::conformance
