// Case files as a team converting its PyTorch tests writes them, run through `--cases` on the
// CPU backend and on two plugin backends (the `fallback` test backend, which runs every op
// through cpu_fallback, and `wrong_values_int32`, whose own add.out kernel serves add_ and add
// through the Common key): arguments that share one storage, the whole storage after an
// in-place op, Tensor[] arguments, list results, results that are not tensors, and both
// spellings of complex numbers. Expectations are PyTorch 1.13's (checked by hand with it).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/io/case_file.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/execute.h"
#include "conformance/testing/broken_backends.h"
#include "conformance/testing/cli_run.h"
#include "conformance/testing/test_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// PyTorch's message for an input that partly overlaps the tensor an op writes.
constexpr char kOverlap[] =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location";

// Cases whose arguments view one storage. On a backend that copied each argument to the device
// on its own, the three "error" cases would succeed (each op would read a private copy) and the
// storage of the fourth would not show what the op wrote.
const char kSharedStorageCases[] = R"json({
  "format": "backplane-conformance-cases", "version": 1,
  "cases": [
    {"op": "add_.Tensor", "description": "x.add_(x.t())",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5, 6, 7, 8]}},
     "args": {"self": {"storage": "x", "sizes": [3, 3]},
              "other": {"storage": "x", "sizes": [3, 3], "strides": [1, 3]}},
     "expect": {"error": "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location"}},
    {"op": "add.out", "description": "torch.add(x[:4], x[:4], out=x[1:5])",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5]}},
     "args": {"self": {"storage": "x", "sizes": [4]},
              "other": {"storage": "x", "sizes": [4]},
              "out": {"storage": "x", "sizes": [4], "storage_offset": 1}},
     "expect": {"error": "refer to a single memory location"}},
    {"op": "add_.Tensor", "description": "x.t().add_(x[0])",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5, 6, 7, 8]}},
     "args": {"self": {"storage": "x", "sizes": [3, 3], "strides": [1, 3]},
              "other": {"storage": "x", "sizes": [3]}},
     "expect": {"error": ""}},
    {"op": "copy_", "description": "x.copy_(x.t())",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3]}},
     "args": {"self": {"storage": "x", "sizes": [2, 2]},
              "src": {"storage": "x", "sizes": [2, 2], "strides": [1, 2]}},
     "expect": {"error": "refer to a single memory location"}},
    {"op": "add_.Tensor", "description": "x[:, 1].add_(x[:, 0]), x = arange(6).view(2, 3)",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5]}},
     "args": {"self": {"storage": "x", "sizes": [2], "strides": [3], "storage_offset": 1},
              "other": {"storage": "x", "sizes": [2], "strides": [3]}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [1, 7],
                             "storage": [0, 1, 2, 3, 7, 5]}],
                "returns_args": ["self"]}},
    {"op": "add_.Tensor", "description": "x.add_(x) through two tensors over one storage",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3]}},
     "args": {"self": {"storage": "x", "sizes": [4]}, "other": {"storage": "x", "sizes": [4]}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [4], "values": [0, 2, 4, 6],
                             "storage": [0, 2, 4, 6]}],
                "returns_args": ["self"]}},
    {"op": "mul.Tensor", "description": "x[0] * x[1], x = arange(6).view(2, 3)",
     "storages": {"x": {"dtype": "float32", "values": [0, 1, 2, 3, 4, 5]}},
     "args": {"self": {"storage": "x", "sizes": [3]},
              "other": {"storage": "x", "sizes": [3], "storage_offset": 3}},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [3], "values": [0, 4, 10]}],
                "unmodified": ["self", "other"]}}
  ]})json";

