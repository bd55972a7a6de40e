// The Tracing wrapper key: records every dispatched call (op name, argument shapes and dtypes,
// elapsed time), then passes the call on to the keys below Tracing.
//
//   set_tracing_enabled(true);
//   add(a, b);                                       // any dispatched op
//   set_tracing_enabled(false);
//   for (const TraceEvent& e : take_trace()) std::cout << to_string(e) << "\n";
//   // bp::add.Tensor(float32[2, 3] cpu, float32[2, 3] cpu) 812 ns
//
// Enabling installs (once) a boxed backend fallback for DispatchKey::kTracing on
// Dispatcher::singleton() and adds Tracing to the process-wide included keys; disabling removes
// the key, so a call costs nothing extra while tracing is off. Nested calls (an op's kernel
// calling other ops) are recorded too, each with its own time; a call that throws is not recorded.
//
// Thread safety: all functions may be called from any thread; the trace buffer is shared by all
// threads and guarded by a mutex.
#ifndef BACKPLANE_SDK_DISPATCH_TRACING_H_
#define BACKPLANE_SDK_DISPATCH_TRACING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/core/device.h"
#include "sdk/core/scalar_type.h"

namespace bp {

// One tensor argument as recorded (tensor lists contribute one entry per element).
struct TracedTensor {
  std::vector<int64_t> sizes;
  ScalarType dtype;
  Device device;
};

struct TraceEvent {
  std::string op;  // "bp::add.Tensor"
  std::vector<TracedTensor> tensors;
  int64_t elapsed_ns = 0;  // time spent below Tracing (the kernels), steady clock
};

void set_tracing_enabled(bool enabled);
bool tracing_enabled();
// Returns the events recorded so far (in completion order) and clears the buffer.
std::vector<TraceEvent> take_trace();
// "bp::add.Tensor(float32[2, 3] cpu, float32[2, 3] cpu) 812 ns".
std::string to_string(const TraceEvent& event);

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_TRACING_H_
