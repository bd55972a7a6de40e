#include "sdk/dispatch/dispatcher.h"

#include <algorithm>
#include <bit>
#include <sstream>

#include "sdk/core/error.h"
#include "sdk/dispatch/backend_registry.h"

namespace bp {

namespace detail {

void fallthrough_boxed(void*, const OperatorHandle& op, DispatchKeySet, Stack*) {
  BP_INTERNAL_ASSERT(false, "a fallthrough kernel of '", op.name(),
                     "' was called; the dispatcher should have skipped it");
}

// Stands in the table for a fallthrough registered under a backend key: nothing runs below a
// backend, so the call has no kernel.
void missing_kernel_boxed(void*, const OperatorHandle& op, DispatchKeySet keys, Stack*) {
  op.report_missing_kernel(keys.backend() != DispatchKey::kUndefined ? keys.backend()
                                                                     : keys.highest_priority_key());
}

DispatchKeySet stack_key_set(const Stack& stack, size_t num_arguments) {
  BP_CHECK(stack.size() >= num_arguments, "expected ", num_arguments,
           " arguments on the stack, found ", stack.size());
  DispatchKeySet tensors;
  DispatchKeySet devices;
  for (size_t i = stack.size() - num_arguments; i < stack.size(); ++i) {
    std::visit([&](const auto& v) { add_argument_keys(tensors, devices, v); }, stack[i].payload());
  }
  return argument_keys(tensors, devices);
}

}  // namespace detail

namespace {

constexpr uint64_t kFunctionalityBits = (uint64_t{1} << kNumFunctionalityKeys) - 1;

const std::list<detail::KernelRegistration>* find_list(const detail::RegistrationLists& lists,
                                                       DispatchKey key) {
  auto it = lists.find(key);
  return it == lists.end() || it->second.empty() ? nullptr : &it->second;
}

void remove_registration(detail::RegistrationLists& lists, DispatchKey key, uint64_t id) {
  auto it = lists.find(key);
  if (it == lists.end()) return;
  it->second.remove_if([id](const auto& r) { return r.id == id; });
  if (it->second.empty()) lists.erase(it);
}

}  // namespace

Dispatcher::Dispatcher() {
  // Wrapper and Common keys are skipped by ops that do not use them.
  for (DispatchKey key : {DispatchKey::kCommon, DispatchKey::kTracing}) {
    fallbacks_[key].push_back({0, KernelFunction::make_fallthrough(), "default fallthrough"});
  }
  publish_backend_fallbacks_locked();
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
    auto created =
        std::make_unique<detail::OperatorEntry>(this, &backend_fallbacks_, name, std::move(schema));
    entry = created.get();
    ops_.emplace(name, std::move(created));
    recompute_locked(*entry);
  }
  (void)debug_name;  // defs are not listed per key; kept for symmetry with impl/fallback
  return RegistrationHandle([this, entry] { unregister_def(entry); });
}

RegistrationHandle Dispatcher::register_impl(std::string_view op_name, DispatchKey key,
                                             KernelFunction kernel, std::string debug_name) {
  BP_CHECK(is_runtime_key(key) || is_alias_key(key), "cannot register a kernel for the ", key,
           " key");
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
  entry->kernels[key].push_front({id, kernel, std::move(debug_name)});
  recompute_locked(*entry);
  return RegistrationHandle([this, entry, key, id] { unregister_impl(entry, key, id); });
}

RegistrationHandle Dispatcher::register_fallback(DispatchKey key, KernelFunction kernel,
                                                 std::string debug_name) {
  BP_CHECK(is_runtime_key(key), "cannot register a fallback for the ", key, " key");
  BP_CHECK(kernel.valid(), "cannot register an empty KernelFunction as the ", key, " fallback");
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t id = next_id_++;
  fallbacks_[key].push_front({id, kernel, std::move(debug_name)});
  fallbacks_changed_locked(key);
  return RegistrationHandle([this, key, id] { unregister_fallback(key, id); });
}

void Dispatcher::unregister_def(detail::OperatorEntry* entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  entry->defined = false;
  maybe_erase_locked(entry);
}

void Dispatcher::unregister_impl(detail::OperatorEntry* entry, DispatchKey key, uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  remove_registration(entry->kernels, key, id);
  recompute_locked(*entry);
  maybe_erase_locked(entry);
}

void Dispatcher::unregister_fallback(DispatchKey key, uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  remove_registration(fallbacks_, key, id);
  fallbacks_changed_locked(key);
}

void Dispatcher::fallbacks_changed_locked(DispatchKey key) {
  // Backend fallbacks live in one shared table; functionality fallbacks are in every op's.
  if (is_backend_key(key)) {
    publish_backend_fallbacks_locked();
  } else {
    for (auto& [name, entry] : ops_) recompute_locked(*entry);
  }
}

