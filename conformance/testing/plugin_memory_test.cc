// A plugin's memory and handle bugs are caught as case failures and never crash the host: an
// overrun of an output the Common key allocated (guard zones), an allocator that returns NULL, a
// kernel that releases a borrowed argument or leaks a tensor (the handle ledger).
#include <string>

#include "backplane/backplane.h"
#include "conformance/io/report.h"
#include "conformance/ops/database.h"
#include "conformance/runner/allocation_guards.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/run.h"
#include "conformance/runner/verdict.h"
#include "conformance/testing/broken_backends.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/allocator.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/storage.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;

// The add and mul entries in float32 and int32 on `backend`, compared with the CPU.
RunResults run(const Backend& backend, bool isolate = false) {
  static const CpuBackend cpu;
  RunOptions options;
  options.ops.names = {"add", "mul"};
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

// ---- Guard zones -------------------------------------------------------------------------

TEST(AllocationGuards, AOneByteOverrunPastABlockIsReportedWithTheOpAndTheOffset) {
  auto backend = make_test_backend(Defect::kNone);  // host memory behind a plugin device
  const DeviceType type = backend->device().type;
  Allocator* plain = get_allocator(type);
  {
    AllocationGuards guards(backend->device(), "my.op");
    ASSERT_TRUE(guards.active());
    Storage s = Storage::allocate(10, get_allocator(type));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % plain->alignment(), 0u);
    EXPECT_TRUE(guards.check().empty());
    static_cast<char*>(s.data())[10] = 1;  // one byte past the end, inside the guard
    EXPECT_THAT(
        guards.check(),
        ::testing::ElementsAre(
            "my.op wrote 1 byte past the end of a 10-byte block the host allocated on " +
            backend->name() + ":0 (the first changed byte at offset 10, 0 bytes past its end)"));
    EXPECT_TRUE(guards.check().empty()) << "each block is reported once";
  }
  EXPECT_EQ(get_allocator(type), plain) << "the scope restores the plugin's allocator";
}

TEST(AllocationGuards, ABlockFreedDuringTheScopeIsCheckedWhenFreed) {
  auto backend = make_test_backend(Defect::kNone);
  AllocationGuards guards(backend->device(), "my.op");
  {
    Storage s = Storage::allocate(16, get_allocator(backend->device().type));
    static_cast<char*>(s.data())[-3] = 1;  // before the start, inside the front guard
  }
  const std::vector<std::string> found = guards.finish();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0], HasSubstr("my.op wrote before the start of a 16-byte block"));
  EXPECT_THAT(found[0], HasSubstr("(from offset -3)"));
}

TEST(AllocationGuards, CpuAndAScopeInsideAnotherAreNotGuarded) {
  EXPECT_FALSE(AllocationGuards(Device(DeviceType::kCPU), "x").active());
  auto backend = make_test_backend(Defect::kNone);
  AllocationGuards outer(backend->device(), "x");
  EXPECT_TRUE(outer.active());
  EXPECT_FALSE(AllocationGuards(backend->device(), "y").active());
}

TEST(PluginMemory, AnOverrunOfAnOutputTheCommonKeyAllocatedFailsTheCase) {
  auto backend = make_test_backend(Defect::kWritesPastCommonOutput);
  const RunResults r = run(*backend);
  // add.Tensor: Common allocates the output with its exact size on the plugin's device.
  for (ScalarType t : {ScalarType::kFloat32, ScalarType::kInt32}) {
    EXPECT_EQ(status(r, "add.Tensor", t), CellStatus::kFail) << failures(r, "add.Tensor");
  }
  const std::string add = failures(r, "add.Tensor");
  EXPECT_THAT(add, HasSubstr("[guards] add.Tensor wrote 4 bytes past the end of a 28-byte block "
                             "the host allocated on writes_past_common_output:0 (the first "
                             "changed byte at offset 28, 0 bytes past its end)"));
  // out= and in-place: the suite's own guard elements inside the storage catch it, as before.
  EXPECT_THAT(failures(r, "add.out"), HasSubstr("'out' wrote outside its elements"));
  EXPECT_THAT(failures(r, "add_.Tensor"), HasSubstr("'self' wrote outside its elements"));
  // mul has no kernel: untouched.
  EXPECT_EQ(status(r, "mul.Tensor", ScalarType::kFloat32), CellStatus::kUnsupported);
  EXPECT_FALSE(judge(r, nullptr, op_database()).passed);
}

// ---- An allocator that returns NULL ------------------------------------------------------

