#include "sdk/iter/parallel.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

TEST(ParallelFor, CoversTheRangeExactlyOnce) {
  std::vector<std::atomic<int>> hits(100000);
  parallel_for(0, 100000, 1000, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
  });
  for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(ParallelFor, SmallRangesStayOnTheCallingThread) {
  bool inside = true;
  int calls = 0;
  parallel_for(0, 10, 1000, [&](int64_t begin, int64_t end) {
    ++calls;
    inside = in_parallel_region();
    EXPECT_EQ(begin, 0);
    EXPECT_EQ(end, 10);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(inside);
}

TEST(ParallelFor, RethrowsAnErrorFromAnyThread) {
  EXPECT_THROW(parallel_for(0, 1 << 20, 1,
                            [](int64_t begin, int64_t) {
                              if (begin >= 0) throw std::runtime_error("boom");
                            }),
               std::runtime_error);
}

TEST(ParallelFor, NestedCallsRunSerially) {
  std::atomic<int> nested_serial{0};
  parallel_for(0, 1 << 16, 1, [&](int64_t, int64_t) {
    parallel_for(0, 1 << 16, 1, [&](int64_t begin, int64_t end) {
      if (begin == 0 && end == (1 << 16)) nested_serial.fetch_add(1);
    });
  });
  EXPECT_EQ(nested_serial.load(), std::min(get_num_threads(), 1 << 16));
}

TEST(ParallelFor, SetNumThreadsRejectsZero) {
  EXPECT_THROW(set_num_threads(0), Error);
  const int before = get_num_threads();
  set_num_threads(before);
  EXPECT_EQ(get_num_threads(), before);
}

// A child forked after the parent ran a parallel region (the conformance suite's isolation mode
// does this) must not wait for the parent's pool threads, which do not exist in the child.
TEST(ParallelFor, AChildForkedAfterAParallelRegionRunsSerially) {
  std::atomic<int> sum{0};
  parallel_for(0, 1 << 16, 1,
               [&](int64_t begin, int64_t end) { sum.fetch_add(static_cast<int>(end - begin)); });
  ASSERT_EQ(sum.load(), 1 << 16);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(20);  // a hang kills the child (SIGALRM) instead of the test
    std::atomic<int> child_sum{0};
    parallel_for(0, 1 << 16, 1, [&](int64_t begin, int64_t end) {
      child_sum.fetch_add(static_cast<int>(end - begin));
    });
    _exit(child_sum.load() == (1 << 16) && get_num_threads() == 1 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace bp
