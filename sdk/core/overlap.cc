#include "sdk/core/overlap.h"

#include "sdk/core/error.h"

namespace bp {
namespace {

constexpr const char* kPartialOverlapMessage =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
    "single "
    "memory location. Please clone() the tensor before performing the operation.";

}  // namespace

MemOverlap has_internal_overlap(const Tensor& t) {
  if (t.is_non_overlapping_and_dense()) return MemOverlap::kNo;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.strides()[d] == 0 && t.sizes()[d] > 1) return MemOverlap::kYes;
  }
  return MemOverlap::kTooHard;
}

void assert_no_internal_overlap(const Tensor& t) {
  BP_CHECK(has_internal_overlap(t) != MemOverlap::kYes,
           "unsupported operation: more than one element of the written-to tensor refers to a "
           "single memory "
           "location. Please clone() the tensor before performing the operation.");
}

MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.is_same(b)) return MemOverlapStatus::kFull;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::kNo;
  if (!a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense())
    return MemOverlapStatus::kTooHard;
  if (!a.is_alias_of(b)) return MemOverlapStatus::kNo;
  // Dense tensors occupy exactly [offset, offset + numel) elements of their storage.
  const int64_t a_begin = a.storage_offset() * static_cast<int64_t>(a.itemsize());
  const int64_t a_end = a_begin + static_cast<int64_t>(a.nbytes());
  const int64_t b_begin = b.storage_offset() * static_cast<int64_t>(b.itemsize());
  const int64_t b_end = b_begin + static_cast<int64_t>(b.nbytes());
  if (a_begin == b_begin && a_end == b_end) {
    return a.strides() == b.strides() ? MemOverlapStatus::kFull : MemOverlapStatus::kPartial;
  }
  if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::kPartial;
  return MemOverlapStatus::kNo;
}

void assert_no_partial_overlap(const Tensor& a, const Tensor& b) {
  BP_CHECK(get_overlap_status(a, b) != MemOverlapStatus::kPartial, kPartialOverlapMessage);
}

void assert_no_overlap(const Tensor& a, const Tensor& b) {
  MemOverlapStatus status = get_overlap_status(a, b);
  BP_CHECK(status != MemOverlapStatus::kPartial && status != MemOverlapStatus::kFull,
           kPartialOverlapMessage);
}

std::ostream& operator<<(std::ostream& out, MemOverlap overlap) {
  switch (overlap) {
    case MemOverlap::kNo:
      return out << "No";
    case MemOverlap::kYes:
      return out << "Yes";
    case MemOverlap::kTooHard:
      return out << "TooHard";
  }
  return out << "MemOverlap(" << static_cast<int>(overlap) << ")";
}

std::ostream& operator<<(std::ostream& out, MemOverlapStatus status) {
  switch (status) {
    case MemOverlapStatus::kFull:
      return out << "Full";
    case MemOverlapStatus::kPartial:
      return out << "Partial";
    case MemOverlapStatus::kNo:
      return out << "No";
    case MemOverlapStatus::kTooHard:
      return out << "TooHard";
  }
  return out << "MemOverlapStatus(" << static_cast<int>(status) << ")";
}

}  // namespace bp
