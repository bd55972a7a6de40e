// A reference and leak ledger for the tensor handles that plugin kernels receive and create, for
// conformance runs: the suite turns it on while it tests a backend whose kernels come through the
// C ABI, and reports what it finds as case failures.
//
//   HandleLedgerScope on;                        // on while alive (scopes nest)
//   ... plugin kernels run ...
//   HandleLedgerTotals t = handle_ledger_totals();              // counts since the process began
//   std::vector<std::string> p = take_handle_problems();        // and what went wrong, once each
//   // "[npu] add.out: released a reference to argument 'self' that it does not own ..."
//
// While it is on, each plugin kernel call (kernels.cc) keeps a frame on its thread. Every tensor
// reference the C ABI hands the kernel (tensor_empty, tensor_from_host, tensor_wrap, the results
// of op_call, cpu_fallback and iter_tensor) and every tensor_retain is a reference the kernel
// owns; tensor_release and value_release spend one; when the kernel returns, each tensor in its
// results spends one. What is left is leaked: a problem naming the tensors ("a float32 [4]
// tensor"). Releasing an argument (borrowed: the kernel owns no reference to it) is an
// over-release: the host records it and does not release, so its own reference stays valid and
// nothing touches freed memory. A result that is an argument returned without tensor_retain is
// the same mistake (the host releases every result): the host adds the missing reference.
//
// Limits: references are counted on the kernel's thread only (handles released by another thread
// show as leaks); releasing a handle that is neither the call's nor one of its arguments (a tensor
// the plugin created outside any call) passes unchecked.
//
// Off (the default), each hook costs one thread-local load; frames exist only while it is on.
// Thread safety: frames are per thread; totals are atomic and problems are under a mutex.
#ifndef BACKPLANE_SDK_C_API_HANDLE_LEDGER_H_
#define BACKPLANE_SDK_C_API_HANDLE_LEDGER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backplane/types.h"
#include "sdk/core/error.h"

struct bp_op;

namespace bp::c_api {

struct LedgerFrame;

namespace detail_ledger {
extern constinit thread_local LedgerFrame* tls_frame;
void note_owned(bp_tensor* handle) noexcept;
bool allows_release(bp_tensor* handle) noexcept;
}  // namespace detail_ledger

// A new reference (or a retain) handed to the plugin kernel running on this thread, if any.
inline void ledger_note_owned(bp_tensor* handle) noexcept {
  if (BP_UNLIKELY(detail_ledger::tls_frame != nullptr) && handle != nullptr) {
    detail_ledger::note_owned(handle);
  }
}

// Whether api->tensor_release may drop this reference: false for an over-release by the running
// kernel (recorded as a problem; the caller must not release).
inline bool ledger_allows_release(bp_tensor* handle) noexcept {
  if (BP_LIKELY(detail_ledger::tls_frame == nullptr) || handle == nullptr) return true;
  return detail_ledger::allows_release(handle);
}

// Whether the ledger is on.
bool handle_ledger_enabled();

// Turns the ledger on while alive.
class HandleLedgerScope {
 public:
  HandleLedgerScope();
  ~HandleLedgerScope();
  HandleLedgerScope(const HandleLedgerScope&) = delete;
  HandleLedgerScope& operator=(const HandleLedgerScope&) = delete;
};

// What plugin kernels did with references while the ledger was on, summed over all calls.
struct HandleLedgerTotals {
  int64_t created = 0;        // references handed to kernels (new references and retains)
  int64_t released = 0;       // spent by tensor_release / value_release
  int64_t returned = 0;       // spent by returning them as results
  int64_t leaked = 0;         // left over when their kernel returned
  int64_t over_released = 0;  // releases (or unretained results) of borrowed arguments
};
HandleLedgerTotals handle_ledger_totals();

// The problems found since the last call, oldest first, one line each.
std::vector<std::string> take_handle_problems();

// One plugin kernel call's frame, innermost on its thread while alive; nothing when the ledger
// is off. `args` is the argument array the kernel receives (borrowed references).
class LedgerCall {
 public:
  LedgerCall(const bp_op& op, const std::string& label, const bp_value* args, size_t nargs);
  ~LedgerCall();
  LedgerCall(const LedgerCall&) = delete;
  LedgerCall& operator=(const LedgerCall&) = delete;

  // After the kernel returned (with or without an error), before the host releases `results`:
  // spends the results' references, adds the missing one to an argument returned without a
  // retain, and records what leaked. Then the frame is no longer innermost.
  void finish(const bp_value* results, size_t nresults) noexcept;

 private:
  static void settle(LedgerFrame& f, const bp_value* results, size_t nresults);
  LedgerFrame* frame_ = nullptr;
};

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_HANDLE_LEDGER_H_
