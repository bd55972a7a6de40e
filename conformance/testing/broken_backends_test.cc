// Each deliberately broken backend is caught, and reported for the right op; the backend that
// supports nothing fails the tier1 profile and a run with no case. (The crashing backend:
// isolation_test.cc.)
#include "conformance/testing/broken_backends.h"

#include "conformance/ops/database.h"
#include "conformance/runner/run.h"
#include "conformance/runner/verdict.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;

// The add entries (add.Tensor, add_.Tensor, add.out, add.Scalar, add_.Scalar) and mul, in the
// dtypes the defects hit, on `backend`, compared with the CPU backend as the CLI does.
RunResults run(const Backend& backend, bool isolate = false,
               const std::vector<std::string>& ops = {"add", "mul"}) {
  static const CpuBackend cpu;
  RunOptions options;
  options.ops.names = ops;
  options.dtypes = DtypeSet(ScalarType::kInt32) | DtypeSet(ScalarType::kFloat32);
  options.compare_with = &cpu;
  options.isolate = isolate;
  return run_suite(op_database(), backend, options);
}

CellStatus status(const RunResults& r, const std::string& op, ScalarType t) {
  const OpResult* o = r.find(op);
  EXPECT_NE(o, nullptr) << op;
  return o == nullptr ? CellStatus::kNotRun : o->status(t);
}

// Every failure message of an op, joined.
std::string failures(const RunResults& r, const std::string& op) {
  std::string all;
  for (const auto& [dtype, cell] : r.find(op)->cells) {
    for (const FailureRecord& f : cell.failures) all += "[" + f.check + "] " + f.message + "\n";
  }
  return all;
}

TEST(BrokenBackends, ACorrectPluginPassesThroughTheCpuFallbackAndItsTrafficIsCounted) {
  auto backend = make_test_backend(Defect::kNone);
  const RunResults r = run(*backend);
  for (const char* op : {"add.Tensor", "add_.Tensor", "add.out", "mul.Tensor", "mul.out"}) {
    EXPECT_EQ(status(r, op, ScalarType::kFloat32), CellStatus::kPass) << failures(r, op);
    EXPECT_EQ(status(r, op, ScalarType::kInt32), CellStatus::kPass) << failures(r, op);
    EXPECT_TRUE(r.find(op)->serving.via_fallback) << r.find(op)->serving.path;
    EXPECT_GT(r.find(op)->transfers.total(), 0) << op;
  }
  EXPECT_TRUE(judge(r, nullptr, op_database()).passed);
}

TEST(BrokenBackends, WrongValuesForOneDtypeFailThatDtypeOnly) {
  auto backend = make_test_backend(Defect::kWrongValuesInt32);
  const RunResults r = run(*backend);
  for (const char* op : {"add.Tensor", "add_.Tensor", "add.out"}) {
    EXPECT_EQ(status(r, op, ScalarType::kInt32), CellStatus::kFail) << op;
    EXPECT_EQ(status(r, op, ScalarType::kFloat32), CellStatus::kPass) << failures(r, op);
    EXPECT_TRUE(r.find(op)->serving.via_common || r.find(op)->kind == VariantKind::kOut) << op;
  }
  EXPECT_THAT(failures(r, "add.Tensor"), HasSubstr("elements differ"));
  // mul has no kernel on this backend: unsupported, never passed.
  EXPECT_EQ(status(r, "mul.Tensor", ScalarType::kFloat32), CellStatus::kUnsupported);
  EXPECT_FALSE(judge(r, nullptr, op_database()).passed);
}

TEST(BrokenBackends, IgnoringStridesFailsOnNonContiguousSamples) {
  auto backend = make_test_backend(Defect::kIgnoresStrides);
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_EQ(status(r, "add.out", ScalarType::kInt32), CellStatus::kFail);
  bool transposed = false;
  for (const FailureRecord& f : r.find("add.Tensor")->cells.at(ScalarType::kFloat32).failures) {
    transposed |= f.sample.find("{T}") != std::string::npos;
  }
  EXPECT_TRUE(transposed) << failures(r, "add.Tensor");
}

TEST(BrokenBackends, WritingPastTheOutputIsCaughtByTheGuardBytes) {
  auto backend = make_test_backend(Defect::kWritesPastOutput);
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.out", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_THAT(failures(r, "add.out"), HasSubstr("'out' wrote outside its elements"));
  EXPECT_THAT(failures(r, "add_.Tensor"), HasSubstr("'self' wrote outside its elements"));
}

TEST(BrokenBackends, ModifyingAnInputIsCaught) {
  auto backend = make_test_backend(Defect::kModifiesInput);
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_THAT(failures(r, "add.Tensor"), HasSubstr("modified its input 'self'"));
}

TEST(BrokenBackends, AWrongOutputShapeIsCaughtForTheFunctionalOp) {
  auto backend = make_test_backend(Defect::kWrongOutputShape);
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_THAT(failures(r, "add.Tensor"), HasSubstr("sizes [35], expected [5, 7]"));
  EXPECT_EQ(status(r, "add.out", ScalarType::kFloat32), CellStatus::kPass)
      << failures(r, "add.out");
}

TEST(BrokenBackends, ABackendThatSupportsNothingFailsTheTier1Profile) {
  auto backend = make_test_backend(Defect::kSupportsNothing);
  const RunResults r = run(*backend, false, {"add", "mul", "view"});
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kUnsupported);
  const RunVerdict tier1 = judge(r, find_profile("tier1"), op_database());
  EXPECT_FALSE(tier1.passed);
  EXPECT_GT(tier1.profile_gaps, 0);
  // Views work on any device (they only change metadata): without a profile the run passes...
  EXPECT_TRUE(judge(r, nullptr, op_database()).passed);
  // ... but a run in which nothing could be checked does not.
  const RunResults nothing = run(*backend, false, {"add"});
  const RunVerdict v = judge(nothing, nullptr, op_database());
  EXPECT_FALSE(v.passed);
  EXPECT_THAT(v.reasons[0], HasSubstr("no case ran"));
}

}  // namespace
}  // namespace bp::conformance
