// DimCounter: walks a range of linear element indices of an N-d iteration shape in 2-D tiles.
//
//   DimCounter counter(shape, begin, end);
//   while (!counter.is_done()) {
//     std::array<int64_t, 2> step = counter.max_2d_step();   // tile: step[0] x step[1]
//     ... use counter.values() (the N-d index of the tile's first element) ...
//     counter.increment(step);
//   }
//
// Dimension 0 is the fastest-moving one. Thread safety: a plain value.
#ifndef BACKPLANE_SDK_ITER_DIM_COUNTER_H_
#define BACKPLANE_SDK_ITER_DIM_COUNTER_H_

#include <array>
#include <cstdint>

#include "sdk/core/int_array_ref.h"

namespace bp {

class DimCounter {
 public:
  // `shape` is borrowed and must outlive the counter.
  DimCounter(IntArrayRef shape, int64_t begin, int64_t end);

  bool is_done() const { return offset_ >= end_; }
  // The largest tile starting at values(): whole rows of dimension 0 when values()[0] == 0.
  std::array<int64_t, 2> max_2d_step() const;
  void increment(const std::array<int64_t, 2>& step);
  IntArrayRef values() const { return values_; }

 private:
  IntArrayRef shape_;
  int64_t end_;
  int64_t offset_;
  DimVector values_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_DIM_COUNTER_H_
