#include "sdk/dispatch/dispatcher.h"

#include <algorithm>
#include <sstream>

#include "sdk/core/error.h"
#include "sdk/dispatch/backend_registry.h"

namespace bp {

namespace detail {

void fallthrough_boxed(void*, const OperatorHandle& op, DispatchKeySet, Stack*) {
  BP_INTERNAL_ASSERT(false, "a fallthrough kernel of '", op.name(),
                     "' was called; the dispatcher should have skipped it");
}

DispatchKeySet stack_key_set(const Stack& stack, size_t num_arguments) {
  BP_CHECK(stack.size() >= num_arguments, "expected ", num_arguments,
           " arguments on the stack, found ", stack.size());
  uint64_t tensors = 0;
  uint64_t devices = 0;
  for (size_t i = stack.size() - num_arguments; i < stack.size(); ++i) {
    std::visit([&](const auto& v) { add_argument_keys(tensors, devices, v); }, stack[i].payload());
  }
  return argument_keys(tensors, devices);
}

}  // namespace detail

namespace {

// "Plugin0 ('mydev')" for assigned plugin keys, else the key's name.
std::string key_label(DispatchKey key) {
  std::string label(dispatch_key_name(key));
  if (auto backend = backend_for_key(key)) label += " ('" + backend->name + "')";
  return label;
}

}  // namespace

Dispatcher::Dispatcher() {
  // Wrapper and Common keys are skipped by ops that do not use them.
  for (DispatchKey key : {DispatchKey::kCommon, DispatchKey::kTracing}) {
    fallbacks_[static_cast<int>(key)].push_back(
        {0, KernelFunction::make_fallthrough(), "default fallthrough"});
  }
}

Dispatcher::~Dispatcher() = default;

Dispatcher& Dispatcher::singleton() {
  static Dispatcher* d = new Dispatcher();  // never destroyed: registrations may outlive main
  return *d;
}

std::string Dispatcher::qualified_name(std::string_view name) {
  return name.find("::") == std::string_view::npos ? "bp::" + std::string(name) : std::string(name);
}

std::optional<OperatorHandle> Dispatcher::find_op(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ops_.find(qualified_name(name));
  if (it == ops_.end() || !it->second->defined) return std::nullopt;
  return OperatorHandle(it->second.get());
}

OperatorHandle Dispatcher::find_op_or_throw(std::string_view name) const {
  std::optional<OperatorHandle> op = find_op(name);
  BP_CHECK(op.has_value(), "operator '", qualified_name(name), "' is not defined");
  return *op;
}

RegistrationHandle Dispatcher::register_def(FunctionSchema schema, std::string debug_name) {
  std::string name = qualified_name(schema.operator_name());
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ops_.find(name);
  detail::OperatorEntry* entry = nullptr;
  if (it != ops_.end()) {
    BP_CHECK(!it->second->defined, "operator '", name, "' is already defined");
    // Kernels outlived the previous def; a new def must agree with them.
    BP_CHECK(it->second->schema == schema, "operator '", name,
             "' is being redefined with a different schema while kernels of the old definition "
             "are still registered: ",
             to_string(schema), " vs ", to_string(it->second->schema));
    entry = it->second.get();
    entry->defined = true;
  } else {
    auto created = std::make_unique<detail::OperatorEntry>(this, name, std::move(schema));
    entry = created.get();
    ops_.emplace(name, std::move(created));
    recompute_locked(*entry);
  }
  (void)debug_name;  // defs are not listed per key; kept for symmetry with impl/fallback
  return RegistrationHandle([this, entry] { unregister_def(entry); });
}

RegistrationHandle Dispatcher::register_impl(std::string_view op_name, DispatchKey key,
                                             KernelFunction kernel, std::string debug_name) {
  BP_CHECK(key != DispatchKey::kUndefined, "cannot register a kernel for the Undefined key");
  BP_CHECK(kernel.valid(), "cannot register an empty KernelFunction for '", op_name, "'");
  std::string name = qualified_name(op_name);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ops_.find(name);
  BP_CHECK(it != ops_.end() && it->second->defined, "cannot register a ", key,
           " kernel for operator '", name, "': it is not defined (def it first)");
  detail::OperatorEntry* entry = it->second.get();
  BP_CHECK(!kernel.has_unboxed() || entry->schema.is_vararg ||
               kernel.unboxed_arity() == static_cast<int>(entry->num_arguments),
           "the ", key, " kernel for '", name, "' takes ", kernel.unboxed_arity(),
           " arguments (after DispatchKeySet) but the schema has ", entry->num_arguments, ": ",
           to_string(entry->schema));
  uint64_t id = next_id_++;
  entry->kernels[static_cast<int>(key)].push_front({id, kernel, std::move(debug_name)});
  recompute_locked(*entry);
  return RegistrationHandle([this, entry, key, id] { unregister_impl(entry, key, id); });
}

RegistrationHandle Dispatcher::register_fallback(DispatchKey key, KernelFunction kernel,
                                                 std::string debug_name) {
  BP_CHECK(key != DispatchKey::kUndefined && !is_alias_key(key),
           "cannot register a fallback for the ", key, " key");
  BP_CHECK(kernel.valid(), "cannot register an empty KernelFunction as the ", key, " fallback");
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t id = next_id_++;
  fallbacks_[static_cast<int>(key)].push_front({id, kernel, std::move(debug_name)});
  for (auto& [name, entry] : ops_) recompute_locked(*entry);
  return RegistrationHandle([this, key, id] { unregister_fallback(key, id); });
}

void Dispatcher::unregister_def(detail::OperatorEntry* entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  entry->defined = false;
  maybe_erase_locked(entry);
}

void Dispatcher::unregister_impl(detail::OperatorEntry* entry, DispatchKey key, uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  entry->kernels[static_cast<int>(key)].remove_if([id](const auto& r) { return r.id == id; });
  recompute_locked(*entry);
  maybe_erase_locked(entry);
}

void Dispatcher::unregister_fallback(DispatchKey key, uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  fallbacks_[static_cast<int>(key)].remove_if([id](const auto& r) { return r.id == id; });
  for (auto& [name, entry] : ops_) recompute_locked(*entry);
}

void Dispatcher::maybe_erase_locked(detail::OperatorEntry* entry) {
  if (entry->defined) return;
  for (const auto& list : entry->kernels) {
    if (!list.empty()) return;
  }
  ops_.erase(entry->name);
}

const detail::KernelRegistration* Dispatcher::serving_locked(const detail::OperatorEntry& entry,
                                                             DispatchKey key,
                                                             std::string_view* why) const {
  auto pick = [&](const std::list<detail::KernelRegistration>& list, std::string_view reason) {
    if (list.empty()) return false;
    if (why != nullptr) *why = list.front().kernel.is_fallthrough() ? "fallthrough" : reason;
    return true;
  };
  const int k = static_cast<int>(key);
  if (pick(entry.kernels[k], "kernel")) return &entry.kernels[k].front();
  if (is_backend_key(key)) {
    for (DispatchKey alias : {DispatchKey::kCompositeExplicit, DispatchKey::kCompositeImplicit}) {
      const auto& list = entry.kernels[static_cast<int>(alias)];
      if (pick(list, alias == DispatchKey::kCompositeExplicit ? "CompositeExplicit kernel"
                                                              : "CompositeImplicit kernel")) {
        return &list.front();
      }
    }
  }
  if (!fallbacks_[k].empty()) {
    if (why != nullptr) {
      *why = fallbacks_[k].front().kernel.is_fallthrough() ? "fallthrough backend fallback"
                                                           : "backend fallback";
    }
    return &fallbacks_[k].front();
  }
  if (why != nullptr) *why = "missing";
  return nullptr;
}

void Dispatcher::recompute_locked(detail::OperatorEntry& entry) {
  auto table = std::make_unique<detail::DispatchTable>();
  for (int k = 1; k < kNumDispatchKeys; ++k) {
    const auto key = static_cast<DispatchKey>(k);
    if (!entry.kernels[k].empty()) table->own_kernels = table->own_kernels.add(key);
    const detail::KernelRegistration* chosen = serving_locked(entry, key, nullptr);
    if (chosen == nullptr) continue;
    table->kernels[k] = chosen->kernel;
    if (chosen->kernel.is_fallthrough()) table->fallthrough = table->fallthrough.add(key);
  }
  entry.table.store(table.get(), std::memory_order_release);
  // Calls may still be reading older tables: they stay alive as long as the entry.
  entry.tables.push_back(std::move(table));
}

std::string Dispatcher::missing_kernel_message(const detail::OperatorEntry& entry,
                                               DispatchKey key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string available;
  for (int k = 1; k < kNumRegistrationKeys; ++k) {
    if (entry.kernels[k].empty()) continue;
    if (!available.empty()) available += ", ";
    available += dispatch_key_name(static_cast<DispatchKey>(k));
  }
  return detail::str_cat(
      "Could not run '", entry.name, "' with arguments from the '", dispatch_key_name(key),
      "' backend",
      is_plugin_key(key) && backend_for_key(key) ? " ('" + backend_for_key(key)->name + "')"
                                                 : std::string(),
      ". '", entry.name, "' is only available for these backends: [", available, "].");
}

void OperatorHandle::report_missing_kernel(DispatchKey key) const {
  detail::throw_error(ErrorCode::kNotImplemented,
                      entry_->dispatcher->missing_kernel_message(*entry_, key));
}

std::string Dispatcher::dump_dispatch_table(std::string_view op_name) const {
  std::string name = qualified_name(op_name);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ops_.find(name);
  BP_CHECK(it != ops_.end(), "operator '", name, "' is not defined");
  const detail::OperatorEntry& entry = *it->second;
  std::ostringstream out;
  out << to_string(entry.schema) << "\n";
  for (DispatchKey key : DispatchKeySet::all()) {
    std::string_view why;
    const detail::KernelRegistration* reg = serving_locked(entry, key, &why);
    if (reg == nullptr && is_plugin_key(key) && !backend_for_key(key)) {
      continue;  // an unassigned plugin key: nothing to say
    }
    out << key_label(key) << ": " << why;
    if (reg != nullptr) out << " [" << reg->debug_name << "]";
    out << "\n";
  }
  return out.str();
}

std::string Dispatcher::dump_dispatch_table(const OperatorHandle& op) const {
  return dump_dispatch_table(op.name());
}

std::vector<OpSummary> Dispatcher::list_ops() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OpSummary> out;
  for (const auto& [name, entry] : ops_) {
    OpSummary s{name, DispatchKeySet()};
    for (int k = 1; k < kNumRegistrationKeys; ++k) {
      if (!entry->kernels[k].empty()) s.kernels = s.kernels.add(static_cast<DispatchKey>(k));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace bp
