// The op database: every op Backplane declares or OPS.md promises, one entry per op (or per
// structured group), split by family. The test //conformance/ops:database_test fails when a
// registered op has no entry.
//
//   const OpDatabase& db = op_database();
//   const OpEntry* add = db.entry_for_op("add_.Tensor");
//
// Thread safety: op_database() builds the database once (thread-safe static); read-only after.
#ifndef BACKPLANE_CONFORMANCE_OPS_DATABASE_H_
#define BACKPLANE_CONFORMANCE_OPS_DATABASE_H_

#include <string>
#include <string_view>

#include "conformance/framework/op_entry.h"

namespace bp::conformance {

const OpDatabase& op_database();

// An entry for `alias` (arccos), an op declared with `alias_of: target` (acos): the target's
// entry (samples, reference, dtypes, tolerances) over the alias's declared variants. Errors
// (internal): no entry named `target`.
void add_alias(OpDatabase& db, std::string alias, std::string_view target);

// One per family file.
void add_unary_entries(OpDatabase& db);
void add_binary_entries(OpDatabase& db);
void add_ternary_entries(OpDatabase& db);
void add_reduction_entries(OpDatabase& db);
void add_scan_entries(OpDatabase& db);
void add_normalization_entries(OpDatabase& db);  // layer_norm (scans.yaml)
void add_special_entries(OpDatabase& db);
void add_factory_entries(OpDatabase& db);
void add_view_entries(OpDatabase& db);
void add_list_view_entries(OpDatabase& db);
void add_promotion_entries(OpDatabase& db);
void add_copy_entries(OpDatabase& db);
void add_join_entries(OpDatabase& db);  // cat, stack (copies.yaml)
void add_activation_entries(OpDatabase& db);
void add_linalg_entries(OpDatabase& db);
void add_indexing_entries(OpDatabase& db);
void add_attention_entries(OpDatabase& db);  // scaled_dot_product_attention, dropout

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_OPS_DATABASE_H_
