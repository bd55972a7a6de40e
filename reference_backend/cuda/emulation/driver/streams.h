// Streams and events of the emulated driver. Each stream runs its work in order on a host
// thread of its own, asynchronously to the caller, so that work on two streams is in flight at
// once (as on a GPU); an event marks a point in a stream's work.
//
//   Stream* s = new Stream();
//   s->enqueue([] { ...a copy or a kernel... });   // returns at once
//   s->synchronize();                             // waits for everything enqueued so far
//
// A stream's worker thread starts with its first work and ends when the queue runs dry; a caller
// that synchronizes runs the queued work itself instead of waiting for the worker to wake. So a
// process that forks between bursts of work (an isolated conformance run) has no thread to lose:
// fork() waits for every stream to drain first (pthread_atfork), and the child starts workers of
// its own as it needs them.
//
// Thread safety: every member may be called from any thread; destroying a stream waits for it.
#ifndef BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STREAMS_H_
#define BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STREAMS_H_

#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace bp::emulated_cuda {

class Stream {
 public:
  Stream();
  ~Stream();  // waits for the queued work
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void enqueue(std::function<void()> work);
  // Returns when the work enqueued so far has run (some of it perhaps on the calling thread).
  void synchronize();
  // synchronize(), then waits for the worker thread to end too (nothing touches the stream then).
  void quiesce();
  bool idle();

 private:
  void run();
  // Runs the next piece of work on this thread unless the queue is empty or another thread is
  // running one; `lock` holds mutex_ (released while the work runs).
  bool run_next(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool worker_running_ = false;
  bool executing_ = false;  // a thread is running a piece of work
};

class Event {
 public:
  // Enqueues the event on `stream`: it completes when the work queued before it has.
  void record(Stream& stream);
  void synchronize();
  bool done();
  // Milliseconds between two completed events.
  static float elapsed_ms(Event& start, Event& end);
  // Work to enqueue on another stream that waits for this event's current recording (it keeps
  // what it needs alive: the event may be destroyed before it runs).
  std::function<void()> waiter();

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    uint64_t recorded = 0;   // recordings made
    uint64_t completed = 0;  // recordings completed
    std::chrono::steady_clock::time_point when{};
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

// Waits for the work of every stream (cuMemFree synchronises the device).
void synchronize_all_streams();

// Every live stream (for fork()).
void register_stream(Stream* s);
void unregister_stream(Stream* s);
// Whether `s` is a live stream of this driver.
bool is_stream(const void* s);
// The stream of a driver handle (0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD: the default
// stream), or nullptr with *result the error, explained (driver_api.cc; the emulated cuBLAS's
// cublasSetStream takes the same handles).
Stream* stream_of_handle(CUstream h, const char* what, CUresult* result);

}  // namespace bp::emulated_cuda

#endif  // BACKPLANE_REFERENCE_BACKEND_CUDA_EMULATION_DRIVER_STREAMS_H_
