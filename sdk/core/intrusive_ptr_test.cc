#include "sdk/core/intrusive_ptr.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace bp {
namespace {

struct Counted : RefCounted {
  explicit Counted(int* destroyed) : destroyed(destroyed) {}
  ~Counted() override { ++*destroyed; }
  int* destroyed;
};

TEST(IntrusivePtr, MakeGivesTheOnlyReference) {
  int destroyed = 0;
  IntrusivePtr<Counted> p = IntrusivePtr<Counted>::make(&destroyed);
  EXPECT_EQ(p.use_count(), 1u);
  EXPECT_TRUE(p);
  p.reset();
  EXPECT_FALSE(p);
  EXPECT_EQ(p.use_count(), 0u);
  EXPECT_EQ(destroyed, 1);
}

TEST(IntrusivePtr, CopiesShareAndTheLastOneDestroys) {
  int destroyed = 0;
  IntrusivePtr<Counted> a = IntrusivePtr<Counted>::make(&destroyed);
  {
    IntrusivePtr<Counted> b = a;
    IntrusivePtr<Counted> c;
    c = b;
    EXPECT_EQ(a.use_count(), 3u);
    EXPECT_EQ(b.get(), a.get());
  }
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(destroyed, 0);
  IntrusivePtr<Counted> moved = std::move(a);
  EXPECT_EQ(a.get(), nullptr);  // NOLINT: testing the moved-from state.
  EXPECT_EQ(moved.use_count(), 1u);
  moved = nullptr;
  EXPECT_EQ(destroyed, 1);
}

TEST(IntrusivePtr, SelfAssignmentKeepsTheObject) {
  int destroyed = 0;
  IntrusivePtr<Counted> a = IntrusivePtr<Counted>::make(&destroyed);
  IntrusivePtr<Counted>& alias = a;
  a = alias;
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(destroyed, 0);
}

TEST(IntrusivePtr, ReleaseAndReclaimRoundTripOneReference) {
  int destroyed = 0;
  IntrusivePtr<Counted> a = IntrusivePtr<Counted>::make(&destroyed);
  Counted* raw = a.release();
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_EQ(raw->use_count(), 1u);
  IntrusivePtr<Counted> b = IntrusivePtr<Counted>::reclaim(raw);
  EXPECT_EQ(b.use_count(), 1u);
  IntrusivePtr<Counted> c = IntrusivePtr<Counted>::borrow(raw);
  EXPECT_EQ(b.use_count(), 2u);
  b.reset();
  c.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(IntrusivePtr, ConcurrentCopiesAndDestructionsDestroyExactlyOnce) {
  int destroyed = 0;
  IntrusivePtr<Counted> shared = IntrusivePtr<Counted>::make(&destroyed);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([copy = shared] {
      for (int i = 0; i < 10000; ++i) {
        IntrusivePtr<Counted> local = copy;
        IntrusivePtr<Counted> moved = std::move(local);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(shared.use_count(), 1u);
  shared.reset();
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace bp
