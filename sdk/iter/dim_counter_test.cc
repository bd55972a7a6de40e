#include "sdk/iter/dim_counter.h"

#include <array>
#include <vector>

#include "gtest/gtest.h"

namespace bp {
namespace {

// Visits [begin, end) of `shape` and returns the linear index of every element visited.
std::vector<int64_t> visit(IntArrayRef shape, int64_t begin, int64_t end,
                           std::vector<std::array<int64_t, 2>>* steps = nullptr) {
  std::vector<int64_t> seen;
  DimCounter counter(shape, begin, end);
  while (!counter.is_done()) {
    const std::array<int64_t, 2> step = counter.max_2d_step();
    if (steps != nullptr) steps->push_back(step);
    int64_t base = 0, scale = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      base += counter.values()[d] * scale;
      scale *= shape[d];
    }
    for (int64_t j = 0; j < step[1]; ++j) {
      for (int64_t i = 0; i < step[0]; ++i) seen.push_back(base + j * shape[0] + i);
    }
    counter.increment(step);
  }
  return seen;
}

TEST(DimCounter, VisitsEveryElementOfARangeOnceInOrder) {
  const int64_t shape[] = {3, 4, 5};
  for (int64_t begin = 0; begin <= 60; begin += 7) {
    for (int64_t end = begin; end <= 60; end += 11) {
      std::vector<int64_t> seen = visit(shape, begin, end);
      ASSERT_EQ(static_cast<int64_t>(seen.size()), end - begin) << begin << ".." << end;
      for (size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], begin + static_cast<int64_t>(k));
    }
  }
}

TEST(DimCounter, TakesWholeRowsAsTwoDimensionalTiles) {
  const int64_t shape[] = {4, 3, 2};
  std::vector<std::array<int64_t, 2>> steps;
  visit(shape, 0, 24, &steps);
  ASSERT_EQ(steps.size(), 2u);  // two planes of 4x3
  EXPECT_EQ(steps[0], (std::array<int64_t, 2>{4, 3}));
  steps.clear();
  visit(shape, 2, 24, &steps);  // a partial first row, then whole rows
  EXPECT_EQ(steps[0], (std::array<int64_t, 2>{2, 1}));
  EXPECT_EQ(steps[1], (std::array<int64_t, 2>{4, 2}));
}

}  // namespace
}  // namespace bp
