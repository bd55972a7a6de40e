// Merging the results of a sharded run (--shard K/N, or Bazel's test sharding) into the results
// of the whole run, which judge() then judges as one run's: the same ops, counts, expected
// failures and profile gaps as an unsharded run of the same selection.
//
//   std::vector<RunResults> shards = ...;            // read_report_json(path).results each
//   RunResults all = merge_results(std::move(shards), names, op_database());
//   RunVerdict v = judge(all, profile, op_database());
//
// Thread safety: a pure function.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_MERGE_RESULTS_H_
#define BACKPLANE_CONFORMANCE_RUNNER_MERGE_RESULTS_H_

#include <string>
#include <vector>

#include "conformance/framework/op_entry.h"
#include "conformance/runner/results.h"

namespace bp::conformance {

// Merges the shards' results: ops in the database's order (a case file's: in the order of their
// first case when every case is listed, else of first appearance shard by shard), cell counts and
// bytes summed, per-case results concatenated, seconds summed, the expected-failures file applied
// again to the whole (its notes are the whole run's). The result is shard 1 of 1. `names[i]` names
// shards[i] in errors (its file). Errors: std::invalid_argument naming the files when the shards
// are not the parts of one run: no shards, a different backend, selection (--ops, --dtypes,
// --cases), expected-failures file,
// --case-results or shard count, or a shard missing or given twice.
RunResults merge_results(std::vector<RunResults> shards, const std::vector<std::string>& names,
                         const OpDatabase& db);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_MERGE_RESULTS_H_
