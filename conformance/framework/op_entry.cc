#include "conformance/framework/op_entry.h"

#include "sdk/core/error.h"

namespace bp::conformance {

std::string_view variant_kind_name(VariantKind kind) {
  switch (kind) {
    case VariantKind::kFunctional:
      return "functional";
    case VariantKind::kInplace:
      return "inplace";
    case VariantKind::kOut:
      return "out";
  }
  return "?";
}

const OpVariant* OpEntry::variant(VariantKind kind) const {
  for (const OpVariant& v : variants) {
    if (v.kind == kind) return &v;
  }
  return nullptr;
}

std::string tolerance_op_name(std::string_view op) {
  std::string base(op.substr(0, op.find('.')));
  if (!base.empty() && base.back() == '_') base.pop_back();
  return base;
}

std::string OpEntry::tolerance_name() const {
  return tolerance_key.empty() ? tolerance_op_name(name) : tolerance_key;
}

void OpDatabase::add(OpEntry entry) {
  BP_INTERNAL_ASSERT(!entry.variants.empty() && entry.samples && entry.reference,
                     "conformance entry '", entry.name,
                     "' needs variants, samples and a reference");
  BP_INTERNAL_ASSERT(find(entry.name) == nullptr, "two conformance entries named '", entry.name,
                     "'");
  for (const OpVariant& v : entry.variants) {
    BP_INTERNAL_ASSERT(by_op_.count(v.op) == 0, "op '", v.op, "' has two conformance entries");
    by_op_.emplace(v.op, entries_.size());
  }
  for (const std::string& op : entry.not_in_pytorch) {
    BP_INTERNAL_ASSERT(by_op_.count(op) == 0, "op '", op, "' has two conformance entries");
    by_op_.emplace(op, entries_.size());
  }
  entries_.push_back(std::move(entry));
}

const OpEntry* OpDatabase::find(std::string_view name) const {
  for (const OpEntry& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const OpEntry* OpDatabase::entry_for_op(std::string_view op_name) const {
  auto it = by_op_.find(op_name);
  return it == by_op_.end() ? nullptr : &entries_[it->second];
}

uint64_t sample_seed(std::string_view entry, ScalarType dtype) {
  // FNV-1a: stable across platforms and runs (std::hash is not).
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](unsigned char c) {
    h ^= c;
    h *= 1099511628211ull;
  };
  for (char c : entry) mix(static_cast<unsigned char>(c));
  mix(static_cast<unsigned char>(index_of(dtype)));
  return h;
}

}  // namespace bp::conformance
