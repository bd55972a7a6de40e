// Which kernel serves an op for a backend's dispatch key, read from the dispatcher's table: the
// backend's own kernel, a composite kernel, the Common key (shared meta function, then the
// backend's out= kernel), or a backend fallback such as the CPU fallback.
//
//   Serving s = serving_of("add.Tensor", plugin_key(0));
//   s.path;          // "Common -> add.out: kernel [my_add_out]"
//   s.via_common;    // true
//   s.via_fallback;  // false
//
// Thread safety: reads the dispatcher (safe concurrently with calls).
#ifndef BACKPLANE_CONFORMANCE_RUNNER_SERVING_H_
#define BACKPLANE_CONFORMANCE_RUNNER_SERVING_H_

#include <string>
#include <string_view>

#include "sdk/dispatch/dispatch_key.h"

namespace bp::conformance {

struct Serving {
  std::string path;           // what serves the call, as the dispatcher describes it
  bool via_common = false;    // the Common key runs the meta function and the out= kernel
  bool via_fallback = false;  // a backend fallback (e.g. cpu_fallback) serves the kernel
  bool missing = false;       // nothing serves it
};

// Errors: none; an op that is not defined gives path "not declared".
Serving serving_of(std::string_view op, DispatchKey key);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_SERVING_H_
