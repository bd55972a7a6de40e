// The dispatcher's record of one operator and its precomputed dispatch table.
//
// Internal to sdk/dispatch (operator_handle.h reads the table on the call path; dispatcher.cc
// owns everything else). See dispatcher.h for the registration rules.
//
// Thread safety: `table` (and the dispatcher's backend fallback table) is published with release
// and read with acquire; a published table is never modified or freed while the entry lives
// (retired tables are kept in `tables`), so the call path takes no lock and no reference count.
// Every other mutable field is guarded by the owning Dispatcher's mutex.
#ifndef BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_
#define BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/kernel.h"
#include "sdk/dispatch/schema.h"

namespace bp {

class Dispatcher;

namespace detail {

// The dispatcher's backend fallbacks by backend key number (invalid where a key has none, or
// its fallback is a fallthrough): shared by every op, so registering a backend's fallback
// rebuilds this one table instead of every op's.
struct BackendFallbackTable {
  std::vector<KernelFunction> kernels;
  const KernelFunction& at(uint32_t backend) const {
    static const KernelFunction kNone;
    return backend < kernels.size() ? kernels[backend] : kNone;
  }
};

// Which kernel serves each key of one operator, computed when its registrations (or a
// functionality key's fallback) change. A backend key is served by, in order: backends[key]
// (the op's own kernel), `composite` (the op's alias kernel), the dispatcher's backend fallback.
struct DispatchTable {
  // By functionality bit; sized to the highest bit not in `fallthrough`.
  std::vector<KernelFunction> functionality;
  // Functionality keys a call skips: a fallthrough kernel, or nothing registered (a
  // functionality key without a kernel or fallback is skipped). Backend bits are never set.
  DispatchKeySet fallthrough;
  // Functionality keys with a kernel registered for this op under that very key.
  DispatchKeySet own_functionality;
  // The op's own kernels by backend key number (invalid where it has none); a fallthrough
  // registered for a backend key is stored as a kernel that reports the key missing.
  std::vector<KernelFunction> backends;
  KernelFunction composite;  // CompositeExplicit's kernel, else CompositeImplicit's, or invalid
};

// One kernel or fallback registration; the newest registration for a key wins.
struct KernelRegistration {
  uint64_t id;
  KernelFunction kernel;
  std::string debug_name;  // a name given at registration, or the registration site
};

using RegistrationLists = std::map<DispatchKey, std::list<KernelRegistration>>;

struct OperatorEntry {
  OperatorEntry(Dispatcher* owner, const std::atomic<const BackendFallbackTable*>* fallbacks,
                std::string full_name, FunctionSchema s)
      : dispatcher(owner),
        backend_fallbacks(fallbacks),
        name(std::move(full_name)),
        schema(std::move(s)),
        num_arguments(schema.arguments.size()) {}

  Dispatcher* const dispatcher;
  // The dispatcher's backend fallback table (read on the call path).
  const std::atomic<const BackendFallbackTable*>* const backend_fallbacks;
  const std::string name;  // "bp::add.Tensor"
  const FunctionSchema schema;
  const size_t num_arguments;
  std::atomic<const DispatchTable*> table{nullptr};

  // Guarded by dispatcher's mutex.
  bool defined = true;  // false once the def's handle is gone (kernels may still be registered)
  RegistrationLists kernels;  // by registration key (runtime and alias keys); no empty lists
  std::vector<std::unique_ptr<const DispatchTable>> tables;  // every table ever published
};

}  // namespace detail
}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_
