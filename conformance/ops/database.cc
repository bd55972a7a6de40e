#include "conformance/ops/database.h"

#include "conformance/framework/declared_variants.h"

namespace bp::conformance {

void add_alias(OpDatabase& db, std::string alias, std::string_view target) {
  const OpEntry* t = db.find(target);
  BP_INTERNAL_ASSERT(t != nullptr, "no entry ", target, " for its alias ", alias);
  OpEntry e = *t;
  e.variants = declared_variants(alias);
  e.not_in_pytorch.clear();
  e.tolerance_key = t->tolerance_name();
  e.tier = 2;
  e.name = std::move(alias);
  db.add(std::move(e));
}

const OpDatabase& op_database() {
  static const OpDatabase* db = [] {
    auto* d = new OpDatabase;
    add_factory_entries(*d);
    add_view_entries(*d);
    add_list_view_entries(*d);
    add_copy_entries(*d);
    add_join_entries(*d);
    add_unary_entries(*d);
    add_binary_entries(*d);
    add_ternary_entries(*d);
    add_reduction_entries(*d);
    add_scan_entries(*d);
    add_normalization_entries(*d);
    add_activation_entries(*d);
    add_special_entries(*d);
    add_promotion_entries(*d);
    add_linalg_entries(*d);
    add_indexing_entries(*d);
    add_attention_entries(*d);
    return d;
  }();
  return *db;
}

}  // namespace bp::conformance