void Dispatcher::publish_backend_fallbacks_locked() {
  auto table = std::make_unique<detail::BackendFallbackTable>();
  for (const auto& [key, list] : fallbacks_) {
    if (!is_backend_key(key) || list.empty() || list.front().kernel.is_fallthrough()) continue;
    const auto b = static_cast<uint32_t>(key);
    if (table->kernels.size() <= b) table->kernels.resize(b + 1);
    table->kernels[b] = list.front().kernel;
  }
  backend_fallbacks_.store(table.get(), std::memory_order_release);
  // Calls may still be reading older tables: they stay alive as long as the dispatcher.
  backend_fallback_tables_.push_back(std::move(table));
}

void Dispatcher::maybe_erase_locked(detail::OperatorEntry* entry) {
  if (entry->defined || !entry->kernels.empty()) return;
  ops_.erase(entry->name);
}

Dispatcher::Serving Dispatcher::serving_locked(const detail::OperatorEntry& entry,
                                               DispatchKey key) const {
  if (const auto* own = find_list(entry.kernels, key)) {
    const auto& reg = own->front();
    return {&reg, reg.kernel.is_fallthrough() ? ServingReason::kFallthrough : ServingReason::kOwn};
  }
  if (is_backend_key(key)) {
    for (DispatchKey alias : {DispatchKey::kCompositeExplicit, DispatchKey::kCompositeImplicit}) {
      if (const auto* list = find_list(entry.kernels, alias)) {
        return {&list->front(), alias == DispatchKey::kCompositeExplicit
                                    ? ServingReason::kCompositeExplicit
                                    : ServingReason::kCompositeImplicit};
      }
    }
  }
  if (const auto* fallback = find_list(fallbacks_, key)) {
    const auto& reg = fallback->front();
    return {&reg, reg.kernel.is_fallthrough() ? ServingReason::kFallthroughFallback
                                              : ServingReason::kFallback};
  }
  return {nullptr, is_functionality_key(key) ? ServingReason::kSkipped : ServingReason::kMissing};
}

void Dispatcher::recompute_locked(detail::OperatorEntry& entry) {
  auto table = std::make_unique<detail::DispatchTable>();
  const KernelFunction missing = KernelFunction::make_from_boxed(&detail::missing_kernel_boxed);
  // Functionality keys: the op's own kernel, else the key's fallback, else skipped.
  std::array<KernelFunction, kNumFunctionalityKeys> functionality;
  uint64_t served = 0;
  auto consider = [&](DispatchKey key, const detail::KernelRegistration& reg) {
    const int bit = functionality_bit(key);
    functionality[bit] = reg.kernel;
    if (reg.kernel.is_fallthrough()) {
      served &= ~(uint64_t{1} << bit);
    } else {
      served |= uint64_t{1} << bit;
    }
  };
  for (const auto& [key, list] : fallbacks_) {
    if (is_functionality_key(key) && !list.empty()) consider(key, list.front());
  }
  for (const auto& [key, list] : entry.kernels) {
    if (list.empty()) continue;
    if (is_functionality_key(key)) {
      consider(key, list.front());
      table->own_functionality = table->own_functionality.add(key);
    } else if (is_backend_key(key)) {
      const auto b = static_cast<uint32_t>(key);
      if (table->backends.size() <= b) table->backends.resize(b + 1);
      table->backends[b] = list.front().kernel.is_fallthrough() ? missing : list.front().kernel;
    }
  }
  table->fallthrough = DispatchKeySet::from_raw(kFunctionalityBits & ~served);
  table->functionality.assign(functionality.begin(),
                              functionality.begin() + (64 - std::countl_zero(served)));
  for (DispatchKey alias : {DispatchKey::kCompositeExplicit, DispatchKey::kCompositeImplicit}) {
    if (const auto* list = find_list(entry.kernels, alias)) {
      table->composite = list->front().kernel.is_fallthrough() ? missing : list->front().kernel;
      break;
    }
  }
  entry.table.store(table.get(), std::memory_order_release);
  // Calls may still be reading older tables: they stay alive as long as the entry.
  entry.tables.push_back(std::move(table));
}

std::string Dispatcher::missing_kernel_message(const detail::OperatorEntry& entry,
                                               DispatchKey key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string available;
  for (const auto& [k, list] : entry.kernels) {
    if (list.empty()) continue;
    if (!available.empty()) available += ", ";
    available += dispatch_key_name(k);
  }
  const std::optional<Backend> backend = backend_for_key(key);
  return detail::str_cat("Could not run '", entry.name, "' with arguments from the '",
                         dispatch_key_name(key), "' backend",
                         backend ? " ('" + backend->name + "')" : std::string(), ". '", entry.name,
                         "' is only available for these backends: [", available, "].");
}

void OperatorHandle::report_missing_kernel(DispatchKey key) const {
  detail::throw_error(ErrorCode::kNotImplemented,
                      entry_->dispatcher->missing_kernel_message(*entry_, key));
}

std::vector<OpSummary> Dispatcher::list_ops() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OpSummary> out;
  for (const auto& [name, entry] : ops_) {
    OpSummary s{name, {}};
    for (const auto& [key, list] : entry->kernels) {
      if (!list.empty()) s.kernels.push_back(key);
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool OpSummary::has_kernel(DispatchKey key) const {
  return std::find(kernels.begin(), kernels.end(), key) != kernels.end();
}

}  // namespace bp
