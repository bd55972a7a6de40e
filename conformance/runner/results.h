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
  std::string id;              // the case's id (Case::id), for per-case results
  // The case produced no result to check (it could not be read or planned, or it crashed, hung
  // or exited in isolation): a failure, reported per case as "error".
  bool error = false;
  Transfers staging;           // bytes the suite moved for the case (CaseOutcome::staging)
  int64_t fallback_calls = 0;  // CPU fallback calls during the op's call

  // A failure that is no case's (a crash, a broken entry).
  static CaseRecord failure(std::string op, ScalarType dtype, std::string check,
                            std::string message) {
    CaseRecord r;
    r.op = std::move(op);
    r.dtype = dtype;
    r.check = std::move(check);
    r.verdict = Verdict::kFail;
    r.failures = {std::move(message)};
    r.error = true;
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
  Serving serving;       // which kernel the dispatcher's table names for the backend under test
  Transfers transfers;   // bytes moved during its calls (the CPU fallback's, kernels' own)
  Transfers staging;     // bytes the suite moved to stage its cases (arguments, results)
  HandleCounts handles;  // tensor handles its C ABI kernels created, released, leaked...
  int64_t calls = 0;     // cases that called it (records that are not errors)
  int64_t calls_via_fallback = 0;  // of them: calls during which the CPU fallback ran

  CellStatus status(ScalarType dtype) const;
  // What served its calls: the dispatcher's path, plus "+ cpu_fallback (N of M calls)" when a
  // kernel handed calls on to the CPU fallback.
  std::string served_by() const;
  // Whether the CPU fallback (as the backend's fallback, or called by a kernel) ran for it.
  bool via_fallback() const { return serving.via_fallback || calls_via_fallback > 0; }
  // The worst status over the selected dtypes (for one-line summaries).
  CellStatus overall() const;
  // Adds one case's result.
  void add(const CaseRecord& record);
  // Adds another shard's results for the same op: counts, failures (the first few), dtypes,
  // bytes, handles and calls. `other.op` must equal `op`.
  void merge(const OpResult& other);
};

// Per-case results kept in a run's results (--case-results): every case, the cases that did not
// pass (failed, errors, unsupported), or none.
enum class CaseResultsLevel { kAll, kFailures, kNone };
// "all", "failures", "none".
std::string_view case_results_level_name(CaseResultsLevel level);

// One case's result, as the reports list it.
struct CaseResult {
  std::string id;
  std::string op;
  ScalarType dtype = ScalarType::kFloat32;
  std::string check;
  Verdict verdict = Verdict::kPass;
  bool error = false;   // CaseRecord::error
  std::string message;  // the failures (or the unsupported reason), "; "-joined
  std::string repro;
};

// Which part of a sharded run this is (--shard K/N): shard `index` of `count`, from 1.
// Items (the selected entries of the database, the cases of a case file) are dealt out in
// turn: item i (from 0) belongs to shard i % count + 1, so every shard gets every family.
struct Shard {
  int index = 1;
  int count = 1;

  bool has(size_t item) const { return static_cast<int>(item % count) == index - 1; }
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
  // The selection, for readers and for merging shards' reports (which must agree on it).
  std::string ops_names;  // --ops: the names, comma-separated, or ""
  std::string ops_regex;  // --ops-regex, or ""
  DtypeSet dtypes = kAllDtypes;
  std::string cases_file;              // --cases FILE, or ""
  std::string expected_failures_file;  // --expected-failures FILE, or ""
  std::string expected_failures_text;  // its text (merging applies it again)
  Shard shard;
  CaseResultsLevel case_results_level = CaseResultsLevel::kNone;
  std::vector<CaseResult> case_results;  // in run order, as case_results_level keeps them

  // Adds a case's record to `op` and keeps its per-case result as case_results_level says.
  void add(OpResult& op, const CaseRecord& record);

  int64_t cases(Verdict v) const;
  // Cases that ran an op to completion and checked its results (not only that it raises).
  int64_t cases_with_results() const;
  OpResult* find(std::string_view op);
  const OpResult* find(std::string_view op) const;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_RESULTS_H_