// Tensor[] arguments, list results (also of an op returning `()`), ScalarType results, Scalars
// of each kind and complex numbers in both spellings.
const char kListAndValueCases[] = R"json({
  "format": "backplane-conformance-cases", "version": 1,
  "cases": [
    {"op": "broadcast_tensors",
     "args": {"tensors": [{"dtype": "int64", "sizes": [2, 1], "values": [1, 2]},
                          {"dtype": "int64", "sizes": [3], "values": [10, 20, 30]}]},
     "expect": {"outputs": [
       {"dtype": "int64", "sizes": [2, 3], "values": [1, 1, 1, 2, 2, 2], "strides": [1, 0],
        "aliases": "tensors[0]"},
       {"dtype": "int64", "sizes": [2, 3], "values": [10, 20, 30, 10, 20, 30],
        "strides": [0, 1], "aliases": "tensors[1]"}]}},
    {"op": "unsafe_split.Tensor",
     "args": {"self": {"dtype": "float32", "sizes": [2, 2], "values": [1, 2, 3, 4]},
              "split_size": 1},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [1, 2], "values": [1, 2],
                             "aliases": "self"},
                            {"dtype": "float32", "sizes": [1, 2], "values": [3, 4],
                             "storage_offset": 2, "aliases": "self"}],
                "unmodified": ["self"]}},
    {"op": "unsafe_split.Tensor_out",
     "args": {"self": {"dtype": "float32", "sizes": [3], "values": [1, 2, 3]}, "split_size": 2,
              "out": [{"dtype": "float32", "sizes": [2], "values": [0, 0]},
                      {"dtype": "float32", "sizes": [1], "values": [0]}]},
     "expect": {"outputs": [{"dtype": "float32", "sizes": [2], "values": [1, 2]},
                            {"dtype": "float32", "sizes": [1], "values": [3]}],
                "returns_args": ["out[0]", "out[1]"]}},
    {"op": "result_type.Tensor",
     "args": {"tensor": {"dtype": "int32", "sizes": [2], "values": [1, 2]},
              "other": {"dtype": "float64", "sizes": [], "values": [0.5]}},
     "expect": {"outputs": [{"value": "float64"}]}},
    {"op": "result_type.Scalar", "description": "2 is an integer Scalar",
     "args": {"tensor": {"dtype": "int32", "sizes": [2], "values": [1, 2]}, "other": 2},
     "expect": {"outputs": [{"value": "int32"}]}},
    {"op": "result_type.Scalar", "description": "2.0 is a floating Scalar",
     "args": {"tensor": {"dtype": "int32", "sizes": [2], "values": [1, 2]}, "other": 2.0},
     "expect": {"outputs": [{"value": "float32"}]}},
    {"op": "result_type.Scalar", "description": "true is a bool Scalar",
     "args": {"tensor": {"dtype": "bool", "sizes": [1], "values": [true]}, "other": true},
     "expect": {"outputs": [{"value": "bool"}]}},
    {"op": "result_type.Scalar", "description": "a complex Scalar as an object",
     "args": {"tensor": {"dtype": "float64", "sizes": [1], "values": [1]},
              "other": {"real": 1, "imag": "-inf"}},
     "expect": {"outputs": [{"value": "complex128"}]}},
    {"op": "result_type.Scalar", "description": "a complex Scalar as [real, imag]",
     "args": {"tensor": {"dtype": "float32", "sizes": [1], "values": [1]}, "other": [1, 2]},
     "expect": {"outputs": [{"value": "complex64"}]}},
    {"op": "add.Tensor", "description": "complex elements in both spellings",
     "args": {"self": {"dtype": "complex64", "sizes": [2],
                       "values": [[1, 2], {"real": 3, "imag": "-0.0"}]},
              "other": {"dtype": "complex64", "sizes": [2], "values": [1, [0, 1]]}},
     "expect": {"outputs": [{"dtype": "complex64", "sizes": [2],
                             "values": [{"real": 2, "imag": 2}, [3, 1]]}]}}
  ]})json";

CliRun cli(std::vector<std::string> args) {
  return run_cli_quietly(std::move(args), test_backend_factories());
}

// Runs the case file `text` with `--cases` on `backend`; returns the JSON report.
nlohmann::json run_cases(const std::string& text, const std::string& backend, CliRun* run) {
  const std::string dir = temp_dir("cases-" + backend);
  std::ofstream(dir + "/cases.json") << text;
  *run = cli({"--cases", dir + "/cases.json", "--backend", backend, "--json", dir + "/r.json",
              "--no-repro"});
  return nlohmann::json::parse(read_file(dir + "/r.json"));
}

