// Dispatch keys, key sets, and the thread-local / process-wide key adjustments of a call.
//
//   DispatchKeySet ks = DispatchKeySet(plugin_key(0)).add(DispatchKey::kCommon);
//   ks.highest_priority_key();          // DispatchKey::kCommon
//   for (DispatchKey k : ks) ...        // kCommon, then Plugin0
//   {
//     ExcludeDispatchKeyGuard no_tracing(DispatchKey::kTracing);
//     ...                               // calls on this thread skip Tracing
//   }
//
// Two kinds of runtime key (the split PyTorch's key sets make between functionality bits and
// backend bits, without a fixed number of backends):
//   functionality keys  Common, the wrapper keys and Tracing: one bit each in a key set, so a
//                       call can carry several; a fixed number (kNumFunctionalityKeys).
//   backend keys        CPU, CUDA, Meta and the plugin backends: one per device kind; plugin
//                       backend keys are numbers handed out at run time (backend_registry.h)
//                       and recycled when a backend unregisters, with no pool of names.
// A call runs on one backend, so a key set holds one backend key: the highest-priority backend
// among those added (a tensor on a plugin device beats a CPU scalar tensor, as before). A
// key's number is its priority: when a call's key set holds several keys, the highest number
// runs first (as in PyTorch). The order, highest first:
//   Tracing   a wrapper key: records the call, then redispatches below itself;
//   Wrapper45..Wrapper0  wrapper keys registered at run time by name (profilers, autocast-like
//             casts: register_wrapper_key below), each redispatching below itself;
//   Common    shared meta + output allocation for plugin backends, forwarding to the plugin's
//             out= kernel (a fallthrough for ops without a Common kernel);
//   backends  plugin backends (newest numbers highest), Meta, CUDA, CPU.
// Wrapper keys rank above Common so that they see the call a user made, not the calls Common
// makes on the user's behalf; Tracing ranks above the other wrappers so a trace shows the calls
// the user made.
// Design notes: docs/design/dispatch_keys.md.
//
// Thread safety: DispatchKeySet is a value. The local include/exclude sets are per thread; the
// global included set is an atomic. register_wrapper_key / unregister_wrapper_key take a mutex.
#ifndef BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_
#define BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace bp {

// Number layout: backend keys 1..kMaxBackendKey; functionality keys kFirstFunctionalityKey +
// bit; alias keys from 0x20000. Only the named enumerators below are fixed; plugin backend keys
// (plugin_key) and wrapper keys (wrapper_key) are numbers in their ranges.
enum class DispatchKey : uint32_t {
  kUndefined = 0,
  kCPU = 1,
  kCUDA = 2,
  kMeta = 3,
  // Plugin backend keys: 4 and up (plugin_key(i)), handed out at run time.
  kCommon = 0x10000,
  // Wrapper keys: 0x10001 .. 0x1002E (wrapper_key(i)), registered at run time by name.
  kTracing = 0x1002F,
  // Alias keys: kernels are registered under them but calls never carry them. A kernel for an
  // alias key serves every backend key (CPU, CUDA, Meta, plugins) that has no kernel of its own
  // for the op; Explicit wins over Implicit (PyTorch's CompositeExplicitAutograd and
  // CompositeImplicitAutograd). Explicit: one implementation that works on every device (views,
  // factories through the device's allocator). Implicit: an op written in terms of other ops.
  kCompositeExplicit = 0x20000,
  kCompositeImplicit = 0x20001,
};

// A key set's bits: the low kNumFunctionalityKeys bits are functionality keys (bit i = key
// kFirstFunctionalityKey + i), the high kBackendBits bits the set's one backend key.
inline constexpr int kNumFunctionalityKeys = 48;
inline constexpr int kBackendBits = 64 - kNumFunctionalityKeys;
inline constexpr uint32_t kFirstFunctionalityKey = 0x10000;
inline constexpr uint32_t kFirstPluginBackendKey = 4;
// The largest backend key number; 0xFFFF in a set's backend bits means "every backend".
inline constexpr uint32_t kMaxBackendKey = (uint32_t{1} << kBackendBits) - 2;
// Plugin backends that can be registered at once (numbers are recycled on unregistration).
inline constexpr int kMaxPluginBackends =
    static_cast<int>(kMaxBackendKey - kFirstPluginBackendKey + 1);
inline constexpr int kNumWrapperKeys = kNumFunctionalityKeys - 2;  // between Common and Tracing

