#include "sdk/iter/parallel.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "sdk/core/error.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace bp {
namespace {

int default_num_threads() {
#ifdef _OPENMP
  return std::max(1, omp_get_max_threads());
#else
  // At least 2, so that ThreadSanitizer builds run kernels concurrently even on one core.
  return std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
#endif
}

std::atomic<int>& num_threads() {
  static std::atomic<int> n{default_num_threads()};
  return n;
}

thread_local bool tls_in_parallel_region = false;

// libgomp's thread pool does not survive fork(): a child that enters a parallel region after the
// parent started the pool waits forever for threads that do not exist. Such children run
// serially (as PyTorch's intra-op pool does after fork); builds on std::thread do the same, so
// that both behave alike.
std::atomic<bool> forked_after_pool_started{false};

void on_fork_child() { forked_after_pool_started.store(true, std::memory_order_relaxed); }

void note_pool_started() {
  [[maybe_unused]] static const int registered = pthread_atfork(nullptr, nullptr, &on_fork_child);
}

}  // namespace

int get_num_threads() {
  if (forked_after_pool_started.load(std::memory_order_relaxed)) return 1;
  return num_threads().load(std::memory_order_relaxed);
}

void set_num_threads(int n) {
  BP_CHECK(n >= 1, "set_num_threads: expected a positive number of threads, got ", n);
  num_threads().store(n, std::memory_order_relaxed);
}

bool in_parallel_region() { return tls_in_parallel_region; }

namespace detail {

void parallel_run(int64_t begin, int64_t end, int64_t grain_size,
                  absl::FunctionRef<void(int64_t, int64_t)> f) {
  const int64_t range = end - begin;
  const int64_t max_tasks =
      (range + std::max<int64_t>(grain_size, 1) - 1) / std::max<int64_t>(grain_size, 1);
  const int threads = static_cast<int>(std::min<int64_t>(get_num_threads(), max_tasks));
  if (threads <= 1 || forked_after_pool_started.load(std::memory_order_relaxed)) {
    f(begin, end);
    return;
  }
  note_pool_started();
  std::exception_ptr error;
  std::atomic_flag failed = ATOMIC_FLAG_INIT;
  // Member `index` of a team of `team` threads runs the index-th contiguous chunk.
  auto run_chunk = [&](int64_t team, int64_t index) {
    const int64_t chunk = (range + team - 1) / team;
    const int64_t local_begin = begin + index * chunk;
    if (local_begin >= end) return;
    tls_in_parallel_region = true;
    try {
      f(local_begin, std::min(end, local_begin + chunk));
    } catch (...) {
      if (!failed.test_and_set()) error = std::current_exception();
    }
    tls_in_parallel_region = false;
  };
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  run_chunk(omp_get_num_threads(), omp_get_thread_num());
#else
  // Without OpenMP (ThreadSanitizer builds: libgomp is not instrumented) the team runs on
  // std::threads, which TSan sees, so that it checks the kernels' concurrent work.
  std::vector<std::thread> team;
  team.reserve(static_cast<size_t>(threads - 1));
  for (int index = 1; index < threads; ++index) {
    try {
      team.emplace_back(run_chunk, threads, index);
    } catch (const std::system_error&) {
      run_chunk(threads, index);  // no thread to be had: this one runs the chunk
    }
  }
  run_chunk(threads, 0);
  for (std::thread& t : team) t.join();
#endif
  if (error) std::rethrow_exception(error);
}

}  // namespace detail
}  // namespace bp
