#include "sdk/iter/dim_counter.h"

#include <algorithm>

#include "sdk/core/error.h"

namespace bp {

DimCounter::DimCounter(IntArrayRef shape, int64_t begin, int64_t end)
    : shape_(shape), end_(end), offset_(begin), values_(shape.size(), 0) {
  int64_t linear = begin;
  for (size_t dim = 0; dim < shape.size() && linear > 0; ++dim) {
    const int64_t size = shape[dim];
    if (size > 0) {
      values_[dim] = linear % size;
      linear /= size;
    }
  }
  BP_INTERNAL_ASSERT(linear == 0, "range start ", begin, " is outside the iteration shape");
}

std::array<int64_t, 2> DimCounter::max_2d_step() const {
  const int64_t left = end_ - offset_;
  const int64_t step0 = std::min(shape_[0] - values_[0], left);
  int64_t step1 = 1;
  if (step0 == shape_[0] && shape_.size() >= 2) {
    step1 = std::min(shape_[1] - values_[1], left / shape_[0]);
  }
  return {step0, step1};
}

void DimCounter::increment(const std::array<int64_t, 2>& step) {
  offset_ += step[0] * step[1];
  // A tile of several rows always starts at values_[0] == 0 and spans whole rows, so the carry
  // starts at dimension 1.
  size_t dim = 0;
  int64_t carry = step[0];
  if (step[1] != 1) {
    dim = 1;
    carry = step[1];
  }
  for (; dim < values_.size() && carry > 0; ++dim) {
    int64_t value = values_[dim] + carry;
    if (value >= shape_[dim]) {
      carry = 1;
      value -= shape_[dim];
    } else {
      carry = 0;
    }
    values_[dim] = value;
  }
}

}  // namespace bp
