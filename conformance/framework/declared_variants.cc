#include "conformance/framework/declared_variants.h"

#include <algorithm>
#include <optional>

#include "sdk/core/error.h"
#include "sdk/dispatch/schema.h"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

// What torchgen's FunctionSchema.signature() keeps: the base name without an in-place '_', the
// arguments without out= outputs and alias annotations.
struct Signature {
  std::string base;
  std::vector<Argument> arguments;

  friend bool operator==(const Signature&, const Signature&) = default;
};

Signature signature_of(std::string_view schema) {
  FunctionSchema s = parse_schema(schema);
  Signature sig;
  sig.base = s.name;
  if (!sig.base.empty() && sig.base.back() == '_') sig.base.pop_back();
  for (Argument& a : s.arguments) {
    if (a.kwarg_only && a.alias && a.alias->is_write) continue;  // an out= output
    a.alias.reset();
    sig.arguments.push_back(std::move(a));
  }
  return sig;
}

VariantKind variant_kind(OpKind kind) {
  switch (kind) {
    case OpKind::kFunctional:
      return VariantKind::kFunctional;
    case OpKind::kInplace:
      return VariantKind::kInplace;
    case OpKind::kOut:
      return VariantKind::kOut;
  }
  return VariantKind::kFunctional;
}

// The signature with its arguments in name order: equal for ops whose arguments differ only in
// order.
Signature unordered(Signature sig) {
  std::sort(sig.arguments.begin(), sig.arguments.end(),
            [](const Argument& a, const Argument& b) { return a.name < b.name; });
  return sig;
}

// The declared ops `info` is a variant of, itself included.
std::vector<const OpInfo*> group_of(const OpInfo& info) {
  std::vector<const OpInfo*> group;
  if (!info.structured_group.empty()) {
    const OpInfo* functional = nullptr;
    for (const OpInfo& o : op_table()) {
      if (o.structured_group != info.structured_group) continue;
      group.push_back(&o);
      if (o.kind == OpKind::kFunctional) functional = &o;
    }
    if (functional == nullptr) return group;
    // An in-place op outside the group whose arguments are the functional op's in another
    // order: PyTorch's polygamma_(Tensor(a!) self, int n) of polygamma(int n, Tensor self),
    // which cannot delegate to polygamma.out and is a composite of it.
    const Signature sig = unordered(signature_of(functional->schema));
    for (const OpInfo& o : op_table()) {
      if (o.kind != OpKind::kInplace || !o.structured_group.empty() ||
          !o.name.starts_with(sig.base)) {
        continue;
      }
      if (unordered(signature_of(o.schema)) == sig) group.push_back(&o);
    }
    return group;
  }
  const Signature sig = signature_of(info.schema);
  for (const OpInfo& o : op_table()) {
    // Only ops named like it can share its signature: skip parsing the others.
    if (!o.structured_group.empty() || !o.name.starts_with(sig.base)) continue;
    if (signature_of(o.schema) == sig) group.push_back(&o);
  }
  return group;
}

}  // namespace

std::vector<OpVariant> declared_variants(std::string_view op,
                                         const std::vector<std::string>& not_in_pytorch) {
  const OpInfo* info = find_op_info(op);
  BP_INTERNAL_ASSERT(info != nullptr, "conformance entry '", op,
                     "': no op of that name is declared in sdk/ops/*.yaml");
  std::vector<const OpInfo*> group = group_of(*info);
  for (const std::string& skipped : not_in_pytorch) {
    BP_INTERNAL_ASSERT(skipped != op, "conformance entry '", op,
                       "': not_in_pytorch names the entry's own op");
    auto it = std::find_if(group.begin(), group.end(),
                           [&](const OpInfo* o) { return o->name == skipped; });
    BP_INTERNAL_ASSERT(it != group.end(), "conformance entry '", op, "': not_in_pytorch names ",
                       skipped, ", which is not one of its declared variants");
    group.erase(it);
  }
  std::vector<OpVariant> variants;
  for (VariantKind kind : {VariantKind::kFunctional, VariantKind::kInplace, VariantKind::kOut}) {
    std::optional<OpVariant> found;
    for (const OpInfo* o : group) {
      if (variant_kind(o->kind) != kind) continue;
      BP_INTERNAL_ASSERT(!found, "conformance entry '", op, "': two declared ",
                         variant_kind_name(kind), " variants, ", found ? found->op : "", " and ",
                         o->name);
      found = OpVariant{std::string(o->name), kind};
    }
    if (found) variants.push_back(*found);
  }
  return variants;
}

}  // namespace bp::conformance
