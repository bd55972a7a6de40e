#include "conformance/cli/schemas.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "conformance/ops/database.h"
#include "conformance/runner/op_selection.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

// The ops `name` selects, as --ops reads names: an op, an op's base name, or an entry's name.
std::vector<const OpInfo*> ops_named(std::string_view name) {
  const OpEntry* entry = op_database().find(name);
  std::vector<const OpInfo*> ops;
  for (const OpInfo& info : op_table()) {
    bool in_entry = false;
    if (entry != nullptr) {
      for (const OpVariant& v : entry->variants) in_entry = in_entry || v.op == info.name;
    }
    if (in_entry || info.name == name || tolerance_op_name(info.name) == name) {
      ops.push_back(&info);
    }
  }
  return ops;
}

std::vector<std::string> every_name() {
  std::set<std::string> names;
  for (const OpInfo& info : op_table()) {
    names.emplace(info.name);
    names.insert(tolerance_op_name(info.name));
  }
  for (const OpEntry& e : op_database().entries()) names.insert(e.name);
  return {names.begin(), names.end()};
}

using KernelKeys = std::map<std::string, OpSummary, std::less<>>;

bool has_kernel(const KernelKeys& kernels, std::string_view op, DispatchKey key) {
  auto it = kernels.find(op);
  return it != kernels.end() && it->second.has_kernel(key);
}

// The keys with a kernel for each op ("add.Tensor"), as the dispatcher has them.
KernelKeys registered_kernels() {
  KernelKeys kernels;
  for (const OpSummary& op : Dispatcher::singleton().list_ops()) {
    if (op.name.starts_with("bp::")) kernels.emplace(op.name.substr(4), op);
  }
  return kernels;
}

// A variant group: a conformance entry's ops (its variants, then ops it declares PyTorch lacks),
// or one op no entry covers.
struct Group {
  const OpEntry* entry = nullptr;
  std::vector<const OpInfo*> ops;
};

Group group_of(const OpInfo& info) {
  Group g;
  g.entry = op_database().entry_for_op(info.name);
  if (g.entry == nullptr) {
    g.ops = {&info};
    return g;
  }
  for (const OpVariant& v : g.entry->variants) g.ops.push_back(find_op_info(v.op));
  for (const std::string& op : g.entry->not_in_pytorch) g.ops.push_back(find_op_info(op));
  g.ops.erase(std::remove(g.ops.begin(), g.ops.end(), nullptr), g.ops.end());
  return g;
}

void describe(const Group& g, const KernelKeys& kernels, std::ostream& out) {
  const OpEntry* e = g.entry;
  if (e != nullptr) {
    out << e->name << " (conformance entry, family " << e->family << ", tier " << e->tier << ")\n";
  } else {
    out << g.ops[0]->name << " (no conformance entry)\n";
  }
  const OpInfo* out_op = nullptr;
  for (const OpInfo* op : g.ops) {
    const bool unchecked =
        e != nullptr && std::count(e->not_in_pytorch.begin(), e->not_in_pytorch.end(), op->name);
    out << "  " << op_kind_name(op->kind) << std::string(12 - op_kind_name(op->kind).size(), ' ')
        << op->schema << (unchecked ? "  (not checked: PyTorch lacks it)" : "") << "\n";
    if (op->kind == OpKind::kOut && !unchecked) out_op = op;
  }
  out << "  dtypes      ";
  if (e == nullptr) {
    out << "none checked";
  } else {
    const std::vector<ScalarType> dtypes = e->dtypes.list();
    for (size_t i = 0; i < dtypes.size(); ++i) {
      out << (i ? ", " : "") << scalar_type_name(dtypes[i]);
    }
  }
  out << "\n";
  // Ops written once for every backend: a backend serves them by serving what they call.
  for (const auto& [key, how] : {std::pair{DispatchKey::kCompositeImplicit,
                                           "written with other ops (CompositeImplicit): "
                                           "served by what they call"},
                                 std::pair{DispatchKey::kCompositeExplicit,
                                           "one kernel for every device (CompositeExplicit)"}}) {
    std::vector<std::string_view> composite;
    for (const OpInfo* op : g.ops) {
      if (has_kernel(kernels, op->name, key)) composite.push_back(op->name);
    }
    if (composite.empty()) continue;
    out << "  composite   ";
    for (size_t i = 0; i < composite.size(); ++i) out << (i ? ", " : "") << composite[i];
    out << ": " << how << "\n";
  }
  out << "  Common      ";
  if (out_op == nullptr) {
    out << "no out= variant: the Common key serves no variant of this group\n";
    return;
  }
  // The variants the Common key serves through out_op: a Common kernel registered for them, in
  // out_op's structured group.
  std::vector<std::string_view> served;
  for (const OpInfo* op : g.ops) {
    if (op != out_op && op->structured_group == out_op->name &&
        has_kernel(kernels, op->name, DispatchKey::kCommon)) {
      served.push_back(op->name);
    }
  }
  if (served.empty()) {
    out << "serves no variant of this group through " << out_op->name
        << " (not a structured group)\n";
    return;
  }
  out << "a backend that registers only " << out_op->name << " also gets ";
  for (size_t i = 0; i < served.size(); ++i) out << (i ? " and " : "") << served[i];
  out << " (the Common key runs the meta function, allocates or checks the output, then calls "
      << out_op->name << ")\n";
}

}  // namespace

void list_schemas(std::ostream& out) {
  out << "# Every op Backplane declares, as \"<schema>  # <variant kind>, conformance entry "
         "<entry>\".\n# backplane-conformance --schema NAME shows an op's variants, the dtypes "
         "checked and what the Common key serves; --ops NAME runs its entry.\n";
  for (const OpInfo& info : op_table()) {
    const OpEntry* e = op_database().entry_for_op(info.name);
    out << info.schema << "  # " << op_kind_name(info.kind) << ", "
        << (e == nullptr ? std::string("no conformance entry") : "conformance entry " + e->name)
        << "\n";
  }
}

void describe_ops(const std::vector<std::string>& names, std::ostream& out) {
  std::vector<const OpInfo*> ops;
  for (const std::string& name : names) {
    std::vector<const OpInfo*> named = ops_named(name);
    if (named.empty()) {
      std::string message = "--schema: '" + name + "' names no declared op or conformance entry";
      const std::vector<std::string> close = close_names(name, every_name());
      for (size_t i = 0; i < close.size(); ++i) message += (i ? ", " : " (close: ") + close[i];
      if (!close.empty()) message += ")";
      throw std::invalid_argument(message + "; --list-ops --schemas lists them");
    }
    ops.insert(ops.end(), named.begin(), named.end());
  }
  const auto kernels = registered_kernels();
  std::set<std::string_view> shown;  // each group once, named by its first op
  bool first = true;
  for (const OpInfo* op : ops) {
    const Group g = group_of(*op);
    if (!shown.insert(g.entry != nullptr ? std::string_view(g.entry->name) : op->name).second) {
      continue;
    }
    if (!first) out << "\n";
    first = false;
    describe(g, kernels, out);
  }
}

}  // namespace bp::conformance
