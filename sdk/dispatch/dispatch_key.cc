#include "sdk/dispatch/dispatch_key.h"

#include <array>

namespace bp {
namespace {

constexpr std::array<std::string_view, kNumRegistrationKeys> kKeyNames = {
    "Undefined", "CPU",      "CUDA",     "Meta",     "Plugin0",           "Plugin1",
    "Plugin2",   "Plugin3",  "Plugin4",  "Plugin5",  "Plugin6",           "Plugin7",
    "Plugin8",   "Plugin9",  "Plugin10", "Plugin11", "Plugin12",          "Plugin13",
    "Plugin14",  "Plugin15", "Common",   "Tracing",  "CompositeExplicit", "CompositeImplicit",
};
static_assert(static_cast<int>(DispatchKey::kPlugin15) - static_cast<int>(DispatchKey::kPlugin0) +
                  1 ==
              kNumPluginKeys);
static_assert(static_cast<int>(DispatchKey::kTracing) + 1 == kNumDispatchKeys);
static_assert(static_cast<int>(DispatchKey::kCompositeImplicit) + 1 == kNumRegistrationKeys);

}  // namespace

std::string_view dispatch_key_name(DispatchKey k) {
  int i = static_cast<int>(k);
  return i < kNumRegistrationKeys ? kKeyNames[i] : std::string_view("Unknown");
}

std::optional<DispatchKey> dispatch_key_from_name(std::string_view name) {
  for (int i = 0; i < kNumRegistrationKeys; ++i) {
    if (kKeyNames[i] == name) return static_cast<DispatchKey>(i);
  }
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, DispatchKey k) { return out << dispatch_key_name(k); }

std::string to_string(DispatchKeySet ks) {
  std::string out = "DispatchKeySet(";
  bool first = true;
  for (DispatchKey k : ks) {
    if (!first) out += ", ";
    first = false;
    out += dispatch_key_name(k);
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& out, DispatchKeySet ks) { return out << to_string(ks); }

void add_global_included_key(DispatchKey k) {
  detail::global_included_keys.fetch_or(DispatchKeySet(k).raw(), std::memory_order_relaxed);
}

void remove_global_included_key(DispatchKey k) {
  detail::global_included_keys.fetch_and(~DispatchKeySet(k).raw(), std::memory_order_relaxed);
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys) {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  added_ = keys - local.included;
  local.included = local.included | added_;
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  local.included = local.included - added_;
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys) {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  added_ = keys - local.excluded;
  local.excluded = local.excluded | added_;
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  local.excluded = local.excluded - added_;
}

}  // namespace bp
