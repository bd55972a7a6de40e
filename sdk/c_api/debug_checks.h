// Debug mode (api->set_debug_checks): the host checks every plugin kernel's results against the
// op's meta function and reports the first mismatch as an error naming the op and the plugin.
//
//   std::optional<MetaExpectation> expected;
//   if (debug_checks_enabled()) expected = expect_results(op, args);   // before the kernel
//   ... the kernel runs ...
//   if (expected) check_results(*expected, op, label, args, results);  // throws on a mismatch
//
// What is checked, for each tensor result: dtype, sizes and strides equal the meta function's;
// a result whose schema return writes an alias set (`Tensor(a!)`: out= and in-place ops) is the
// very argument of that set. A list result (`Tensor[]`, `Tensor?[]`) has the meta function's
// length, and each of its tensors is checked as a tensor result ("result 0[1] has sizes ...").
// Other results (numbers, None) are not checked. An op without a Meta kernel is not checked. When
// the meta function rejects arguments the kernel accepted, that is reported too.
//
// Thread safety: the switch is an atomic; the checks run on the calling thread.
#ifndef BACKPLANE_SDK_C_API_DEBUG_CHECKS_H_
#define BACKPLANE_SDK_C_API_DEBUG_CHECKS_H_

#include <atomic>
#include <optional>
#include <string>

#include "absl/types/span.h"
#include "sdk/c_api/ops.h"
#include "sdk/dispatch/value.h"

namespace bp::c_api {

namespace detail_debug {
inline std::atomic<bool> enabled{false};
}  // namespace detail_debug

inline bool debug_checks_enabled() { return detail_debug::enabled.load(std::memory_order_relaxed); }
inline void set_debug_checks_enabled(bool on) {
  detail_debug::enabled.store(on, std::memory_order_relaxed);
}

// What the op's meta function says about a call, computed before the kernel runs (the kernel
// may resize its arguments).
struct MetaExpectation {
  Stack args;              // the arguments as they were (handles to the same tensors)
  Stack results;           // the meta function's results, when it accepted the arguments
  std::string meta_error;  // its message, when it rejected them
  bool has_meta_kernel = true;
};

// Runs the op's Meta kernel on Meta copies of `args`.
MetaExpectation expect_results(const bp_op& op, absl::Span<const Value> args);

// Compares a kernel's `results` with `expected`. Errors (kInternal): "[npu] add.out: debug
// check: result 0 has strides [1, 2] but the op's meta function gives [2, 1]".
void check_results(const MetaExpectation& expected, const bp_op& op, const std::string& label,
                   absl::Span<const Value> results);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_DEBUG_CHECKS_H_
