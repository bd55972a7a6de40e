// The op table: every declared op with what its declaration says, for code that works over all
// ops by name (the C ABI's op listing, the conformance suite, docs).
//
//   for (const OpInfo& op : op_table()) std::cout << op.name << " " << op.schema << "\n";
//   const OpInfo* add = find_op_info("add.Tensor");
//   add->structured_group;   // "add.out": add.Tensor runs through add.out's meta function
//
// Generated from sdk/ops/*.yaml (op_table.cc); the order is the declarations' order.
// Thread safety: immutable.
#ifndef BACKPLANE_SDK_OPS_OP_TABLE_H_
#define BACKPLANE_SDK_OPS_OP_TABLE_H_

#include <cstdint>
#include <string_view>

#include "absl/types/span.h"

namespace bp {

// How an op relates to its structured group.
enum class OpKind : uint8_t { kFunctional, kInplace, kOut };

// "functional", "inplace" or "out".
constexpr std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::kFunctional:
      return "functional";
    case OpKind::kInplace:
      return "inplace";
    case OpKind::kOut:
      return "out";
  }
  return "?";
}

struct OpInfo {
  std::string_view name;    // "add.Tensor"
  std::string_view schema;  // canonical schema text
  std::string_view family;  // the declaration file: "binary"
  OpKind kind;
  std::string_view structured_group;  // the structured out= op it runs through, or ""
  std::string_view math;              // the scalar math functor (bp::math::Add), or ""
  std::string_view tags;              // "pointwise, core"
  std::string_view kernels;           // the keys declared kernels serve: "CPU, Meta, Common"
  uint32_t dtypes;                    // bit i set: ScalarType code i is supported
  bool function;                      // bp::name(...) exists
  bool method;                        // Tensor::name(...) exists
  std::string_view source;            // "sdk/ops/binary.yaml:12"

  bool supports(int scalar_type_code) const { return (dtypes >> scalar_type_code) & 1u; }
};

absl::Span<const OpInfo> op_table();
// The op named "name.overload" (or "name"), or null.
const OpInfo* find_op_info(std::string_view name);

}  // namespace bp

#endif  // BACKPLANE_SDK_OPS_OP_TABLE_H_
