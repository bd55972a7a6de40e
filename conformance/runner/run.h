// Running the suite: every selected entry of the op database, every selected dtype, every case,
// on one backend; in process, or with crash isolation (isolate.h).
//
//   RunOptions options;
//   options.ops.names = {"add"};                 // add.Tensor, add.Scalar, ... (op_selection.h)
//   options.dtypes = DtypeSet(ScalarType::kFloat32);
//   options.on_failure = write_repro;            // returns the repro file's path
//   RunResults r = run_suite(op_database(), backend, options);
//
// Every variant of every selected entry gets an OpResult, declared or not; ops that are not
// declared get no cases. For each sample, the in-place and out= results must also equal the
// functional result bit for bit ("differs from the functional result"), unless the entry is
// nondeterministic.
//
// Thread safety: one run at a time (cases run on the calling thread).
#ifndef BACKPLANE_CONFORMANCE_RUNNER_RUN_H_
#define BACKPLANE_CONFORMANCE_RUNNER_RUN_H_

#include <cstddef>
#include <functional>
#include <string>

#include "conformance/framework/op_entry.h"
#include "conformance/runner/backend.h"
#include "conformance/runner/case.h"
#include "conformance/runner/execute.h"
#include "conformance/runner/op_selection.h"
#include "conformance/runner/results.h"
#include "conformance/runner/tolerances.h"

namespace bp::conformance {

struct Progress {
  size_t done = 0;   // entries finished
  size_t total = 0;  // entries selected
  std::string entry;
  int64_t failed = 0;  // failing cases so far
};

// Called for each failing case; returns the path of the repro file it wrote ("" for none).
using FailureSink = std::function<std::string(const Case&, const CaseOutcome&)>;

struct RunOptions {
  OpSelection ops;  // empty: every entry
  DtypeSet dtypes = kAllDtypes;
  bool isolate = false;
  int entry_timeout_seconds = 300;         // isolation: a child taking longer is killed
  const Tolerances* tolerances = nullptr;  // null: Tolerances::builtin()
  const Backend* compare_with = nullptr;   // plugin backends: also compare with this (CPU)
  FailureSink on_failure;
  std::function<void(const Progress&)> progress;
  Shard shard;  // run only this shard's entries (Shard::has over the selected entries)
  CaseResultsLevel case_results = CaseResultsLevel::kFailures;  // RunResults::case_results
};

// Errors: std::invalid_argument when options.ops selects nothing (select_entries).
RunResults run_suite(const OpDatabase& db, const Backend& backend, const RunOptions& options);

// Ops the registry has (the dispatcher's ops in namespace bp) that no entry of `db` covers.
std::vector<std::string> ops_without_entry(const OpDatabase& db);

// What run_entry reports to, and asks of, its caller.
struct EntryHooks {
  // Whether to leave case number `index` out (resuming after a crash).
  std::function<bool(size_t index, const Case& c)> skip;
  // Called before a case runs.
  std::function<void(size_t index, const Case& c)> begin;
  // Receives each result.
  std::function<void(const CaseRecord& record)> emit;
};

// The record of a case and its outcome, as the run reports it (RunResults::add).
CaseRecord record_of(const Case& c, const CaseOutcome& o);

// Runs the cases of one entry for its selected dtypes.
void run_entry(const OpEntry& entry, const Backend& backend, const RunOptions& options,
               const EntryHooks& hooks);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_RUN_H_
