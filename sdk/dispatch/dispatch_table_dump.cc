// Dispatcher::dispatch_table and dump_dispatch_table: which kernel serves each key of an op, and
// why (dispatcher.h).
#include <algorithm>
#include <set>
#include <sstream>

#include "sdk/core/error.h"
#include "sdk/dispatch/backend_registry.h"
#include "sdk/dispatch/dispatcher.h"

namespace bp {
namespace {

// Whether tensors whose backend key is `key` also carry Common (CUDA and plugin backends, unless
// they skip it).
bool carries_common(DispatchKey key) {
  if (key == DispatchKey::kCUDA)
    return device_type_key_set(DeviceType::kCUDA).has(DispatchKey::kCommon);
  if (!is_plugin_key(key)) return false;
  const std::optional<Backend> backend = backend_for_key(key);
  return backend && device_type_key_set(backend->device_type).has(DispatchKey::kCommon);
}

}  // namespace

std::string key_label(DispatchKey key) {
  std::string label = dispatch_key_name(key);
  if (auto backend = backend_for_key(key)) label += " ('" + backend->name + "')";
  if (auto wrapper = wrapper_key_name(key)) label += " ('" + *wrapper + "')";
  return label;
}

std::string_view serving_reason_text(ServingReason reason) {
  switch (reason) {
    case ServingReason::kOwn:
      return "kernel";
    case ServingReason::kCompositeExplicit:
      return "CompositeExplicit kernel";
    case ServingReason::kCompositeImplicit:
      return "CompositeImplicit kernel";
    case ServingReason::kFallback:
      return "backend fallback";
    case ServingReason::kFallthrough:
      return "fallthrough";
    case ServingReason::kFallthroughFallback:
      return "fallthrough backend fallback";
    case ServingReason::kSkipped:
      return "fallthrough (nothing registered)";
    case ServingReason::kMissing:
      return "missing";
  }
  return "unknown";
}

std::vector<DispatchTableRow> Dispatcher::dispatch_table(std::string_view op_name) const {
  const std::string name = qualified_name(op_name);
  // The keys worth a row, highest priority first (std::greater: the number is the priority).
  std::set<DispatchKey, std::greater<>> keys = {DispatchKey::kTracing, DispatchKey::kCommon,
                                                DispatchKey::kMeta, DispatchKey::kCUDA,
                                                DispatchKey::kCPU};
  for (const Backend& b : list_backends()) keys.insert(b.key);
  for (int i = 0; i < kNumWrapperKeys; ++i) {
    if (wrapper_key_name(wrapper_key(i))) keys.insert(wrapper_key(i));
  }
  std::vector<DispatchTableRow> rows;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ops_.find(name);
  BP_CHECK(it != ops_.end(), "operator '", name, "' is not defined");
  const detail::OperatorEntry& entry = *it->second;
  for (const auto& [key, list] : entry.kernels) {
    if (is_runtime_key(key)) keys.insert(key);
  }
  for (const auto& [key, list] : fallbacks_) keys.insert(key);
  const Serving common = serving_locked(entry, DispatchKey::kCommon);
  for (DispatchKey key : keys) {
    const Serving s = serving_locked(entry, key);
    DispatchTableRow row{key, key_label(key), s.reason,
                         s.registration != nullptr ? s.registration->debug_name : "", false};
    row.via_common =
        is_backend_key(key) && common.reason == ServingReason::kOwn && carries_common(key);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Dispatcher::dump_dispatch_table(std::string_view op_name) const {
  const std::vector<DispatchTableRow> rows = dispatch_table(op_name);
  std::ostringstream out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ops_.find(qualified_name(op_name));
    if (it != ops_.end()) out << to_string(it->second->schema) << "\n";
  }
  for (const DispatchTableRow& row : rows) {
    out << row.key_label << ": " << serving_reason_text(row.reason);
    if (!row.source.empty()) out << " [" << row.source << "]";
    if (row.via_common) out << " (after Common's generated variant)";
    out << "\n";
  }
  return out.str();
}

std::string Dispatcher::dump_dispatch_table(const OperatorHandle& op) const {
  return dump_dispatch_table(op.name());
}

}  // namespace bp
