// Dispatch keys, key sets, and the thread-local / process-wide key adjustments of a call.
//
//   DispatchKeySet ks = DispatchKeySet(DispatchKey::kPlugin0).add(DispatchKey::kCommon);
//   ks.highest_priority_key();          // DispatchKey::kCommon
//   for (DispatchKey k : ks) ...        // kCommon, then kPlugin0
//   {
//     ExcludeDispatchKeyGuard no_tracing(DispatchKey::kTracing);
//     ...                               // calls on this thread skip Tracing
//   }
//
// A key's number is its priority: when a call's key set holds several keys, the highest number
// runs first (as in PyTorch). The order, highest first:
//   Tracing   a wrapper key: records the call, then redispatches below itself;
//   Common    shared meta + output allocation for plugin backends, forwarding to the plugin's
//             out= kernel (a fallthrough for ops without a Common kernel);
//   backends  Plugin15..Plugin0, Meta, CUDA, CPU: one per device kind; plugin keys are handed out
//             at run time by name (see backend_registry.h).
// Wrapper keys rank above Common so that tracing sees the call a user made, not the calls
// Common makes on the user's behalf.
//
// Thread safety: DispatchKeySet is a value. The local include/exclude sets are per thread; the
// global included set is an atomic.
#ifndef BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_
#define BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_

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

enum class DispatchKey : uint8_t {
  kUndefined = 0,
  kCPU = 1,
  kCUDA = 2,
  kMeta = 3,
  // The pool handed to plugin backends at run time (backend_registry.h).
  kPlugin0 = 4,
  kPlugin1 = 5,
  kPlugin2 = 6,
  kPlugin3 = 7,
  kPlugin4 = 8,
  kPlugin5 = 9,
  kPlugin6 = 10,
  kPlugin7 = 11,
  kPlugin8 = 12,
  kPlugin9 = 13,
  kPlugin10 = 14,
  kPlugin11 = 15,
  kPlugin12 = 16,
  kPlugin13 = 17,
  kPlugin14 = 18,
  kPlugin15 = 19,
  kCommon = 20,
  kTracing = 21,
  // Alias keys: kernels are registered under them but calls never carry them. A kernel for an
  // alias key serves every backend key (CPU, CUDA, Meta, plugins) that has no kernel of its own
  // for the op; Explicit wins over Implicit (PyTorch's CompositeExplicitAutograd and
  // CompositeImplicitAutograd). Explicit: one implementation that works on every device (views,
  // factories through the device's allocator). Implicit: an op written in terms of other ops.
  kCompositeExplicit = 22,
  kCompositeImplicit = 23,
};
// Keys a call can carry (the runtime keys): Undefined..Tracing.
inline constexpr int kNumDispatchKeys = 22;
// Keys a kernel can be registered under: the runtime keys and the alias keys.
inline constexpr int kNumRegistrationKeys = 24;
inline constexpr int kNumPluginKeys = 16;

// The pool key number `i` (0 <= i < kNumPluginKeys).
constexpr DispatchKey plugin_key(int i) {
  return static_cast<DispatchKey>(static_cast<int>(DispatchKey::kPlugin0) + i);
}
constexpr bool is_plugin_key(DispatchKey k) {
  return k >= DispatchKey::kPlugin0 && k <= DispatchKey::kPlugin15;
}
// A key that selects a device's kernels (CPU, CUDA, Meta, a plugin key).
constexpr bool is_backend_key(DispatchKey k) {
  return k >= DispatchKey::kCPU && k <= DispatchKey::kPlugin15;
}
constexpr bool is_alias_key(DispatchKey k) {
  return k == DispatchKey::kCompositeExplicit || k == DispatchKey::kCompositeImplicit;
}

// "CPU", "Plugin3", "Tracing", "CompositeExplicit".
std::string_view dispatch_key_name(DispatchKey k);
// The key with this name, or nullopt.
std::optional<DispatchKey> dispatch_key_from_name(std::string_view name);
std::ostream& operator<<(std::ostream& out, DispatchKey k);

// A set of dispatch keys: one bit per key (bit i = key i). Iterates highest priority first.
class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(DispatchKey k)
      : bits_(k == DispatchKey::kUndefined ? 0 : uint64_t{1} << static_cast<int>(k)) {}
  static constexpr DispatchKeySet from_raw(uint64_t bits) {
    DispatchKeySet s;
    s.bits_ = bits;
    return s;
  }
  // Every key of lower priority than `k` (the keys a redispatch from `k` may reach).
  static constexpr DispatchKeySet below(DispatchKey k) {
    return from_raw(((uint64_t{1} << static_cast<int>(k)) - 1) & ~uint64_t{1});
  }
  // Every defined key.
  static constexpr DispatchKeySet all() {
    return from_raw(((uint64_t{1} << kNumDispatchKeys) - 1) & ~uint64_t{1});
  }

  constexpr uint64_t raw() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool has(DispatchKey k) const { return (bits_ & DispatchKeySet(k).bits_) != 0; }
  constexpr DispatchKeySet add(DispatchKey k) const {
    return from_raw(bits_ | DispatchKeySet(k).bits_);
  }
  constexpr DispatchKeySet remove(DispatchKey k) const {
    return from_raw(bits_ & ~DispatchKeySet(k).bits_);
  }

  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return from_raw(bits_ | o.bits_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return from_raw(bits_ & o.bits_); }
  constexpr DispatchKeySet operator-(DispatchKeySet o) const { return from_raw(bits_ & ~o.bits_); }
  constexpr bool operator==(const DispatchKeySet&) const = default;

  // The key that runs first, or kUndefined for an empty set.
  constexpr DispatchKey highest_priority_key() const {
    return bits_ == 0 ? DispatchKey::kUndefined
                      : static_cast<DispatchKey>(63 - std::countl_zero(bits_));
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
      bits_ &= ~(uint64_t{1} << static_cast<int>(**this));
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
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  uint64_t bits_ = 0;
};

// "DispatchKeySet(Tracing, Common, Plugin0)".
std::string to_string(DispatchKeySet ks);
std::ostream& operator<<(std::ostream& out, DispatchKeySet ks);

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

// Keys added to every call of every thread (e.g. Tracing while tracing is on).
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
  DispatchKeySet added_;  // only the keys this guard added, so nested guards compose
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
  DispatchKeySet added_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_DISPATCH_KEY_H_
