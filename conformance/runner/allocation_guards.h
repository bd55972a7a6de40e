// Guard zones around every block the host allocates on a plugin device while a conformance case
// runs: outputs the Common key allocates before it calls the plugin's out= kernel, temporaries a
// kernel gets through the C ABI, the suite's own copies of the arguments. A kernel that writes
// past the end of such a block (or before its start) changes guard bytes instead of the heap, and
// the case fails naming the op and the offset, also for a one-element overrun that the plugin
// allocator's rounding (or ASan's) would hide.
//
//   AllocationGuards guards(backend.device(), "add.Tensor");  // wraps the device's allocator
//   ... call the op ...
//   for (std::string& p : guards.check()) outcome.fail(p);    // after the call
//   for (std::string& p : guards.finish()) outcome.fail(p);   // at the end of the case
//   // "add.Tensor wrote 4 bytes past the end of a 140-byte block the host allocated on
//   //  writes_past_common:0 (the first at offset 140, the block's first byte past its end)"
//
// While a scope is active, the device's registered allocator is a wrapper that asks the plugin's
// allocator for kGuardZoneBytes more on each side (rounded up to its alignment in front) and
// fills them with kGuardByte through the device's own copy functions (not counted as the op's
// transfers). Guards are checked when a block is freed, and by check() and finish() for every
// block still alive; each block is reported once. Blocks that outlive the scope are freed
// unchecked later. Outside a scope (the normal plugin path) the device's allocator is its own:
// no cost. CPU and Meta are never wrapped.
//
// Thread safety: one scope at a time in the process (a second one, e.g. nested, does nothing);
// allocations and frees during a scope may come from any thread.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_ALLOCATION_GUARDS_H_
#define BACKPLANE_CONFORMANCE_RUNNER_ALLOCATION_GUARDS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "sdk/core/device.h"

namespace bp::conformance {

// Guard bytes after each block (and at least this many before it).
inline constexpr size_t kGuardZoneBytes = 64;

class AllocationGuards {
 public:
  // Wraps the allocator of `device`'s type (nothing for CPU and Meta, or when another scope is
  // active). `op` names the op in messages.
  AllocationGuards(Device device, std::string op);
  // finish(), dropping its problems, if it was not called; restores the device's allocator.
  ~AllocationGuards();
  AllocationGuards(const AllocationGuards&) = delete;
  AllocationGuards& operator=(const AllocationGuards&) = delete;

  // Whether this scope guards allocations.
  bool active() const { return active_; }
  // The guards changed so far (blocks freed since the last check, and blocks alive now), one line
  // each.
  std::vector<std::string> check();
  // check(), then the scope stops guarding: later allocations are plain, blocks alive now are
  // freed unchecked.
  std::vector<std::string> finish();

 private:
  Device device_;
  bool active_ = false;
  bool finished_ = false;
};

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_ALLOCATION_GUARDS_H_
