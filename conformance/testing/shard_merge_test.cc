// Sharding (--shard K/N, Bazel's TEST_TOTAL_SHARDS / TEST_SHARD_INDEX) and `merge`: four shards
// merged give the verdict, totals, cells and per-case results of one unsharded run, in process
// and isolated, for the database and for a case file; every way of merging the wrong reports is
// a clear usage error.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
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

// What must agree between a merged report and an unsharded one: the verdict, the case totals,
// every op's cells (status and counts, in order) and its calls, and the per-case results.
json comparable(const json& report) {
  json ops = json::array();
  for (const json& op : report["ops"]) {
    json cells = json::object();
    for (const auto& [dtype, cell] : op["dtypes"].items()) {
      json c = cell;
      c.erase("failures");  // repro paths differ by directory
      cells[dtype] = c;
    }
    ops.push_back(json{{"op", op["op"]},
                       {"status", op["status"]},
                       {"served_by", op["served_by"]},
                       {"calls", op["calls"]},
                       {"cells", cells}});
  }
  json cases = json::array();
  for (json c : report.value("cases", json::array())) {
    c.erase("repro");
    cases.push_back(c);
  }
  return json{{"verdict", report["verdict"]},
              {"cases", report["totals"]["cases"]},
              {"ops_declared", report["totals"]["ops_declared"]},
              {"notes", report["notes"]},
              {"ops", ops},
              {"case_results", cases}};
}

// Runs `args` once whole and as four shards, merges the shards, and checks that the merged
// report equals the whole one; returns the whole run's report.
json expect_four_shards_merge_to_one_run(const std::string& name, std::vector<std::string> args) {
  const std::string dir = temp_dir(name);
  args.push_back("--no-repro");
  std::vector<std::string> whole = args;
  whole.insert(whole.end(), {"--json", dir + "/whole.json"});
  const CliRun one = cli(whole);
  EXPECT_NE(one.status, 2) << one.err;
  std::vector<std::string> merge_args = {"merge", "--report-dir", dir + "/merged"};
  for (int k = 4; k >= 1; --k) {  // any order
    std::vector<std::string> shard = args;
    const std::string path = dir + "/shard" + std::to_string(k) + ".json";
    shard.insert(shard.end(), {"--shard", std::to_string(k) + "/4", "--json", path});
    const CliRun r = cli(shard);
    EXPECT_NE(r.status, 2) << r.err;
    const json report = read_json_file(path);
    EXPECT_EQ(report["selection"]["shard"], (json{{"index", k}, {"count", 4}}));
    EXPECT_THAT(r.out, HasSubstr("shard " + std::to_string(k) + "/4"));
    merge_args.push_back(path);
  }
  const CliRun merged = cli(merge_args);
  EXPECT_EQ(merged.status, one.status) << merged.out << merged.err;
  const json whole_report = read_json_file(dir + "/whole.json");
  const json merged_report = read_json_file(dir + "/merged/report.json");
  EXPECT_EQ(comparable(merged_report), comparable(whole_report));
  EXPECT_EQ(merged_report["selection"]["shard"], (json{{"index", 1}, {"count", 1}}));
  EXPECT_TRUE(std::filesystem::exists(dir + "/merged/report.html"));
  EXPECT_THAT(merged.out, HasSubstr("Verdict: " + std::string(one.status == 0 ? "PASS" : "FAIL")));
  return whole_report;
}

TEST(ShardMerge, FourShardsOfAPassingSelectionMergeToOneRun) {
  const json whole = expect_four_shards_merge_to_one_run(
      "passing", {"--ops", "add,mul,neg,sum,where,abs", "--dtypes", "float32,int64,bool",
                  "--case-results", "all"});
  EXPECT_TRUE(whole["verdict"]["passed"]);
  EXPECT_GT(whole["totals"]["cases"]["passed"].get<int>(), 200);
  EXPECT_GT(whole["ops"].size(), 8u);  // more entries than shards
}

// A failing backend, an expected failure, an expected failure that passes, a line naming an op
// the run lacks, and a profile whose ops the selection leaves out: every verdict rule at once.
TEST(ShardMerge, ExpectedFailuresAndAProfileGiveTheSameVerdictMerged) {
  const std::string dir = temp_dir("xfail_inputs");
  write_file(dir + "/xfail.txt",
             "add.out int32   # the backend's known bug\n"
             "add.out float32 # passes: an unexpected pass\n"
             "no_such.op *\n");
  const json whole = expect_four_shards_merge_to_one_run(
      "xfail_profile",
      {"--backend", "wrong_values_int32", "--ops", "add,mul,neg,abs", "--dtypes", "float32,int32",
       "--expected-failures", dir + "/xfail.txt", "--profile", "tier1"});
  EXPECT_FALSE(whole["verdict"]["passed"]);
  EXPECT_GT(whole["verdict"]["expected_failures"].get<int>(), 0);
  EXPECT_EQ(whole["verdict"]["unexpected_passes"], 1);
  EXPECT_GT(whole["verdict"]["profile_gaps"].get<int>(), 10);
  EXPECT_THAT(whole["notes"].dump(), HasSubstr("no op 'no_such.op'"));
}

