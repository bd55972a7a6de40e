// The verdict of a run: whether it passes, and why not. It cannot be gamed:
// - a run in which no op produced a result to check fails (error inputs alone do not count:
//   the shared meta functions reject them whether or not the backend has a kernel);
// - an unsupported or undeclared op is never a pass: without a profile it is reported, with a
//   profile it fails the run when the profile requires the op;
// - every failed case fails the run unless the expected-failures file lists its op and dtype,
//   also one in an undeclared op or in a dtype the op does not have (a case file's unknown op, a
//   crash outside any case); listed cells that pass are reported as unexpected passes.
//
//   ExpectedFailures xf = ExpectedFailures::parse(text);      // "add.Tensor int32  # reason"
//   apply_expected_failures(results, xf);
//   RunVerdict v = judge(results, find_profile("tier1"), op_database());
//   if (!v.passed) for (auto& r : v.reasons) std::cerr << r << "\n";
//
// Profiles: `tier1` (every tier-1 op, in float32, or int64 / bool for ops without float32, must
// pass) and `tier1-all-dtypes` (every tier-1 op in every dtype PyTorch supports for it).
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_VERDICT_H_
#define BACKPLANE_CONFORMANCE_RUNNER_VERDICT_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/runner/results.h"

namespace bp::conformance {

struct Profile {
  std::string name;
  std::string description;
  int tier = 1;             // ops of this tier (and lower) are required
  bool all_dtypes = false;  // every PyTorch dtype of the op, else one (float32 if it has it)
};

const std::vector<Profile>& profiles();
// The profile named `name`, or null.
const Profile* find_profile(const std::string& name);
// The dtypes a profile requires of an op with PyTorch dtypes `dtypes`.
DtypeSet required_dtypes(const Profile& p, DtypeSet dtypes);

// A vendor's known gaps: lines "<op> <dtype or *>", '#' starts a comment.
struct ExpectedFailures {
  struct Line {
    std::string op;
    std::string dtype;  // a dtype name, or "*"
    int line = 0;
  };
  std::vector<Line> lines;
  std::string text;  // the text parsed (reports carry it, so that merging applies it again)

  // Errors: std::runtime_error naming the line for a malformed line or an unknown dtype.
  static ExpectedFailures parse(const std::string& text);
  static ExpectedFailures load(const std::string& path);
};

// Marks the listed cells; notes lines that name no op of the run in `results.notes`.
void apply_expected_failures(RunResults& results, const ExpectedFailures& xf);
// Whether a note is one of those apply_expected_failures writes (merging shards writes them
// again for the whole run).
bool is_expected_failures_note(std::string_view note);

struct RunVerdict {
  bool passed = true;
  std::vector<std::string> reasons;  // why it did not pass
  int unexpected_failures = 0;       // failing cells not listed as expected
  int expected_failures = 0;
  int unexpected_passes = 0;
  int profile_gaps = 0;  // cells a profile requires that do not pass
};

// `db` lists what a profile requires: required ops missing from `results` (filtered out) are
// gaps too, except in one shard of a sharded run (results.shard.count > 1), which judges the
// profile on its own ops only; the merged results (merge_results.h) judge all.
RunVerdict judge(const RunResults& results, const Profile* profile, const OpDatabase& db);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_VERDICT_H_
