// The conformance suite runs a case file against an op a plugin defined from C: the sample
// plugin's npu::fused_add_relu (samples/c_op_plugin), functional and out=, on its device.
#include <filesystem>
#include <fstream>
#include <string>

#include "conformance/cli/cli.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

constexpr const char* kPlugin = "samples/c_op_plugin/libnpu_op_plugin.so";
constexpr const char* kCases = "samples/c_op_plugin/fused_add_relu_cases.json";

json run_cases(const std::string& cases, CliRun* run) {
  const std::string path = ::testing::TempDir() + "/op_plugin_report.json";
  std::filesystem::remove(path);
  *run = run_cli_quietly({"--backend", kPlugin, "--cases", cases, "--json", path, "--no-repro"},
                         {cpu_backend_factory()});
  std::ifstream in(path);
  return in ? json::parse(in) : json();
}

TEST(OpPlugin, TheCaseFilePassesOnThePluginsDevice) {
  CliRun r;
  const json report = run_cases(kCases, &r);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Verdict: PASS"));
  EXPECT_EQ(report["backend"]["name"], "npu");
  EXPECT_EQ(report["totals"]["cases"]["passed"], 4) << r.out;
  EXPECT_EQ(report["totals"]["cases"]["failed"], 0) << r.out;
  ASSERT_EQ(report["cases"].size(), 4u);
  EXPECT_EQ(report["cases"][2]["op"], "npu::fused_add_relu.out");
}

// The same suite fails a case whose expected values the op does not produce.
TEST(OpPlugin, AWrongExpectationFails) {
  std::ifstream in(kCases);
  json cases = json::parse(in);
  cases["cases"][0]["expect"]["outputs"][0]["values"][0] = 3;  // relu(1 + 1) is 2
  const std::string path = ::testing::TempDir() + "/wrong_cases.json";
  std::ofstream(path) << cases.dump();
  CliRun r;
  const json report = run_cases(path, &r);
  EXPECT_NE(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("Verdict: FAIL"));
  EXPECT_EQ(report["totals"]["cases"]["failed"], 1) << r.out;
  EXPECT_EQ(report["cases"][0]["status"], "fail");
}

}  // namespace
}  // namespace bp::conformance
