#include "sdk/ops/op_table.h"

namespace bp {

const OpInfo* find_op_info(std::string_view name) {
  for (const OpInfo& op : op_table()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

}  // namespace bp