class CaseFileFeatures : public ::testing::TestWithParam<std::string> {};

TEST_P(CaseFileFeatures, SharedStoragesStaySharedOnTheBackend) {
  CliRun r;
  const nlohmann::json report = run_cases(kSharedStorageCases, GetParam(), &r);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  // The add.out backend has no mul kernel (and no fallback): mul.Tensor is unsupported there.
  const int unsupported = GetParam() == "wrong_values_int32" ? 1 : 0;
  EXPECT_EQ(report["totals"]["cases"]["passed"], 7 - unsupported) << r.out;
  EXPECT_EQ(report["totals"]["cases"]["failed"], 0) << r.out;
  EXPECT_EQ(report["totals"]["cases"]["unsupported"], unsupported) << r.out;
}

TEST_P(CaseFileFeatures, ListsValuesScalarsAndComplexSpellingsRun) {
  CliRun r;
  const nlohmann::json report = run_cases(kListAndValueCases, GetParam(), &r);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  // Views and result_type need no backend kernel: they pass on the add.out backend too.
  EXPECT_EQ(report["totals"]["cases"]["passed"], 10) << r.out;
  EXPECT_EQ(report["totals"]["cases"]["failed"], 0) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Backends, CaseFileFeatures,
                         ::testing::Values("cpu", "fallback", "wrong_values_int32"));

// The same cases read with the library API (read_case_text, case_from_json, execute) on the
// CPU backend and on the fallback plugin backend.
std::vector<CaseOutcome> execute_text(const std::string& text, const Backend& backend) {
  std::vector<CaseOutcome> outcomes;
  read_case_text(text, "cases.json", [&](size_t, const json& c) {
    outcomes.push_back(execute(case_from_json(c, Tolerances::builtin()), backend));
  });
  return outcomes;
}

TEST(CaseFileFeaturesApi, ReadCaseTextThenExecutePassesOnCpuAndOnAPluginBackend) {
  const CpuBackend cpu;
  const std::unique_ptr<PluginBackend> plugin = make_test_backend(Defect::kNone);
  for (const Backend* backend :
       {static_cast<const Backend*>(&cpu), static_cast<const Backend*>(plugin.get())}) {
    for (const char* text : {kSharedStorageCases, kListAndValueCases}) {
      const std::vector<CaseOutcome> outcomes = execute_text(text, *backend);
      for (size_t i = 0; i < outcomes.size(); ++i) {
        EXPECT_EQ(outcomes[i].verdict, Verdict::kPass)
            << backend->name() << " case " << i << ": "
            << ::testing::PrintToString(outcomes[i].failures);
      }
    }
  }
}

// Controls: the cases above can fail. Without the shared storage (`other` a copy of x.t()),
// x.add_(other) succeeds; a wrong whole storage is named element by element.
TEST(CaseFileFeaturesApi, CopiesInsteadOfViewsAndAWrongStorageFail) {
  const CpuBackend cpu;
  const std::unique_ptr<PluginBackend> plugin = make_test_backend(Defect::kNone);
  json cases = json::parse(kSharedStorageCases)["cases"];
  json copied = cases[0];
  copied["args"]["other"] = json::parse(
      R"({"dtype": "float32", "sizes": [3, 3], "strides": [1, 3],
          "storage": [0, 1, 2, 3, 4, 5, 6, 7, 8]})");
  json wrong_storage = cases[4];
  wrong_storage["expect"]["outputs"][0]["storage"] = json::array({0, 1, 2, 3, 7, 6});
  for (const Backend* backend :
       {static_cast<const Backend*>(&cpu), static_cast<const Backend*>(plugin.get())}) {
    EXPECT_THAT(
        execute(case_from_json(copied, Tolerances::builtin()), *backend).failures,
        ElementsAre(std::string("succeeded, expected an error containing '") + kOverlap + "'"));
    EXPECT_THAT(
        execute(case_from_json(wrong_storage, Tolerances::builtin()), *backend).failures,
        ElementsAre("storage: 1 of 6 elements differ (atol 1e-05, rtol 1.3e-06): at [5] got 5, "
                    "expected 6"));
  }
}

}  // namespace
}  // namespace bp::conformance
