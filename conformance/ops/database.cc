#include "conformance/ops/database.h"

namespace bp::conformance {

const OpDatabase& op_database() {
  static const OpDatabase* db = [] {
    auto* d = new OpDatabase;
    add_factory_entries(*d);
    add_view_entries(*d);
    add_copy_entries(*d);
    add_unary_entries(*d);
    add_binary_entries(*d);
    add_ternary_entries(*d);
    add_reduction_entries(*d);
    add_scan_entries(*d);
    return d;
  }();
  return *db;
}

}  // namespace bp::conformance