// Nothing runs an op to completion (a backend without kernels): merged, still "no case ran".
TEST(ShardMerge, NoResultInAnyShardStaysAFailureMerged) {
  const json whole = expect_four_shards_merge_to_one_run(
      "nothing",
      {"--backend", "supports_nothing", "--ops", "add,mul,neg,abs,sub", "--dtypes", "float32"});
  EXPECT_THAT(whole["verdict"]["reasons"].dump(), HasSubstr("no case ran an op to completion"));
}

TEST(ShardMerge, CaseFileShardsByCaseInProcessAndIsolated) {
  const std::string dir = temp_dir("case_file");
  const std::string cases = dir + "/cases.json";
  ASSERT_EQ(cli({"--ops", "add,neg", "--dtypes", "float32,int64", "--write-cases", cases}).status,
            0);
  const json in_process = expect_four_shards_merge_to_one_run("cases", {"--cases", cases});
  // Per-case results are on by default with --cases, one per case, with the planner's ids.
  EXPECT_EQ(in_process["selection"]["case_results"], "all");
  ASSERT_EQ(in_process["cases"].size(),
            static_cast<size_t>(in_process["totals"]["cases"]["passed"].get<int>()));
  EXPECT_EQ(in_process["cases"][0]["id"], "neg/int64/0/functional");  // neg's entry comes first
  const json isolated =
      expect_four_shards_merge_to_one_run("cases_isolated", {"--cases", cases, "--isolate"});
  EXPECT_EQ(comparable(isolated), comparable(in_process));
}

TEST(ShardMerge, IsolatedDatabaseRunsShardTheSame) {
  const json isolated = expect_four_shards_merge_to_one_run(
      "isolated", {"--ops", "add,neg,abs", "--dtypes", "float32", "--isolate"});
  EXPECT_TRUE(isolated["isolated"]);
  EXPECT_TRUE(isolated["verdict"]["passed"]);
}

// The shards of one small run, for the error tests: {path of shard k of 2}.
std::vector<std::string> two_shards(const std::string& dir, std::vector<std::string> extra = {}) {
  std::vector<std::string> paths;
  for (int k = 1; k <= 2; ++k) {
    std::vector<std::string> args = {"--ops",
                                     "neg,abs",
                                     "--dtypes",
                                     "float32",
                                     "--no-repro",
                                     "--shard",
                                     std::to_string(k) + "/2"};
    args.insert(args.end(), extra.begin(), extra.end());
    paths.push_back(dir + "/shard" + std::to_string(k) + ".json");
    args.insert(args.end(), {"--json", paths.back()});
    EXPECT_EQ(cli(args).status, 0);
  }
  return paths;
}

CliRun merge(const std::vector<std::string>& reports) {
  std::vector<std::string> args = {"merge"};
  args.insert(args.end(), reports.begin(), reports.end());
  return cli(args);
}

TEST(ShardMerge, RefusesReportsThatAreNotTheShardsOfOneRun) {
  const std::string dir = temp_dir("errors");
  const std::vector<std::string> a = two_shards(dir);
  EXPECT_EQ(merge(a).status, 0);

  const CliRun missing = merge({a[0]});
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("shard 2 of 2 missing"));

  const CliRun twice = merge({a[0], a[0], a[1]});
  EXPECT_EQ(twice.status, 2);
  EXPECT_THAT(twice.err, HasSubstr("shard 1/2 is given twice"));

  std::filesystem::create_directories(dir + "/other");
  const std::vector<std::string> dtypes = two_shards(dir + "/other", {"--dtypes", "float32,int64"});
  const CliRun different = merge({a[0], dtypes[1]});
  EXPECT_EQ(different.status, 2);
  EXPECT_THAT(different.err, HasSubstr("differ in --dtypes ('float32' and 'int64,float32')"));

  std::filesystem::create_directories(dir + "/backend");
  const std::vector<std::string> backend = two_shards(dir + "/backend", {"--backend", "fallback"});
  EXPECT_THAT(merge({a[0], backend[1]}).err, HasSubstr("differ in backend ('cpu' and 'fallback')"));

  std::filesystem::create_directories(dir + "/profile");
  const std::vector<std::string> profile = two_shards(dir + "/profile", {"--profile", "tier1"});
  EXPECT_THAT(merge({a[0], profile[1]}).err, HasSubstr("differ in --profile ('' and 'tier1')"));

  write_file(dir + "/xf.txt", "neg float32\n");
  std::filesystem::create_directories(dir + "/xf");
  const std::vector<std::string> xf =
      two_shards(dir + "/xf", {"--expected-failures", dir + "/xf.txt"});
  EXPECT_THAT(merge({a[0], xf[1]}).err, HasSubstr("differ in --expected-failures"));
  write_file(dir + "/xf.txt", "neg float32\nabs float32\n");  // the same file, edited in between
  std::vector<std::string> edited = xf;
  edited[1] = dir + "/xf_edited.json";
  ASSERT_EQ(cli({"--ops", "neg,abs", "--dtypes", "float32", "--no-repro", "--shard", "2/2",
                 "--expected-failures", dir + "/xf.txt", "--json", edited[1]})
                .status,
            0);  // listed cells that pass are unexpected passes: reported, not failing
  EXPECT_THAT(merge(edited).err, HasSubstr("differ in the expected-failures file's text"));

  std::filesystem::create_directories(dir + "/three");
  const std::string third = dir + "/three/shard1.json";
  ASSERT_EQ(
      cli({"--ops", "neg,abs", "--dtypes", "float32", "--shard", "1/3", "--json", third}).status,
      0);
  EXPECT_THAT(merge({third, a[1]}).err, HasSubstr("differ in the shard count ('3' and '2')"));

  std::filesystem::create_directories(dir + "/levels");
  const std::vector<std::string> levels = two_shards(dir + "/levels", {"--case-results", "none"});
  EXPECT_THAT(merge({a[0], levels[1]}).err, HasSubstr("differ in --case-results"));
}

