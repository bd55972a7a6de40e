// Memory overlap checks for ops that write: whether an output has several elements at one
// address, and whether an output shares memory with an input (PyTorch's MemoryOverlap).
//
//   Tensor x = empty({4}, ScalarType::kFloat32, Device(DeviceType::kCPU));
//   has_internal_overlap(expand(x, {3, 4}));              // kYes: stride 0
//   get_overlap_status(x, slice(x, 0, 1, 3));             // kPartial
//   assert_no_overlap(out, in);                           // throws when they share memory
//
// Answers are conservative: kTooHard means "could not tell cheaply" (non-dense layouts), and
// callers treat it as "maybe" or "no" as PyTorch does. Works on Meta tensors too (byte ranges
// are computed from storage offsets, not data pointers).
//
// Thread safety: pure functions of the tensors' metadata.
#ifndef BACKPLANE_SDK_CORE_OVERLAP_H_
#define BACKPLANE_SDK_CORE_OVERLAP_H_

#include <ostream>

#include "sdk/core/tensor.h"

namespace bp {

enum class MemOverlap { kNo, kYes, kTooHard };

// kNo for non-overlapping-and-dense tensors, kYes when some dim of size > 1 has stride 0,
// kTooHard otherwise.
MemOverlap has_internal_overlap(const Tensor& t);

// Errors: has_internal_overlap(t) is kYes: "unsupported operation: more than one element of the
// written-to tensor refers to a single memory location. Please clone() the tensor before
// performing the operation."
void assert_no_internal_overlap(const Tensor& t);

enum class MemOverlapStatus { kFull, kPartial, kNo, kTooHard };

// How the memory of `a` and `b` relates: kFull when they are the same tensor or cover the same
// bytes with the same strides; kPartial when their byte ranges in one storage intersect
// otherwise; kNo for other storages, disjoint ranges or no elements; kTooHard when either is not
// non-overlapping-and-dense.
MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);

// Errors: status kPartial: "unsupported operation: some elements of the input tensor and the
// written-to tensor refer to a single memory location. Please clone() the tensor before
// performing the operation."
void assert_no_partial_overlap(const Tensor& a, const Tensor& b);

// Errors: status kPartial or kFull, with the message of assert_no_partial_overlap.
void assert_no_overlap(const Tensor& a, const Tensor& b);

std::ostream& operator<<(std::ostream& out, MemOverlap overlap);
std::ostream& operator<<(std::ostream& out, MemOverlapStatus status);

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_OVERLAP_H_
