// Which entries of the op database a run covers (the CLI's --ops and --ops-regex).
//
//   OpSelection s;
//   s.names = {"add", "sum.IntList_out"};  // add.Tensor, add.Scalar, ... and sum.dim_IntList
//   s.regex = "(add|mul)\\..*";            // full match against entry and op names
//   std::vector<const OpEntry*> entries = select_entries(op_database(), s);
//
// A name selects the entries it names exactly, in one of three ways:
// - an op's base name, "add": every entry with a variant whose name, less its overload and an
//   in-place '_', is "add" (add.Tensor with add_.Tensor and add.out; add.Scalar with add_.Scalar);
// - an op's full name, "add.out" or "add_.Tensor": the entry checking that op;
// - an entry's name, "sum.dim_IntList".
// The regex must match a whole entry or op name (std::regex_match), so "add.*" does not select
// addcmul's entry by way of a substring and "(add|mul)\\..*" does not select expand.
//
// Thread safety: a value type; select_entries only reads the database.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_OP_SELECTION_H_
#define BACKPLANE_CONFORMANCE_RUNNER_OP_SELECTION_H_

#include <string>
#include <string_view>
#include <vector>

#include "conformance/framework/op_entry.h"

namespace bp::conformance {

struct OpSelection {
  std::vector<std::string> names;  // base, op or entry names (--ops)
  std::string regex;               // "" for none; ECMAScript, full match (--ops-regex)

  // No names and no regex: every entry.
  bool all() const { return names.empty() && regex.empty(); }
};

// The names of a comma-separated list ("add,mul.out"), in order. Errors: std::invalid_argument
// for an empty list or an empty name ("add,,mul"), naming `flag`.
std::vector<std::string> split_op_names(const std::string& flag, const std::string& list);

// split_op_names' inverse: the names comma-separated ("" for none), as reports record --ops.
std::string join_op_names(const std::vector<std::string>& names);

// The entries of `db` the selection covers, in the database's order. A name or a regex that
// selects nothing is the caller's mistake, never an empty run. Errors: std::invalid_argument
// "--ops: 'sum.IntList' names no op or conformance entry (close: sum.IntList_out); ..." (up to
// 8 close names: same prefix, or within a few edits), "--ops-regex: '...' matches no op or entry
// name ...", or for an invalid regex "--ops-regex: invalid regular expression '...' (...)".
std::vector<const OpEntry*> select_entries(const OpDatabase& db, const OpSelection& selection);

// The names `name` can be selected by in `entry`: its name, its variants' names and their base
// names (tolerance_op_name).
std::vector<std::string> selectable_names(const OpEntry& entry);

// Up to `limit` of `candidates` close to `name` (sharing a prefix with it, or within
// max(1, size / 4) edits), the closest first; `name` itself never.
std::vector<std::string> close_names(std::string_view name,
                                     const std::vector<std::string>& candidates, size_t limit = 8);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_OP_SELECTION_H_
