// Crash isolation: a backend whose add.out raises SIGSEGV fails the add ops, and the run goes
// on. A test binary of its own: the parent process of an isolated run must not have run ops
// (its OpenMP threads would not survive the fork).
#include "conformance/ops/database.h"
#include "conformance/runner/run.h"
#include "conformance/testing/broken_backends.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;

TEST(Isolation, ACrashFailsItsOpsAndTheRunGoesOn) {
  auto backend = make_test_backend(Defect::kCrashes);
  const CpuBackend cpu;
  RunOptions options;
  options.ops.names = {"add", "mul", "view"};
  options.dtypes = DtypeSet(ScalarType::kInt32) | DtypeSet(ScalarType::kFloat32);
  options.compare_with = &cpu;
  options.isolate = true;
  const RunResults r = run_suite(op_database(), *backend, options);
  for (const char* op : {"add.Tensor", "add_.Tensor", "add.out"}) {
    for (ScalarType t : {ScalarType::kInt32, ScalarType::kFloat32}) {
      EXPECT_EQ(r.find(op)->status(t), CellStatus::kFail) << op;
      ASSERT_FALSE(r.find(op)->cells.at(t).failures.empty()) << op;
      EXPECT_THAT(r.find(op)->cells.at(t).failures[0].message, HasSubstr("crashed")) << op;
      EXPECT_THAT(r.find(op)->cells.at(t).failures[0].check, HasSubstr("(crash)")) << op;
    }
  }
  // Entries after the crashing ones still ran, each with its own verdict.
  EXPECT_EQ(r.find("mul.Tensor")->status(ScalarType::kFloat32), CellStatus::kUnsupported);
  EXPECT_EQ(r.find("view")->status(ScalarType::kFloat32), CellStatus::kPass);
  EXPECT_TRUE(r.isolated);
}

}  // namespace
}  // namespace bp::conformance