// Plugin backend key number `i` (0 <= i < kMaxPluginBackends): "Plugin<i>".
constexpr DispatchKey plugin_key(int i) {
  return static_cast<DispatchKey>(kFirstPluginBackendKey + static_cast<uint32_t>(i));
}
// Wrapper key number `i` (0 <= i < kNumWrapperKeys): "Wrapper<i>".
constexpr DispatchKey wrapper_key(int i) {
  return static_cast<DispatchKey>(static_cast<uint32_t>(DispatchKey::kCommon) + 1 +
                                  static_cast<uint32_t>(i));
}
// A key that selects a device's kernels (CPU, CUDA, Meta, a plugin key).
constexpr bool is_backend_key(DispatchKey k) {
  return static_cast<uint32_t>(k) >= 1 && static_cast<uint32_t>(k) <= kMaxBackendKey;
}
constexpr bool is_plugin_key(DispatchKey k) {
  return static_cast<uint32_t>(k) >= kFirstPluginBackendKey &&
         static_cast<uint32_t>(k) <= kMaxBackendKey;
}
// Common, a wrapper key, or Tracing.
constexpr bool is_functionality_key(DispatchKey k) {
  return static_cast<uint32_t>(k) >= kFirstFunctionalityKey &&
         static_cast<uint32_t>(k) < kFirstFunctionalityKey + kNumFunctionalityKeys;
}
constexpr bool is_wrapper_key(DispatchKey k) {
  return k > DispatchKey::kCommon && k < DispatchKey::kTracing;
}
constexpr bool is_alias_key(DispatchKey k) {
  return k == DispatchKey::kCompositeExplicit || k == DispatchKey::kCompositeImplicit;
}
// A key a call can carry (a backend or functionality key).
constexpr bool is_runtime_key(DispatchKey k) {
  return is_backend_key(k) || is_functionality_key(k);
}
// The bit of a functionality key in a key set.
constexpr int functionality_bit(DispatchKey k) {
  return static_cast<int>(static_cast<uint32_t>(k) - kFirstFunctionalityKey);
}

// "CPU", "Plugin3", "Wrapper0", "Tracing", "CompositeExplicit"; "Unknown(123)" for a number in
// no range.
std::string dispatch_key_name(DispatchKey k);
// The key with this name ("Plugin70" parses for any number in range), or nullopt.
std::optional<DispatchKey> dispatch_key_from_name(std::string_view name);
std::ostream& operator<<(std::ostream& out, DispatchKey k);

// A set of runtime keys: any functionality keys plus at most one backend key (the
// highest-priority one added). Iterates highest priority first. Alias keys are never members.
class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(DispatchKey k) : bits_(bits_of(k)) {}
  static constexpr DispatchKeySet from_raw(uint64_t bits) {
    DispatchKeySet s;
    s.bits_ = bits;
    return s;
  }
  // Every key of lower priority than the functionality key `k` (the keys a redispatch from `k`
  // may reach): the functionality keys below it and every backend. For a backend key: the
  // empty set (a call carries one backend; nothing runs below it).
  static constexpr DispatchKeySet below(DispatchKey k) {
    if (!is_functionality_key(k)) return DispatchKeySet();
    return from_raw(((uint64_t{1} << functionality_bit(k)) - 1) | kBackendMask);
  }
  // Every functionality key and every backend.
  static constexpr DispatchKeySet all() { return from_raw(~uint64_t{0}); }

  constexpr uint64_t raw() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  // The set's backend key (kUndefined when it has none or stands for every backend).
  constexpr DispatchKey backend() const {
    const uint64_t b = bits_ >> kNumFunctionalityKeys;
    return b == kAllBackends ? DispatchKey::kUndefined : static_cast<DispatchKey>(b);
  }
  constexpr bool has(DispatchKey k) const {
    if (is_functionality_key(k)) return (bits_ >> functionality_bit(k)) & 1;
    if (!is_backend_key(k)) return false;
    const uint64_t b = bits_ >> kNumFunctionalityKeys;
    return b == static_cast<uint32_t>(k) || b == kAllBackends;
  }
  constexpr DispatchKeySet add(DispatchKey k) const { return *this | DispatchKeySet(k); }
  constexpr DispatchKeySet remove(DispatchKey k) const {
    if (!has(k)) return *this;
    return *this - DispatchKeySet(k);
  }

  // Union: every functionality key of either, and the higher-priority backend.
  constexpr DispatchKeySet operator|(DispatchKeySet o) const {
    return from_raw(((bits_ | o.bits_) & kFunctionalityMask) |
                    std::max(bits_ & kBackendMask, o.bits_ & kBackendMask));
  }
  // Intersection: the common functionality keys; the backend when both have it.
  constexpr DispatchKeySet operator&(DispatchKeySet o) const {
    const uint64_t a = bits_ & kBackendMask, b = o.bits_ & kBackendMask;
    const uint64_t backend = (a == b || std::max(a, b) == kBackendMask) ? std::min(a, b) : 0;
    return from_raw((bits_ & o.bits_ & kFunctionalityMask) | backend);
  }
  // Difference: the functionality keys not in `o`; the backend unless `o` has it.
  constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    const uint64_t a = bits_ & kBackendMask, b = o.bits_ & kBackendMask;
    const uint64_t backend = (b == a || b == kBackendMask) ? 0 : a;
    return from_raw((bits_ & ~o.bits_ & kFunctionalityMask) | backend);
  }
  constexpr bool operator==(const DispatchKeySet&) const = default;

  // The key that runs first, or kUndefined for an empty set.
  constexpr DispatchKey highest_priority_key() const {
    const uint64_t f = bits_ & kFunctionalityMask;
    if (f != 0) return static_cast<DispatchKey>(kFirstFunctionalityKey + 63 - std::countl_zero(f));
    return backend();
  }

  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using pointer = const DispatchKey*;
    using reference = DispatchKey;

    constexpr Iterator() = default;
    constexpr explicit Iterator(uint64_t bits) : bits_(bits) {}
    constexpr DispatchKey operator*() const {
      return DispatchKeySet::from_raw(bits_).highest_priority_key();
    }
    constexpr Iterator& operator++() {
      const DispatchKeySet s = DispatchKeySet::from_raw(bits_);
      bits_ = (s - DispatchKeySet(s.highest_priority_key())).raw();
      // "Every backend" has no key to yield: the walk ends after the functionality keys.
      if ((bits_ & kFunctionalityMask) == 0 &&
          DispatchKeySet::from_raw(bits_).backend() == DispatchKey::kUndefined) {
        bits_ = 0;
      }
      return *this;
    }
    constexpr Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    constexpr bool operator==(const Iterator&) const = default;

   private:
    uint64_t bits_ = 0;
  };
  constexpr Iterator begin() const {
    return Iterator(highest_priority_key() == DispatchKey::kUndefined ? 0 : bits_);
  }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  static constexpr uint64_t kFunctionalityMask = (uint64_t{1} << kNumFunctionalityKeys) - 1;
  static constexpr uint64_t kBackendMask = ~kFunctionalityMask;
  static constexpr uint64_t kAllBackends = kBackendMask >> kNumFunctionalityKeys;

  static constexpr uint64_t bits_of(DispatchKey k) {
    if (is_functionality_key(k)) return uint64_t{1} << functionality_bit(k);
    if (is_backend_key(k)) return uint64_t{static_cast<uint32_t>(k)} << kNumFunctionalityKeys;
    return 0;  // Undefined and alias keys
  }

  uint64_t bits_ = 0;
};