TEST(ShardMerge, RefusesFilesThatAreNotFinishedReports) {
  const std::string dir = temp_dir("not_reports");
  write_file(dir + "/placeholder.json",
             R"({"format": "backplane-conformance-report", "version": 1, "incomplete": true,
            "verdict": {"passed": false, "reasons": ["the run has not finished"]}})");
  write_file(dir + "/cases.json", R"({"format": "backplane-conformance-cases", "cases": []})");
  write_file(dir + "/broken.json", "{\"format\": ");
  EXPECT_THAT(merge({dir + "/placeholder.json"}).err,
              HasSubstr("placeholder.json: the placeholder of a run that did not finish"));
  EXPECT_THAT(merge({dir + "/cases.json"}).err, HasSubstr("not a backplane-conformance report"));
  EXPECT_EQ(merge({dir + "/broken.json"}).status, 2);
  EXPECT_THAT(merge({dir + "/absent.json"}).err, HasSubstr("cannot read the report"));
  EXPECT_THAT(cli({"merge"}).err, HasSubstr("merge: give the JSON reports of every shard"));
  EXPECT_THAT(cli({"merge", "--ops", "add", dir + "/x.json"}).err,
              HasSubstr("merge takes REPORT.json files and --report-dir"));
}

TEST(ShardMerge, BadShardsAreUsageErrors) {
  for (const char* bad : {"0/4", "5/4", "1/0", "3", "a/b", "1/4/2", "-1/4", "1/", "/4"}) {
    const CliRun r = cli({"--ops", "neg", "--shard", bad});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_THAT(r.err, HasSubstr("--shard: expected K/N, shard K (from 1) of N")) << bad;
  }
  EXPECT_THAT(cli({"--case-results", "some"}).err,
              HasSubstr("--case-results: expected all, failures or none, got 'some'"));
}

// Bazel's test sharding: TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (from 0) pick the shard, and the
// status file is touched.
class ShardEnvironment : public ::testing::Test {
 protected:
  void TearDown() override {
    ::unsetenv("TEST_TOTAL_SHARDS");
    ::unsetenv("TEST_SHARD_INDEX");
    ::unsetenv("TEST_SHARD_STATUS_FILE");
  }
};

TEST_F(ShardEnvironment, ShardsAsBazelSays) {
  const std::string dir = temp_dir("bazel_shards");
  ::setenv("TEST_TOTAL_SHARDS", "3", 1);
  ::setenv("TEST_SHARD_INDEX", "2", 1);
  ::setenv("TEST_SHARD_STATUS_FILE", (dir + "/status").c_str(), 1);
  const CliRun r =
      cli({"--ops", "neg,abs,add,mul", "--dtypes", "float32", "--json", dir + "/r.json"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/status"));
  EXPECT_EQ(read_json_file(dir + "/r.json")["selection"]["shard"],
            (json{{"index", 3}, {"count", 3}}));

  EXPECT_THAT(cli({"--ops", "neg", "--shard", "1/2"}).err,
              HasSubstr("--shard and the test runner's sharding (TEST_TOTAL_SHARDS is set)"));
  ::setenv("TEST_SHARD_INDEX", "3", 1);
  EXPECT_THAT(cli({"--ops", "neg"}).err,
              HasSubstr("TEST_TOTAL_SHARDS=3 and TEST_SHARD_INDEX=3: expected 1 to 100000 shards"));
  ::unsetenv("TEST_SHARD_INDEX");
  EXPECT_THAT(cli({"--ops", "neg"}).err, HasSubstr("TEST_SHARD_INDEX is ''"));
}

}  // namespace
}  // namespace bp::conformance
