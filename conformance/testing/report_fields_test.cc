// The report's fields say what happened: per-case results with their ids and statuses,
// served_by counting the calls a kernel handed to the CPU fallback, the op's bytes apart from
// the suite's staging, error codes in failures, the summary's named columns and routing list, and
// the HTML report's per-case table.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "conformance/io/report.h"
#include "conformance/testing/broken_backends.h"
#include "conformance/testing/cli_run.h"
#include "conformance/testing/test_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;
using json = nlohmann::json;

CliRun cli(std::vector<std::string> args) {
  return run_cli_quietly(std::move(args), test_backend_factories());
}

// The lines of the summary's "Ops served through ..." list.
std::string routing_list(const std::string& summary) {
  const size_t start = summary.find("Ops served through the Common key or the CPU fallback:");
  if (start == std::string::npos) return "";
  return summary.substr(start, summary.find("\n\n", start) - start);
}

TEST(ReportFields, ServedByCountsCallsAKernelHandsToTheCpuFallback) {
  const std::string dir = temp_dir("c_kernel_fallback");
  const CliRun r = cli({"--backend", "c_kernel_fallback", "--ops", "add,neg", "--dtypes", "float32",
                        "--no-repro", "--json", dir + "/r.json"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const json report = read_json_file(dir + "/r.json");
  const json& out = report_op(report, "add.out");
  EXPECT_EQ(out["dispatch_table"], "kernel [c_kernel_fallback kernel (C ABI)]");
  const int64_t calls = out["calls"]["total"].get<int64_t>();
  const int64_t fell_back = out["calls"]["cpu_fallback"].get<int64_t>();
  EXPECT_GT(fell_back, 10);
  EXPECT_LE(fell_back, calls);  // error inputs are rejected before the kernel runs
  EXPECT_EQ(out["served_by"], "kernel [c_kernel_fallback kernel (C ABI)] + cpu_fallback (" +
                                  std::to_string(fell_back) + " of " + std::to_string(calls) +
                                  " calls)");
  EXPECT_TRUE(out["via_fallback"]);
  // The fallback's copies are the op's bytes; the suite's staging is counted apart.
  EXPECT_GT(out["bytes_to_device"].get<int64_t>(), 0);
  EXPECT_GT(out["bytes_to_host"].get<int64_t>(), 0);
  EXPECT_GT(out["staging_bytes_to_device"].get<int64_t>(), 0);
  EXPECT_GT(out["staging_bytes_to_host"].get<int64_t>(), 0);

  const json& add = report_op(report, "add.Tensor");
  EXPECT_TRUE(add["via_common"]);
  EXPECT_THAT(add["served_by"].get<std::string>(),
              StartsWith("Common -> add.out: kernel [c_kernel_fallback kernel (C ABI)] + "
                         "cpu_fallback ("));
  // Served by the backend's fallback: the dispatcher's table says so already.
  const json& neg = report_op(report, "neg");
  EXPECT_THAT(neg["served_by"].get<std::string>(), HasSubstr("backend fallback"));
  EXPECT_THAT(neg["served_by"].get<std::string>(), Not(HasSubstr("+ cpu_fallback")));
  EXPECT_THAT(routing_list(r.out), HasSubstr("add.out                  kernel [c_kernel_fallback "
                                             "kernel (C ABI)] + cpu_fallback ("));
}

TEST(ReportFields, AKernelThatComputesItselfIsServedByItsKernelAndMovesNoBytes) {
  const std::string dir = temp_dir("own_kernel");
  const CliRun r = cli({"--backend", "wrong_values_int32", "--ops", "add", "--dtypes", "float32",
                        "--no-repro", "--json", dir + "/r.json"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const json report = read_json_file(dir + "/r.json");
  const json& out = report_op(report, "add.out");
  EXPECT_EQ(out["served_by"], out["dispatch_table"]);
  EXPECT_THAT(out["served_by"].get<std::string>(), StartsWith("kernel ["));
  EXPECT_EQ(out["calls"]["cpu_fallback"], 0);
  EXPECT_GT(out["calls"]["total"].get<int64_t>(), 10);
  EXPECT_FALSE(out["via_fallback"]);
  EXPECT_EQ(out["bytes_to_device"], 0);
  EXPECT_EQ(out["bytes_to_host"], 0);
  // The suite copied every argument to the device and every result back.
  EXPECT_GT(out["staging_bytes_to_device"].get<int64_t>(), 0);
  EXPECT_GT(out["staging_bytes_to_host"].get<int64_t>(), 0);
  // The routing list names add.Tensor (through the Common key), not the plain kernel add.out.
  const std::string routed = routing_list(r.out);
  EXPECT_THAT(routed, HasSubstr("\n  add.Tensor "));
  EXPECT_THAT(routed, Not(HasSubstr("\n  add.out ")));
}

TEST(ReportFields, FailuresShowTheErrorCodeTheKernelReturned) {
  const std::string dir = temp_dir("error_code");
  const CliRun r = cli({"--backend", "allocator_returns_null", "--ops", "add", "--dtypes",
                        "float32", "--no-repro", "--json", dir + "/r.json"});
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.out, HasSubstr("the allocator returned NULL for 132 bytes without an error"));
  EXPECT_THAT(r.out, HasSubstr("(InternalError, error code 7)"));
  const json report = read_json_file(dir + "/r.json");
  EXPECT_THAT(report["cases"][0]["message"].get<std::string>(),
              HasSubstr("(InternalError, error code 7)"));
}

TEST(ReportFields, TheSummaryNamesItsColumns) {
  const CliRun r = cli({"--ops", "neg", "--dtypes", "float32"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("xfail (expected failures), not run\n(dtype filtered out, or no "
                               "case made)"));
  EXPECT_THAT(r.out, HasSubstr("  pass  fail  unsup  xfail  not run  status\n"));
  // neg has 11 PyTorch dtypes but the run selected float32 only: 1 pass, 10 not run.
  EXPECT_THAT(r.out,
              MatchesRegex("(.|\n)*\nneg  +1  +functional  +1  +0  +0  +0  +10  pass\n(.|\n)*"));
  EXPECT_THAT(r.out, Not(HasSubstr("other")));
}

TEST(ReportFields, PerCaseResultsOfTheDatabaseListTheCasesThatDidNotPass) {
  const std::string dir = temp_dir("per_case_db");
  write_file(dir + "/xf.txt", "add.out int32\n");
  const CliRun r =
      cli({"--backend", "wrong_values_int32", "--ops", "add,neg", "--dtypes", "float32,int32",
           "--no-repro", "--expected-failures", dir + "/xf.txt", "--json", dir + "/r.json"});
  EXPECT_EQ(r.status, 1) << r.out;  // add.Tensor int32 fails, unlisted
  const json report = read_json_file(dir + "/r.json");
  EXPECT_EQ(report["selection"]["case_results"], "failures");
  const json& totals = report["totals"]["cases"];
  int fail = 0, xfail = 0, unsupported = 0;
  for (const json& c : report["cases"]) {
    const std::string id = c["id"];
    const std::string status = c["status"];
    EXPECT_THAT(id, MatchesRegex("(add|neg)[._a-zA-Z]*/(float32|int32)/[0-9]+/[a-z_]+(#[0-9]+)?"));
    EXPECT_FALSE(c.contains("op")) << id;  // the id starts with it
    if (status == "fail") ++fail;
    if (status == "xfail") {
      ++xfail;
      EXPECT_THAT(id, StartsWith("add.out/int32/"));
    }
    if (status == "unsupported") {
      ++unsupported;
      EXPECT_THAT(id, StartsWith("neg"));
      EXPECT_THAT(c["message"].get<std::string>(), StartsWith("unsupported: "));
    }
    EXPECT_NE(status, "pass");
    if (status == "fail" || status == "xfail") {
      EXPECT_THAT(c["message"].get<std::string>(), HasSubstr("elements differ")) << id;
    }
  }
  EXPECT_EQ(fail + xfail, totals["failed"].get<int>());
  EXPECT_EQ(unsupported, totals["unsupported"].get<int>());
  EXPECT_GT(fail, 0);
  EXPECT_GT(xfail, 0);
  EXPECT_GT(unsupported, 0);

  ASSERT_EQ(cli({"--ops", "neg", "--dtypes", "float32", "--case-results", "all", "--json",
                 dir + "/all.json"})
                .status,
            0);
  const json all = read_json_file(dir + "/all.json");
  EXPECT_EQ(all["cases"].size(), all["totals"]["cases"]["passed"].get<size_t>());
  EXPECT_EQ(all["cases"][0], (json{{"id", "neg/float32/0/functional"}, {"status", "pass"}}));
  ASSERT_EQ(cli({"--ops", "neg", "--dtypes", "float32", "--case-results", "none", "--json",
                 dir + "/none.json"})
                .status,
            0);
  EXPECT_FALSE(read_json_file(dir + "/none.json").contains("cases"));
}

TEST(ReportFields, PerCaseResultsOfACaseFileKeepItsIds) {
  const std::string dir = temp_dir("per_case_file");
  write_file(dir + "/cases.json", R"({"format": "backplane-conformance-cases", "cases": [
    {"id": "team/add-1", "op": "add.Tensor",
     "args": {"self": {"dtype": "float32", "sizes": [2], "values": [1, 2]},
              "other": {"dtype": "float32", "sizes": [2], "values": [3, 4]}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [4, 6]}]}},
    {"id": "team/add-wrong", "op": "add.Tensor",
     "args": {"self": {"dtype": "float32", "sizes": [1], "values": [1]},
              "other": {"dtype": "float32", "sizes": [1], "values": [1]}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [1], "values": [3]}]}},
    {"id": "team/unreadable", "op": "no_such_op", "expect": {"outputs": []}},
    {"op": "neg", "args": {"self": {"dtype": "int64", "sizes": [1], "values": [5]}},
     "expect": {"outputs": [{"dtype": "int64", "sizes": [1], "values": [-5]}]}},
    {"id": 7, "op": "neg", "args": {"self": {"dtype": "int64", "sizes": [1], "values": [5]}},
     "expect": {"outputs": [{"dtype": "int64", "sizes": [1], "values": [-5]}]}}]})");
  const CliRun r = cli({"--cases", dir + "/cases.json", "--no-repro", "--json", dir + "/r.json",
                        "--html", dir + "/r.html"});
  EXPECT_EQ(r.status, 1);
  const json cases = read_json_file(dir + "/r.json")["cases"];
  ASSERT_EQ(cases.size(), 5u) << cases.dump(1);
  EXPECT_EQ(
      cases[0],
      (json{{"id", "team/add-1"}, {"op", "add.Tensor"}, {"dtype", "float32"}, {"status", "pass"}}));
  EXPECT_EQ(cases[1]["status"], "fail");
  EXPECT_THAT(cases[1]["message"].get<std::string>(), HasSubstr("elements differ"));
  EXPECT_EQ(cases[2]["id"], "team/unreadable");
  EXPECT_EQ(cases[2]["status"], "error");
  EXPECT_THAT(cases[2]["message"].get<std::string>(), HasSubstr("cannot run the case"));
  EXPECT_EQ(cases[3]["id"], "case 3");  // no id: its position
  EXPECT_EQ(cases[3]["status"], "pass");
  EXPECT_EQ(cases[4]["status"], "error");  // an id that is not a string
  EXPECT_THAT(cases[4]["message"].get<std::string>(), HasSubstr("id is not a string"));

  // The HTML report lists the same cases, in run order, with their statuses and messages.
  const std::string html = read_file(dir + "/r.html");
  EXPECT_THAT(html, HasSubstr("<h2>Cases</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr><td class=\"op\">team/add-1 <span class=\"route\">(add.Tensor "
                              "float32)</span></td><td class=\"pass\">pass</td>"));
  EXPECT_THAT(html, MatchesRegex("(.|\n)*team/add-wrong <span[^<]*</span></td><td "
                                 "class=\"fail\">fail</td><td>[^<]*elements differ(.|\n)*"));
  EXPECT_THAT(html, MatchesRegex("(.|\n)*team/unreadable <span[^<]*</span></td><td "
                                 "class=\"fail\">error</td><td>[^<]*cannot run the case(.|\n)*"));
  EXPECT_LT(html.find("team/add-1 "), html.find("team/add-wrong "));
  EXPECT_LT(html.find("team/add-wrong "), html.find("case 3 "));
}

