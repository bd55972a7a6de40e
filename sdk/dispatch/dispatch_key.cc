#include "sdk/dispatch/dispatch_key.h"

#include <array>
#include <charconv>
#include <mutex>

#include "sdk/core/error.h"

namespace bp {
namespace {

struct NamedKey {
  std::string_view name;
  DispatchKey key;
};
constexpr NamedKey kNamedKeys[] = {
    {"Undefined", DispatchKey::kUndefined},
    {"CPU", DispatchKey::kCPU},
    {"CUDA", DispatchKey::kCUDA},
    {"Meta", DispatchKey::kMeta},
    {"Common", DispatchKey::kCommon},
    {"Tracing", DispatchKey::kTracing},
    {"CompositeExplicit", DispatchKey::kCompositeExplicit},
    {"CompositeImplicit", DispatchKey::kCompositeImplicit},
};
static_assert(functionality_bit(DispatchKey::kTracing) == kNumFunctionalityKeys - 1);
static_assert(wrapper_key(kNumWrapperKeys - 1) < DispatchKey::kTracing);

// "<prefix><n>" -> n, for n in [0, limit).
std::optional<uint32_t> numbered(std::string_view name, std::string_view prefix, uint32_t limit) {
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
  std::string_view digits = name.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;  // one spelling per key
  uint32_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size() || n >= limit) return std::nullopt;
  return n;
}

struct WrapperRegistry {
  std::mutex mutex;
  std::array<std::optional<std::string>, kNumWrapperKeys> names;  // slot i: wrapper_key(i)
};

WrapperRegistry& wrappers() {
  static WrapperRegistry* r = new WrapperRegistry();  // never destroyed: plugins unload late
  return *r;
}

bool is_valid_wrapper_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

}  // namespace

std::string dispatch_key_name(DispatchKey k) {
  for (const NamedKey& named : kNamedKeys) {
    if (named.key == k) return std::string(named.name);
  }
  const auto n = static_cast<uint32_t>(k);
  if (is_plugin_key(k)) return "Plugin" + std::to_string(n - kFirstPluginBackendKey);
  if (is_wrapper_key(k)) {
    return "Wrapper" + std::to_string(n - static_cast<uint32_t>(DispatchKey::kCommon) - 1);
  }
  return "Unknown(" + std::to_string(n) + ")";
}

std::optional<DispatchKey> dispatch_key_from_name(std::string_view name) {
  for (const NamedKey& named : kNamedKeys) {
    if (named.name == name) return named.key;
  }
  if (auto n = numbered(name, "Plugin", kMaxPluginBackends)) return plugin_key(*n);
  if (auto n = numbered(name, "Wrapper", kNumWrapperKeys)) return wrapper_key(*n);
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
  if (ks.has(DispatchKey::kCPU) && ks.backend() == DispatchKey::kUndefined) {
    out += first ? "every backend" : ", every backend";
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& out, DispatchKeySet ks) { return out << to_string(ks); }

DispatchKey register_wrapper_key(std::string_view name) {
  BP_CHECK(is_valid_wrapper_name(name), "invalid wrapper key name '", name,
           "': expected letters, digits and '_'");
  WrapperRegistry& r = wrappers();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (int i = 0; i < kNumWrapperKeys; ++i) {
    BP_CHECK(r.names[i] != name, "wrapper key '", name, "' is already registered (dispatch key ",
             wrapper_key(i), ")");
  }
  for (int i = 0; i < kNumWrapperKeys; ++i) {
    if (r.names[i]) continue;
    r.names[i] = std::string(name);
    return wrapper_key(i);
  }
  detail::throw_error(
      ErrorCode::kInvalidArgument,
      detail::str_cat("cannot register wrapper key '", name, "': all ", kNumWrapperKeys,
                      " wrapper keys are in use; unregister one first"));
}

void unregister_wrapper_key(DispatchKey key) {
  WrapperRegistry& r = wrappers();
  std::lock_guard<std::mutex> lock(r.mutex);
  const int i = is_wrapper_key(key) ? functionality_bit(key) - 1 : -1;
  BP_CHECK(i >= 0 && r.names[i].has_value(), "unregister_wrapper_key: ", key,
           " is not a registered wrapper key");
  r.names[i].reset();
}

std::optional<std::string> wrapper_key_name(DispatchKey key) {
  if (!is_wrapper_key(key)) return std::nullopt;
  WrapperRegistry& r = wrappers();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.names[functionality_bit(key) - 1];
}

std::optional<DispatchKey> find_wrapper_key(std::string_view name) {
  WrapperRegistry& r = wrappers();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (int i = 0; i < kNumWrapperKeys; ++i) {
    if (r.names[i] == name) return wrapper_key(i);
  }
  return std::nullopt;
}

void add_global_included_key(DispatchKey k) {
  BP_CHECK(is_functionality_key(k),
           "only functionality keys (Common, wrapper keys, Tracing) can "
           "be included globally, not ",
           k);
  detail::global_included_keys.fetch_or(DispatchKeySet(k).raw(), std::memory_order_relaxed);
}

void remove_global_included_key(DispatchKey k) {
  if (!is_functionality_key(k)) return;
  detail::global_included_keys.fetch_and(~DispatchKeySet(k).raw(), std::memory_order_relaxed);
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys) {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  previous_ = local.included;
  local.included = local.included | keys;
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  detail::tls_local_dispatch_key_set.included = previous_;
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys) {
  LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  previous_ = local.excluded;
  local.excluded = local.excluded | keys;
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  detail::tls_local_dispatch_key_set.excluded = previous_;
}

}  // namespace bp
