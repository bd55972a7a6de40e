// parallel_for: runs a function over [begin, end) split across threads (OpenMP), keeping ranges
// smaller than a grain size on the calling thread.
//
//   parallel_for(0, n, /*grain_size=*/32768, [&](int64_t begin, int64_t end) {
//     for (int64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
//   });
//
// Each thread gets one contiguous chunk. Nested calls (from inside a parallel region) run
// serially. An exception thrown by `f` on any thread is rethrown on the caller after all threads
// finish (the first one wins). Builds without OpenMP (ThreadSanitizer builds: libgomp is not
// instrumented) run the same chunks on std::threads started per call, so that TSan checks the
// kernels' concurrent work. A child process forked after its parent ran a parallel region runs
// serially (OpenMP's threads do not survive fork; get_num_threads() is 1).
//
// Thread safety: safe to call from any thread; `f` runs concurrently on disjoint ranges.
#ifndef BACKPLANE_SDK_ITER_PARALLEL_H_
#define BACKPLANE_SDK_ITER_PARALLEL_H_

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace bp {

// The number of threads parallel_for uses (default: OMP_NUM_THREADS or the number of cores).
int get_num_threads();
// Sets the number of threads for later parallel_for calls (process-wide). n >= 1.
void set_num_threads(int n);
// Whether the caller runs inside a parallel_for.
bool in_parallel_region();

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                  absl::FunctionRef<void(int64_t, int64_t)> f);
}  // namespace detail

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
  if (end - begin <= grain_size || get_num_threads() == 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  detail::parallel_run(begin, end, grain_size, f);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_PARALLEL_H_
