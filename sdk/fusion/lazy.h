// Lazy mode: inside a LazyScope, calls of pointwise and reduction ops are recorded instead of
// run, and run later as fused groups (one pass over memory per group instead of one per op).
//
//   {
//     bp::fusion::LazyScope lazy;
//     Tensor y = bp::gelu(bp::add(bp::mul(x, w), b));   // recorded: y's contents are pending
//     Tensor s = bp::exp(bp::sub(y, bp::amax(y, {-1}, true))).sum({-1});
//   }                                                  // runs both chains, fused
//
// What is recorded: functional ops declared `pointwise` or `reduction` (a reduction with `dim`
// and `keepdim` arguments) whose tensor arguments are on one device (0-dim CPU tensors aside).
// Each recorded call runs its op's meta function at once, on Meta copies of its arguments, so
// every check, dtype promotion, broadcast and output layout is decided exactly as eager decides
// it, and a bad call throws where it was made. Its result is a real tensor of that layout whose
// contents are pending.
//
// Ops written in terms of other ops (CompositeImplicit: `x * 2` is mul.Scalar, which calls
// mul.Tensor with a wrapped number) run with lazy mode on, so the ops they call are recorded.
// What runs at once: view ops (they move no data; a view of a pending result is pending too),
// and every other call. A call that reads a pending tensor, and any call that writes a tensor
// (in-place and out= ops), first runs everything recorded so far ("materialises").
//
// Materialising also happens when code reads the memory of a pending tensor or of a tensor a
// recorded call reads (Tensor::data_ptr, and every kernel that reads memory: core/pending_data.h),
// on materialize(), and when the outermost scope ends. It runs the scheduler (scheduler.h): only
// results that are still held, viewed, or read twice are written to memory; results nobody can
// read are not computed. On the CPU a group runs tile by tile (cpu_tiled.h); on a plugin device
// it is offered to the plugin's fused-group runner (group_runners.h) and otherwise split into ops.
//
// Errors: recording throws what eager would have thrown for the call. materialize() throws the
// first error of a run (the tensors of groups that did not run are left undefined in content; no
// error is expected, since every call was checked when recorded). A scope's destructor cannot
// throw: it reports such an error with a warning (core/warning.h); call materialize() before the
// scope ends to get it as an exception.
// Thread safety: a scope belongs to the thread that made it (scopes nest on a thread; other
// threads are not in lazy mode). Reading a pending tensor from another thread materialises the
// owning thread's recording, serialised with that thread's recording by a mutex; reading it
// while its owner materialises is a data race, as reading any tensor being written is.
#ifndef BACKPLANE_SDK_FUSION_LAZY_H_
#define BACKPLANE_SDK_FUSION_LAZY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "sdk/dispatch/dispatch_key.h"

namespace bp::fusion {

class LazyScope {
 public:
  LazyScope();
  ~LazyScope();
  LazyScope(const LazyScope&) = delete;
  LazyScope& operator=(const LazyScope&) = delete;

  // Runs everything this thread recorded so far. Throws the first error of the run.
  void materialize();

 private:
  std::optional<IncludeDispatchKeyGuard> include_;
};

// Whether the calling thread is inside a LazyScope.
bool in_lazy_scope();

// Runs everything the calling thread recorded (a no-op outside lazy mode).
void materialize();

// The text of the calling thread's recording and of its schedule (tests, debugging).
std::string describe_recording();

// Counters since the process started (or the last reset), summed over all threads.
struct FusionStats {
  int64_t recorded = 0;      // calls recorded as nodes
  int64_t materialized = 0;  // runs of a recording
  int64_t groups = 0;        // groups run
  int64_t fused_nodes = 0;   // nodes run inside a group of two or more
  int64_t dead = 0;          // nodes not computed (nothing could read them)
  int64_t offered = 0;       // groups a plugin's runner took
};
FusionStats fusion_stats();
void reset_fusion_stats();

}  // namespace bp::fusion

#endif  // BACKPLANE_SDK_FUSION_LAZY_H_
