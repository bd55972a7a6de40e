#include "reference_backend/cuda/emulation/driver/streams.h"

#include <pthread.h>

#include <algorithm>
#include <set>
#include <thread>

namespace bp::emulated_cuda {
namespace {

std::mutex& streams_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::set<const void*>& streams() {
  static auto* s = new std::set<const void*>();
  return *s;
}

// fork(): the child would inherit queued work without the threads that run it. Every stream
// drains first; the registry stays locked across the fork so no stream comes or goes.
void before_fork() {
  streams_mutex().lock();
  for (const void* s : streams()) const_cast<Stream*>(static_cast<const Stream*>(s))->quiesce();
}
void after_fork() { streams_mutex().unlock(); }

const bool kForkHandlers = [] {
  pthread_atfork(&before_fork, &after_fork, &after_fork);
  return true;
}();

}  // namespace

Stream::Stream() = default;

Stream::~Stream() { quiesce(); }

void Stream::enqueue(std::function<void()> work) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(work));
  if (!worker_running_) {
    worker_running_ = true;
    std::thread([this] { run(); }).detach();
  }
}

bool Stream::run_next(std::unique_lock<std::mutex>& lock) {
  if (queue_.empty() || executing_) return false;
  std::function<void()> work = std::move(queue_.front());
  queue_.pop_front();
  executing_ = true;
  lock.unlock();
  work();
  lock.lock();
  executing_ = false;
  changed_.notify_all();
  return true;
}

void Stream::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!queue_.empty()) {
    // Another thread (a synchronizing caller) runs the next piece of work: wait for it.
    if (!run_next(lock)) changed_.wait(lock);
  }
  // The last touch of the stream: quiesce() (and so the destructor) waits for this.
  worker_running_ = false;
  changed_.notify_all();
}

void Stream::synchronize() {
  std::unique_lock<std::mutex> lock(mutex_);
  // Help: run the queued work on this thread rather than wait for the worker to be scheduled,
  // one piece at a time so the order holds. On a loaded machine the wake-ups were most of the
  // time of a synchronous copy.
  while (!queue_.empty() || executing_) {
    if (!run_next(lock)) changed_.wait(lock);
  }
}

void Stream::quiesce() {
  synchronize();
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !worker_running_; });
}

bool Stream::idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.empty() && !executing_;
}

void Event::record(Stream& stream) {
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    ticket = ++state_->recorded;
  }
  stream.enqueue([state = state_, ticket] {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->completed = std::max(state->completed, ticket);
    state->when = std::chrono::steady_clock::now();
    state->changed.notify_all();
  });
}

void Event::synchronize() {
  std::unique_lock<std::mutex> lock(state_->mutex);
  const uint64_t target = state_->recorded;
  state_->changed.wait(lock, [&] { return state_->completed >= target; });
}

bool Event::done() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->completed >= state_->recorded;
}

float Event::elapsed_ms(Event& start, Event& end) {
  std::chrono::steady_clock::time_point a, b;
  {
    std::lock_guard<std::mutex> lock(start.state_->mutex);
    a = start.state_->when;
  }
  {
    std::lock_guard<std::mutex> lock(end.state_->mutex);
    b = end.state_->when;
  }
  return std::chrono::duration<float, std::milli>(b - a).count();
}

std::function<void()> Event::waiter() {
  uint64_t target;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    target = state_->recorded;
  }
  return [state = state_, target] {
    std::unique_lock<std::mutex> lock(state->mutex);
    state->changed.wait(lock, [&] { return state->completed >= target; });
  };
}

void synchronize_all_streams() {
  std::lock_guard<std::mutex> lock(streams_mutex());
  for (const void* s : streams()) const_cast<Stream*>(static_cast<const Stream*>(s))->synchronize();
}

void register_stream(Stream* s) {
  std::lock_guard<std::mutex> lock(streams_mutex());
  streams().insert(s);
}

void unregister_stream(Stream* s) {
  std::lock_guard<std::mutex> lock(streams_mutex());
  streams().erase(s);
}

bool is_stream(const void* s) {
  std::lock_guard<std::mutex> lock(streams_mutex());
  return streams().count(s) != 0;
}

}  // namespace bp::emulated_cuda