// Past 2000 kept cases, the HTML page lists the ones that did not pass and says how many passing
// ones it left out (the JSON report has them).
TEST(ReportFields, HtmlListsOnlyTheCasesThatDidNotPassPastTwoThousand) {
  RunResults results;
  results.backend = "cpu";
  results.case_results_level = CaseResultsLevel::kAll;
  OpResult& op = results.ops.emplace_back();
  op.op = "neg";
  for (int i = 0; i < 2001; ++i) {
    CaseResult c;
    c.id = "neg/float32/" + std::to_string(i) + "/functional";
    c.op = "neg";
    c.check = "functional";
    if (i == 1234) {
      c.verdict = Verdict::kFail;
      c.message = "2 elements differ";
    }
    results.case_results.push_back(c);
  }
  const std::string html = report_html(results, RunVerdict{}, nullptr);
  EXPECT_THAT(html, HasSubstr("neg/float32/1234/functional</td><td class=\"fail\">fail</td><td>2 "
                              "elements differ</td>"));
  EXPECT_THAT(html, Not(HasSubstr("neg/float32/0/functional")));
  EXPECT_THAT(html, HasSubstr("2000 passing cases are left out of this page"));

  results.case_results.resize(2000);  // at the cap: every case, and nothing left out
  const std::string all = report_html(results, RunVerdict{}, nullptr);
  EXPECT_THAT(all, HasSubstr("neg/float32/0/functional</td><td class=\"pass\">pass</td>"));
  EXPECT_THAT(all, HasSubstr("neg/float32/1234/functional</td><td class=\"fail\">fail</td>"));
  EXPECT_THAT(all, Not(HasSubstr("left out of this page")));
}

}  // namespace
}  // namespace bp::conformance
