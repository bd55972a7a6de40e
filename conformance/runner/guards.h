// Guard bytes: outputs and in-place arguments live inside a larger storage whose other bytes hold
// a known pattern, so that a write outside a tensor's elements (past its end, before its start,
// into the gaps of a strided tensor) shows up as changed bytes.
//
//   Tensor out = guarded_output(ScalarType::kFloat32, {3, 4}, Layout::kTransposed);
//   Tensor self = guarded_copy(sample_self);   // same geometry and values, guards around
//
// Thread safety: pure functions.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_GUARDS_H_
#define BACKPLANE_CONFORMANCE_RUNNER_GUARDS_H_

#include <cstdint>

#include "conformance/framework/layouts.h"
#include "sdk/core/tensor.h"

namespace bp::conformance {

// Guard elements on each side of the guarded region.
inline constexpr int64_t kGuardElements = 16;
// The byte every guard (and every element of a fresh output) holds.
inline constexpr uint8_t kGuardByte = 0xA5;

// A CPU tensor with `t`'s sizes, strides and values, over a storage with kGuardElements guard
// elements before and after `t`'s storage.
Tensor guarded_copy(const Tensor& t);
// A CPU tensor of `dtype` and `sizes` laid out as `layout`, every byte of its storage (elements
// included) kGuardByte, with guards around.
Tensor guarded_output(ScalarType dtype, const Sizes& sizes, Layout layout = Layout::kContiguous);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_GUARDS_H_
