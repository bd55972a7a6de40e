// The dispatcher's record of one operator and its precomputed dispatch table.
//
// Internal to sdk/dispatch (operator_handle.h reads the table on the call path; dispatcher.cc
// owns everything else). See dispatcher.h for the registration rules.
//
// Thread safety: `table` is published with release and read with acquire; a published table is
// never modified or freed while the entry lives (retired tables are kept in `tables`), so the call
// path takes no lock and no reference count. Every other mutable field is guarded by the owning
// Dispatcher's mutex.
#ifndef BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_
#define BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "sdk/dispatch/dispatch_key.h"
#include "sdk/dispatch/kernel.h"
#include "sdk/dispatch/schema.h"

namespace bp {

class Dispatcher;

namespace detail {

// Which kernel serves each key of one operator, computed when registrations change.
struct DispatchTable {
  std::array<KernelFunction, kNumDispatchKeys> kernels;  // invalid where nothing serves the key
  DispatchKeySet fallthrough;  // keys a call skips (their kernel is a fallthrough)
  // Runtime keys served by a kernel registered for this op under that very key (not an alias
  // key's kernel, not a fallback): what the Common key asks to know whether a backend handles
  // an op itself.
  DispatchKeySet own_kernels;
};

// One kernel or fallback registration; the newest registration for a key wins.
struct KernelRegistration {
  uint64_t id;
  KernelFunction kernel;
  std::string debug_name;  // a name given at registration, or the registration site
};

struct OperatorEntry {
  OperatorEntry(Dispatcher* owner, std::string full_name, FunctionSchema s)
      : dispatcher(owner),
        name(std::move(full_name)),
        schema(std::move(s)),
        num_arguments(schema.arguments.size()) {}

  Dispatcher* const dispatcher;
  const std::string name;  // "bp::add.Tensor"
  const FunctionSchema schema;
  const size_t num_arguments;
  std::atomic<const DispatchTable*> table{nullptr};

  // Guarded by dispatcher's mutex.
  bool defined = true;  // false once the def's handle is gone (kernels may still be registered)
  std::array<std::list<KernelRegistration>, kNumRegistrationKeys> kernels;
  std::vector<std::unique_ptr<const DispatchTable>> tables;  // every table ever published
};

}  // namespace detail
}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_OPERATOR_ENTRY_H_
