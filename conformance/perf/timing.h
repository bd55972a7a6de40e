// Timing one call: warm-up calls, then repeated measurements of one call each (the backend
// synchronized after it, so asynchronous work is counted), summarised by their median and
// spread; and the memory roof of a device, a copy measured the same way through the backend's
// own copy functions.
//
//   Timing t = time_calls([&] { op.call_boxed(&stack); }, [&] { backend.synchronize(); },
//                         {.warmup = 3, .repeats = 10});
//   t.median_us;   // robust to a few slow repeats (a loaded machine)
//
// Thread safety: runs on the calling thread; pure functions otherwise.
#ifndef BACKPLANE_CONFORMANCE_PERF_TIMING_H_
#define BACKPLANE_CONFORMANCE_PERF_TIMING_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "conformance/runner/backend.h"

namespace bp::conformance {

struct TimingOptions {
  int warmup = 3;    // untimed calls first (caches, lazy initialisation, kernel compilation)
  int repeats = 10;  // timed calls, at least 1
};

// A summary of repeated measurements, in microseconds.
struct Timing {
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
  // The interquartile range over the median: how much the middle half of the repeats varies
  // (0.1: within about 10%).
  double spread = 0;
  int repeats = 0;
};

// The summary of `seconds` (one measurement each). Errors: std::invalid_argument when empty.
Timing summarize(std::vector<double> seconds);

// Runs `call` options.warmup times, then options.repeats times timing each call followed by
// `sync`. Exceptions of `call` and `sync` propagate.
Timing time_calls(const std::function<void()>& call, const std::function<void()>& sync,
                  const TimingOptions& options);

// The same-run memory roof of a backend's device: a copy of `nbytes` between two of the
// device's allocations through its registered copy functions (memcpy for the CPU), synchronized
// and timed as any call; bytes moved are read + written (2 * nbytes).
struct MemoryRoof {
  size_t nbytes = 0;  // bytes copied per call
  Timing timing;
  double gbps = 0;  // 2 * nbytes / median time, in 1e9 bytes per second
  // Why there is no roof (gbps 0): the device could not allocate or copy (run_perf records the
  // error instead of ending the run: the ops' times do not need the roof).
  std::string problem;
};
// Errors: bp::Error from the device's allocator or copy function (e.g. a device without a
// within-device copy: kNotImplemented).
MemoryRoof measure_memory_roof(const Backend& backend, size_t nbytes, const TimingOptions& options);

// The geometric mean of positive values (1 for none).
double geometric_mean(const std::vector<double>& values);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_PERF_TIMING_H_
