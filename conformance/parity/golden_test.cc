// The golden cases of conformance/parity/golden/ (PyTorch 1.13's results and errors, written by
// generate.py) on the CPU backend: every case of every family passes, and every declared op has
// golden cases with values. docs/pytorch_parity.md lists what Backplane does differently, on
// purpose, and why.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "conformance/cli/cli.h"
#include "conformance/testing/cli_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

using nlohmann::json;

constexpr char kGoldenDir[] = "conformance/parity/golden";

std::vector<std::string> golden_families() {
  std::vector<std::string> families;
  for (const auto& file : std::filesystem::directory_iterator(kGoldenDir)) {
    if (file.path().extension() == ".json") families.push_back(file.path().stem().string());
  }
  std::sort(families.begin(), families.end());
  return families;
}

std::string golden_file(const std::string& family) {
  return std::string(kGoldenDir) + "/" + family + ".json";
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

class GoldenCases : public testing::TestWithParam<std::string> {};

TEST_P(GoldenCases, PassOnCpu) {
  const std::string file = golden_file(GetParam());
  const size_t cases = read_json(file)["cases"].size();
  const std::string report = testing::TempDir() + "/golden-" + GetParam() + ".json";
  const CliRun r =
      run_cli_quietly({"--cases", file, "--backend", "cpu", "--no-repro", "--json", report},
                      {cpu_backend_factory()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const json totals = read_json(report)["totals"]["cases"];
  EXPECT_EQ(totals["passed"], cases) << r.out;
  EXPECT_EQ(totals["failed"], 0);
  EXPECT_EQ(totals["unsupported"], 0);
}

INSTANTIATE_TEST_SUITE_P(Families, GoldenCases, testing::ValuesIn(golden_families()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(GoldenCoverage, EveryDeclaredOpHasCasesWithValues) {
  std::set<std::string> with_values;
  for (const std::string& family : golden_families()) {
    const json doc = read_json(golden_file(family));  // outlives the loop over its cases
    for (const json& c : doc["cases"]) {
      if (c["expect"].contains("outputs")) with_values.insert(c["op"].get<std::string>());
    }
  }
  std::vector<std::string> missing;
  for (const OpInfo& op : op_table()) {
    if (!with_values.count(std::string(op.name))) missing.emplace_back(op.name);
  }
  EXPECT_THAT(missing, testing::IsEmpty())
      << "declared ops without golden cases: run conformance/parity/generate.py";
  EXPECT_GE(with_values.size(), op_table().size());
}

}  // namespace
}  // namespace bp::conformance
