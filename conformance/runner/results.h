// What a run found: per op (every variant of every entry, declared or not) and dtype, how many
// cases passed, failed or were unsupported, the first failures with their repro files, which
// kernel served the op and how many bytes it moved between host and device.
//
//   RunResults r = run_suite(...);
//   for (const OpResult& op : r.ops)
//     for (ScalarType t : op.dtypes.list()) std::cout << cell_status_name(op.status(t));
//
// Statuses of a cell (op x dtype):
//   pass          every case passed
//   fail          a case failed
//   unsupported   the backend raised NotImplemented for every case (error inputs aside: the
//                 shared meta functions reject those whether or not a kernel exists)
//   partial       some cases with results passed, others were unsupported (not a pass)
//   not declared  the op is not in the registry
//   n/a           PyTorch does not support the dtype for this op (never tested)
//   not run       the dtype was filtered out, or no case was made (a failure unless filtered)
//   xfail / xpass a failure listed in the expected-failures file / a listed cell that passed
//
// Thread safety: value types.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_RESULTS_H_
#define BACKPLANE_CONFORMANCE_RUNNER_RESULTS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/framework/dtype_set.h"
#include "conformance/framework/op_entry.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/execute.h"
#include "conformance/runner/serving.h"

namespace bp::conformance {

enum class CellStatus {
  kPass,
  kFail,
  kUnsupported,
  kPartial,
  kNotDeclared,
  kNotApplicable,
  kNotRun,
  kExpectedFail,
  kUnexpectedPass,
};
// "pass", "fail", "unsupported", "partial", "not declared", "n/a", "not run", "xfail", "xpass".
std::string_view cell_status_name(CellStatus s);

// One checked case, as the runner reports it (also what a child process sends its parent).
struct CaseRecord {
  std::string op;
  ScalarType dtype = ScalarType::kFloat32;
  std::string check;
  Verdict verdict = Verdict::kPass;
  std::vector<std::string> failures;
  std::string sample;
  std::string repro;  // the repro file written for a failure, or ""
  Transfers transfers;
  bool expects_error = false;  // the case checks that the op raises
  HandleCounts handles = {};   // what the backend's C ABI kernels did with tensor handles

  // A failure that is no case's (a crash, a broken entry).
  static CaseRecord failure(std::string op, ScalarType dtype, std::string check,
                            std::string message) {
    CaseRecord r;
    r.op = std::move(op);
    r.dtype = dtype;
    r.check = std::move(check);
    r.verdict = Verdict::kFail;
    r.failures = {std::move(message)};
    return r;
  }
};

struct FailureRecord {
  std::string check;
  std::string sample;
  std::string message;
  std::string repro;
};

struct Cell {
  int passed = 0;
  int passed_errors = 0;  // of `passed`: cases that only checked that the op raises
  int failed = 0;
  int unsupported = 0;
  std::vector<FailureRecord> failures;  // the first few
  std::string unsupported_reason;       // the first NotImplemented message
  bool expected_to_fail = false;        // listed in the expected-failures file
};

struct OpResult {
  std::string op;
  std::string entry;
  std::string family;
  int tier = 1;
  VariantKind kind = VariantKind::kFunctional;
  bool declared = false;
  DtypeSet dtypes;    // PyTorch's dtypes for the op
  DtypeSet selected;  // the dtypes this run tested (the --dtypes filter)
  std::map<ScalarType, Cell> cells;
  Serving serving;       // which kernel served it on the backend under test
  Transfers transfers;   // bytes moved during its calls
  HandleCounts handles;  // tensor handles its C ABI kernels created, released, leaked...

  CellStatus status(ScalarType dtype) const;
  // The worst status over the selected dtypes (for one-line summaries).
  CellStatus overall() const;
  // Adds one case's result.
  void add(const CaseRecord& record);
};

struct RunResults {
  std::string backend;
  std::string backend_description;
  std::vector<OpResult> ops;
  double seconds = 0;
  bool isolated = false;
  std::vector<std::string> tolerance_sources;
  std::vector<std::string> tolerance_overrides;
  std::vector<std::string> notes;  // things the reader should know (unknown expected failures...)
  // Ops in the registry that no entry of the op database covers (a conformance gap).
  std::vector<std::string> ops_without_entry;

  int64_t cases(Verdict v) const;
  // Cases that ran an op to completion and checked its results (not only that it raises).
  int64_t cases_with_results() const;
  OpResult* find(std::string_view op);
  const OpResult* find(std::string_view op) const;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_RESULTS_H_