// "DispatchKeySet(Tracing, Common, Plugin0)".
std::string to_string(DispatchKeySet ks);
std::ostream& operator<<(std::ostream& out, DispatchKeySet ks);

// ---- Wrapper keys registered at run time ----------------------------------------------------

// Hands out a free wrapper key for `name` ([A-Za-z0-9_]+, e.g. "npu_profiler"). Throws
// Error(kInvalidArgument) for a bad or already registered name, and when all kNumWrapperKeys
// wrapper keys are taken. The key ranks above Common and below Tracing.
DispatchKey register_wrapper_key(std::string_view name);
// Frees a wrapper key for reuse (after its kernels and fallback are unregistered; the caller
// also stops including it). Throws when `key` is not a registered wrapper key.
void unregister_wrapper_key(DispatchKey key);
// The name a wrapper key was registered under, or nullopt.
std::optional<std::string> wrapper_key_name(DispatchKey key);
// The wrapper key registered under `name`, or nullopt.
std::optional<DispatchKey> find_wrapper_key(std::string_view name);

// ---- Keys added to and removed from every call ---------------------------------------------

// Per-thread adjustments (PyTorch's impl::LocalDispatchKeySet).
struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};

namespace detail {
// Inline with constant initialisation so reading it is a plain TLS load (no init wrapper).
inline thread_local constinit LocalDispatchKeySet tls_local_dispatch_key_set{};
inline constinit std::atomic<uint64_t> global_included_keys{0};
}  // namespace detail

inline LocalDispatchKeySet local_dispatch_key_set() { return detail::tls_local_dispatch_key_set; }

// Keys added to every call of every thread (e.g. Tracing while tracing is on). Only
// functionality keys can be added globally.
inline DispatchKeySet global_included_keys() {
  return DispatchKeySet::from_raw(detail::global_included_keys.load(std::memory_order_relaxed));
}
void add_global_included_key(DispatchKey k);
void remove_global_included_key(DispatchKey k);

// The keys a call with these tensor keys runs through: (tensor keys + thread-local included +
// global included) - thread-local excluded.
inline DispatchKeySet call_key_set(DispatchKeySet tensor_keys) {
  const LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  return (tensor_keys | local.included | global_included_keys()) - local.excluded;
}

// While alive, adds `keys` to this thread's included set (restores it on destruction).
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys);
  explicit IncludeDispatchKeyGuard(DispatchKey k) : IncludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet previous_;  // restored on destruction, so nested guards compose
};

// While alive, adds `keys` to this thread's excluded set (restores it on destruction).
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys);
  explicit ExcludeDispatchKeyGuard(DispatchKey k) : ExcludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet previous_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_
