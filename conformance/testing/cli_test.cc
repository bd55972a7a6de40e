// The command line end to end (in process): reports, repro files and --replay, case files,
// expected failures, profiles, tolerances, listings and usage errors.
#include "conformance/cli/cli.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "conformance/testing/broken_backends.h"
#include "conformance/testing/cli_run.h"
#include "conformance/testing/test_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

CliRun cli(std::vector<std::string> args) {
  return run_cli_quietly(std::move(args), test_backend_factories());
}

TEST(Cli, WritesJsonAndHtmlReportsWithEveryOpAndDtype) {
  const std::string dir = temp_dir("reports");
  const CliRun r = cli({"--ops", "add.Tensor,mul.Tensor,abs", "--dtypes", "float32,int32", "--json",
                        dir + "/r.json", "--html", dir + "/r.html", "--no-repro"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  const json report = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(report["backend"]["name"], "cpu");
  EXPECT_TRUE(report["verdict"]["passed"].get<bool>());
  EXPECT_GT(report["totals"]["cases"]["passed"].get<int>(), 100);
  bool add_seen = false;
  for (const json& op : report["ops"]) {
    if (op["op"] == "add.Tensor") {
      add_seen = true;
      EXPECT_EQ(op["dtypes"]["float32"]["status"], "pass");
      EXPECT_EQ(op["dtypes"]["complex64"]["status"], "not run");  // filtered out
    }
    if (op["op"] == "abs") {
      EXPECT_EQ(op["dtypes"]["bool"]["status"], "n/a");
    }
  }
  EXPECT_TRUE(add_seen);
  const std::string html = read_file(dir + "/r.html");
  EXPECT_THAT(html, HasSubstr("<table class=\"matrix\">"));
  EXPECT_THAT(html, HasSubstr("add_.Tensor"));
  EXPECT_THAT(html, HasSubstr("class=\"c pass\""));
  EXPECT_THAT(html, HasSubstr("Verdict: PASS"));
}

TEST(Cli, AFailureWritesAReproFileThatReplayRunsAgain) {
  const std::string dir = temp_dir("repros");
  const CliRun r = cli({"--backend", "wrong_values_int32", "--ops", "add.Tensor", "--dtypes",
                        "int32", "--repro-dir", dir});
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  std::string repro;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (f.path().filename().string().starts_with("add.Tensor-int32-functional")) {
      repro = f.path().string();
    }
  }
  ASSERT_FALSE(repro.empty()) << r.out;
  // Self-contained: the arguments with their storage, the expectation and what came back.
  const json doc = json::parse(read_file(repro));
  EXPECT_EQ(doc["cases"][0]["op"], "add.Tensor");
  EXPECT_TRUE(doc["cases"][0]["args"]["self"].contains("storage"));
  EXPECT_FALSE(doc["repro"]["actual"].empty());
  const CliRun again = cli({"--replay", repro, "--backend", "wrong_values_int32"});
  EXPECT_EQ(again.status, 1);
  EXPECT_THAT(again.out, HasSubstr("elements differ"));
  EXPECT_THAT(again.out, HasSubstr("verdict:  fail"));
  const CliRun on_cpu = cli({"--replay", repro});
  EXPECT_EQ(on_cpu.status, 0) << on_cpu.out;
}

TEST(Cli, CasesWrittenAsDataRunAgainAndPass) {
  const std::string dir = temp_dir("cases");
  const CliRun w = cli({"--ops", "add.Tensor,neg,exp,view,transpose.int,clone,fill_.Scalar",
                        "--dtypes", "float32,int64,bool", "--write-cases", dir + "/cases.json"});
  ASSERT_EQ(w.status, 0) << w.err;
  const std::string text = read_file(dir + "/cases.json");
  EXPECT_THAT(text, HasSubstr("\"nan\""));  // special values are written losslessly
  EXPECT_THAT(text, HasSubstr("\"-0.0\""));
  const CliRun r = cli({"--cases", dir + "/cases.json", "--json", dir + "/r.json", "--no-repro"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const json report = json::parse(read_file(dir + "/r.json"));
  EXPECT_GT(report["totals"]["cases"]["passed"].get<int>(), 500);
  EXPECT_EQ(report["totals"]["cases"]["failed"].get<int>(), 0);
}

TEST(Cli, AHandWrittenCaseFileChecksValuesErrorsAndSpecialValues) {
  const std::string dir = temp_dir("handwritten");
  write_file(dir + "/cases.json", R"json({
    "format": "backplane-conformance-cases", "version": 1,
    "cases": [
      {"op": "add.Tensor",
       "args": {"self": {"dtype": "float32", "sizes": [3], "values": [1, "nan", "-0.0"]},
                "other": {"dtype": "float32", "sizes": [3], "values": [2, 1, "-0.0"]},
                "alpha": 2},
       "expect": {"outputs": [{"dtype": "float32", "sizes": [3], "values": [5, "nan", "-0.0"]}]}},
      {"op": "add.Tensor",
       "args": {"self": {"dtype": "float32", "sizes": [2], "values": [1, 2]},
                "other": {"dtype": "float32", "sizes": [3], "values": [1, 2, 3]}},
       "expect": {"error": "The size of tensor a (2) must match the size of tensor b (3)"}},
      {"op": "mul.Tensor",
       "args": {"self": {"dtype": "int64", "sizes": [2, 2], "strides": [1, 2],
                         "storage_offset": 1, "storage": [0, 1, 2, 3, 4]},
                "other": {"dtype": "int64", "sizes": [], "values": [10]}},
       "expect": {"outputs": [{"dtype": "int64", "sizes": [2, 2], "values": [10, 30, 20, 40]}]}},
      {"op": "add.Tensor",
       "args": {"self": {"dtype": "float32", "sizes": [1], "values": [1]},
                "other": {"dtype": "float32", "sizes": [1], "values": [1]}},
       "expect": {"outputs": [{"dtype": "float32", "sizes": [1], "values": [3]}]}}
    ]})json");
  const CliRun r = cli(
      {"--cases", dir + "/cases.json", "--json", dir + "/r.json", "--repro-dir", dir + "/repros"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const json report = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(report["totals"]["cases"]["passed"], 3);
  EXPECT_EQ(report["totals"]["cases"]["failed"], 1);
  EXPECT_THAT(r.out, HasSubstr("at [0] got 2, expected 3"));
}

TEST(Cli, ExpectedFailuresDoNotFailTheRunAndUnexpectedPassesAreReported) {
  const std::string dir = temp_dir("xfail");
  write_file(dir + "/xfail.txt",
             "# known gaps of this backend\n"
             "add.Tensor int32   # off by one\n"
             "add_.Tensor int32\n"
             "add.out *\n"
             "add.Tensor float32  # fixed since: passes\n");
  const CliRun r = cli({"--backend", "wrong_values_int32", "--ops", "add.Tensor", "--dtypes",
                        "int32,float32", "--expected-failures", dir + "/xfail.txt", "--no-repro"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Expected failures: 3"));
  EXPECT_THAT(r.out, HasSubstr("Unexpected passes: 2"));
  const CliRun without = cli({"--backend", "wrong_values_int32", "--ops", "add.Tensor", "--dtypes",
                              "int32", "--no-repro"});
  EXPECT_EQ(without.status, 1);
}

TEST(Cli, TheTier1ProfileFailsWhenItsOpsDoNotAllPass) {
  const CliRun r = cli({"--ops", "neg", "--profile", "tier1", "--no-repro"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("profile 'tier1'"));
  const CliRun nothing = cli({"--backend", "supports_nothing", "--ops", "add", "--no-repro"});
  EXPECT_EQ(nothing.status, 1);
  EXPECT_THAT(nothing.out, HasSubstr("no case ran"));
}

TEST(Cli, VendorTolerancesAreRecordedInTheReport) {
  const std::string dir = temp_dir("tolerances");
  write_file(dir + "/tol.json", R"({"ops": {"exp": {"float32": {"atol": 1e-4, "rtol": 1e-4}}}})");
  const CliRun r = cli({"--ops", "exp", "--dtypes", "float32", "--tolerances", dir + "/tol.json",
                        "--json", dir + "/r.json", "--no-repro"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const json report = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(report["tolerances"]["sources"][1], dir + "/tol.json");
  EXPECT_THAT(report["tolerances"]["vendor_overrides"][0].get<std::string>(),
              HasSubstr("exp float32"));
}

TEST(Cli, ListsOpsBackendsAndProfiles) {
  const CliRun ops = cli({"--list-ops"});
  EXPECT_EQ(ops.status, 0);
  EXPECT_THAT(ops.out, HasSubstr("add.Tensor"));
  const CliRun backends = cli({"--list-backends"});
  EXPECT_THAT(backends.out, HasSubstr("ignores_strides"));
  const CliRun profiles = cli({"--list-profiles"});
  EXPECT_THAT(profiles.out, HasSubstr("tier1-all-dtypes"));
}

TEST(Cli, PrintsAnOpsDispatchTable) {
  const CliRun table = cli({"--dispatch-table", "add.out"});
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_THAT(table.out, ::testing::StartsWith("bp::add.out(Tensor self, Tensor other, *, Scalar "
                                               "alpha=1, Tensor(a!) out) -> Tensor(a!)\n"));
  EXPECT_THAT(table.out, HasSubstr("\nCommon: kernel ["));
  EXPECT_THAT(table.out, HasSubstr("\nCPU: kernel ["));
  const CliRun unknown = cli({"--dispatch-table", "no_such_op"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_THAT(unknown.err, HasSubstr("operator 'bp::no_such_op' is not defined"));
}

TEST(Cli, TheFusionCheckRunsRandomChainsOnTheBackend) {
  const CliRun run = cli({"--fusion-chains", "200", "--fusion-seed", "3"});
  EXPECT_EQ(run.status, 0) << run.err << run.out;
  EXPECT_THAT(run.out, ::testing::StartsWith("fusion: 200 chains ("));
  EXPECT_THAT(run.out, HasSubstr(", 0 mismatches"));
  const CliRun bad = cli({"--fusion-chains", "0"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err,
              HasSubstr("--fusion-chains: expected a whole number from 1 to 999999999, got '0'"));
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(cli({"--bogus"}).status, 2);
  EXPECT_EQ(cli({"--dtypes", "float33"}).status, 2);
  EXPECT_EQ(cli({"--profile", "tier9"}).status, 2);
  const CliRun plugin = cli({"--backend", "libvendor.so"});
  EXPECT_EQ(plugin.status, 2);
  EXPECT_THAT(plugin.err, HasSubstr("cannot test plugin libvendor.so: cannot load plugin "
                                    "'libvendor.so': no such file"));
  const CliRun unknown = cli({"--backend", "npu"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_THAT(unknown.err, HasSubstr("unknown backend 'npu' (see --list-backends)"));
}

}  // namespace
}  // namespace bp::conformance