TEST(PluginMemory, AnAllocatorReturningNullIsAnErrorNamingTheBackendAndTheSize) {
  auto backend = make_c_abi_test_backend(Defect::kAllocatorReturnsNull);
  // Outside the suite (no guards): the plain path of any C ABI user.
  const Tensor host = native::empty({5, 7}, ScalarType::kFloat32, Device(DeviceType::kCPU));
  const Tensor a = copy_to_device(host, backend->device());
  Stack stack{a, a, Scalar(1)};
  const OperatorHandle op = *Dispatcher::singleton().find_op("add.Tensor");
  try {
    op.call_boxed(&stack);
    ADD_FAILURE() << "add.Tensor succeeded";
  } catch (const Error& e) {
    // The backend is named once: the host's allocation error, passed on by the kernel, keeps its
    // text without a second "[allocator_returns_null] ".
    EXPECT_EQ(e.message(),
              "[allocator_returns_null] add.out: the allocator returned NULL for 140 bytes "
              "without an error (an allocator that cannot provide memory must return an error, "
              "e.g. BP_ERROR_OUT_OF_MEMORY)");
  }
  // In the suite: the cases fail, the run goes on.
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_THAT(failures(r, "add.Tensor"),
              HasSubstr("[allocator_returns_null] add.out: the allocator returned NULL for "));
  EXPECT_THAT(failures(r, "add.Tensor"), HasSubstr("without an error"));
  EXPECT_EQ(status(r, "mul.Tensor", ScalarType::kFloat32), CellStatus::kPass)
      << failures(r, "mul.Tensor");
}

// ---- The handle ledger -------------------------------------------------------------------

TEST(PluginMemory, AKernelReleasingABorrowedArgumentFailsWithoutAUseAfterFree) {
  auto backend = make_c_abi_test_backend(Defect::kReleasesBorrowed);
  const RunResults r = run(*backend);
  for (ScalarType t : {ScalarType::kFloat32, ScalarType::kInt32}) {
    EXPECT_EQ(status(r, "add.Tensor", t), CellStatus::kFail);
    EXPECT_EQ(status(r, "add.out", t), CellStatus::kFail);
  }
  EXPECT_THAT(failures(r, "add.Tensor"),
              HasSubstr("[handles] [releases_borrowed] add.out: released a reference to argument "
                        "'self' that it does not own (arguments are borrowed: tensor_retain one "
                        "before releasing it); the host ignored the release"));
  const OpResult& add = *r.find("add.Tensor");
  EXPECT_GT(add.handles.over_released, 0);
  EXPECT_EQ(add.handles.leaked, 0);
  // Ops through the host's CPU fallback (no C kernel) are counted as nothing and pass.
  EXPECT_EQ(status(r, "mul.Tensor", ScalarType::kFloat32), CellStatus::kPass)
      << failures(r, "mul.Tensor");
  EXPECT_FALSE(r.find("mul.Tensor")->handles.any());
}

TEST(PluginMemory, AKernelLeakingATensorPerCallFailsAndTheReportCountsIt) {
  auto backend = make_c_abi_test_backend(Defect::kLeaksTensor);
  const RunResults r = run(*backend);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_EQ(status(r, "add.out", ScalarType::kInt32), CellStatus::kFail);
  EXPECT_THAT(failures(r, "add.Tensor"),
              HasSubstr("[handles] [leaks_tensor] add.out: leaked 1 tensor reference that it "
                        "created or retained and neither released nor returned: a float32 [2] "
                        "tensor"));
  // Per call: cpu_fallback's result (returned) and the leaked tensor.
  const HandleCounts h = r.find("add.Tensor")->handles;
  EXPECT_GT(h.leaked, 0);
  EXPECT_EQ(h.created, 2 * h.leaked);
  EXPECT_EQ(h.returned, h.leaked);
  EXPECT_EQ(h.over_released, 0);
  const nlohmann::json report = report_json(r, judge(r, nullptr, op_database()), nullptr);
  bool found = false;
  for (const auto& op : report.at("ops")) {
    if (op.at("op") != "add.Tensor") continue;
    found = true;
    EXPECT_EQ(op.at("handles").at("leaked"), h.leaked);
    EXPECT_EQ(op.at("handles").at("created"), h.created);
    EXPECT_EQ(op.at("handles").at("over_released"), 0);
  }
  EXPECT_TRUE(found);
}

TEST(PluginMemory, TheLedgerCountsSurviveIsolation) {
  auto backend = make_c_abi_test_backend(Defect::kLeaksTensor);
  const RunResults r = run(*backend, /*isolate=*/true);
  EXPECT_EQ(status(r, "add.Tensor", ScalarType::kFloat32), CellStatus::kFail);
  EXPECT_GT(r.find("add.Tensor")->handles.leaked, 0);
  EXPECT_THAT(failures(r, "add.Tensor"), HasSubstr("leaked 1 tensor reference"));
}

}  // namespace
}  // namespace bp::conformance
