#include "sdk/fusion/lazy.h"

#include <cstring>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp::fusion {
namespace {

using bp::testing::message_of;
using bp::testing::sizes_of;
using bp::testing::strides_of;
using ::testing::HasSubstr;

// Deterministic, varied values: sin(k * 0.37) * scale over `sizes`.
Tensor wave(std::vector<int64_t> sizes, double scale = 3.0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return bp::mul(bp::sin(bp::mul(bp::arange(n, ScalarType::kFloat32), 0.37)), scale).reshape(sizes);
}

// Same dtype, sizes and every element's bits (row-major).
void expect_identical(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(sizes_of(a), sizes_of(b));
  const Tensor ca = a.contiguous(), cb = b.contiguous();
  EXPECT_EQ(std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.numel() * ca.itemsize()), 0);
}

Tensor gelu_chain(const Tensor& x, const Tensor& w, const Tensor& b) {
  return bp::gelu(bp::add(bp::mul(x, w), b));
}

Tensor softmax_chain(const Tensor& x) {
  return bp::sum(bp::exp(bp::sub(x, bp::amax(x, {-1}, true))), IntArrayRef{-1});
}

TEST(LazyTest, GeluChainFusesIntoOneGroupAndMatchesEagerBitwise) {
  const Tensor x = wave({64, 300}), w = wave({300}, 0.5), b = wave({300}, 0.25);
  const Tensor eager = gelu_chain(x, w, b);
  reset_fusion_stats();
  Tensor fused;
  {
    LazyScope lazy;
    fused = gelu_chain(x, w, b);
    EXPECT_EQ(sizes_of(fused), (std::vector<int64_t>{64, 300}));
    const std::string text = describe_recording();
    EXPECT_THAT(text, HasSubstr("%2 = pointwise bp::gelu(%1, \"none\")"));
    EXPECT_THAT(text, HasSubstr("group %2 <- {%0, %1, %2}, tiles of"));
  }
  expect_identical(fused, eager);
  const FusionStats s = fusion_stats();
  EXPECT_EQ(s.recorded, 3);
  EXPECT_EQ(s.groups, 1);
  EXPECT_EQ(s.fused_nodes, 3);
}

TEST(LazyTest, SoftmaxChainRunsRowTilesAndMatchesEagerBitwise) {
  const Tensor x = wave({37, 513});
  const Tensor eager = softmax_chain(x);
  reset_fusion_stats();
  Tensor fused;
  {
    LazyScope lazy;
    fused = softmax_chain(x);
    EXPECT_THAT(describe_recording(), HasSubstr("group %3 <- {%0, %1, %2, %3}, tiles of"));
  }
  expect_identical(fused, eager);
  EXPECT_EQ(fusion_stats().groups, 1);
}

TEST(LazyTest, ReadingPendingDataRunsTheRecording) {
  const Tensor x = wave({4, 5});
  const int64_t before = fusion_stats().materialized;
  LazyScope lazy;
  const Tensor y = bp::exp(x);
  EXPECT_EQ(fusion_stats().materialized, before);  // recorded, nothing ran yet
  const float* p = y.data_ptr<float>();
  EXPECT_EQ(fusion_stats().materialized, before + 1);
  EXPECT_FLOAT_EQ(p[7], std::exp(x.data_ptr<float>()[7]));
}

TEST(LazyTest, BadCallsThrowWhereTheyAreMadeWithEagersMessage) {
  const Tensor a = wave({2, 3}), b = wave({4});
  const std::string eager = message_of([&] { bp::add(a, b); });
  LazyScope lazy;
  EXPECT_EQ(message_of([&] { bp::add(a, b); }), eager);
  EXPECT_THAT(eager, HasSubstr("must match the size of tensor b (4)"));
}

TEST(LazyTest, WritingAnInputRunsWhatReadsItFirst) {
  Tensor x = wave({3, 4});
  const Tensor expected = bp::mul(x, 2);
  Tensor y;
  {
    LazyScope lazy;
    y = bp::mul(x, 2);
    x.add_(1);  // in-place: the recorded mul must see x as it was
  }
  expect_identical(y, expected);
}

TEST(LazyTest, ViewsOfPendingResultsReadTheRealisedResult) {
  const Tensor x = wave({6, 5});
  const Tensor expected = bp::add(bp::transpose(bp::exp(x), 0, 1), 1);
  Tensor z;
  {
    LazyScope lazy;
    const Tensor v = bp::transpose(bp::exp(x), 0, 1);
    z = bp::add(v, 1);
    EXPECT_EQ(strides_of(v), (std::vector<int64_t>{1, 5}));
  }
  expect_identical(z, expected);
}

TEST(LazyTest, ResultsNobodyCanReadAreNotComputed) {
  const Tensor x = wave({8, 8});
  reset_fusion_stats();
  Tensor kept;
  {
    LazyScope lazy;
    kept = bp::exp(x);
    Tensor dropped = bp::mul(kept, 3);
    dropped = Tensor();
  }
  EXPECT_EQ(fusion_stats().dead, 1);
  expect_identical(kept, bp::exp(x));
}

TEST(LazyTest, AResultReadTwiceIsRealisedOnce) {
  const Tensor x = wave({16, 40});
  const Tensor a = bp::exp(x);
  const Tensor e1 = bp::add(a, 1), e2 = bp::mul(a, a);
  reset_fusion_stats();
  Tensor f1, f2;
  {
    LazyScope lazy;
    const Tensor la = bp::exp(x);
    f1 = bp::add(la, 1);
    f2 = bp::mul(la, la);
  }
  expect_identical(f1, e1);
  expect_identical(f2, e2);
  EXPECT_EQ(fusion_stats().groups, 3);
}

TEST(LazyTest, MixedDtypesBroadcastsAndStridesMatchEager) {
  const Tensor xi = bp::transpose(wave({9, 7}, 50.0).to(ScalarType::kInt32), 0, 1);  // [7, 9]
  const Tensor h = wave({1, 9}).to(ScalarType::kFloat16);
  const Tensor d = wave({7, 1}).to(ScalarType::kFloat64);
  auto chain = [&] {
    return bp::sum(bp::mul(bp::add(xi, h), d), IntArrayRef{0}, /*keepdim=*/true);
  };
  const Tensor eager = chain();
  Tensor fused;
  {
    LazyScope lazy;
    fused = chain();
  }
  EXPECT_EQ(fused.dtype(), ScalarType::kFloat64);
  expect_identical(fused, eager);
}

TEST(LazyTest, ScopesNestAndMaterializeRunsEarly) {
  const Tensor x = wave({5, 5});
  LazyScope outer;
  Tensor y;
  {
    LazyScope inner;
    y = bp::exp(x);
  }
  EXPECT_TRUE(in_lazy_scope());
  const int64_t before = fusion_stats().materialized;
  materialize();
  EXPECT_EQ(fusion_stats().materialized, before + 1);
  expect_identical(y, bp::exp(x));
}

TEST(LazyTest, AnotherThreadReadingAPendingTensorRunsTheRecording) {
  const Tensor x = wave({32, 32});
  const Tensor expected = bp::exp(bp::mul(x, 2));
  LazyScope lazy;
  const Tensor y = bp::exp(bp::mul(x, 2));
  std::vector<float> seen;
  std::thread reader([&] {
    const float* p = y.data_ptr<float>();
    seen.assign(p, p + y.numel());
  });
  reader.join();
  const float* e = expected.data_ptr<float>();
  EXPECT_EQ(seen, std::vector<float>(e, e + expected.numel()));
}

TEST(LazyTest, OutsideAScopeNothingIsRecorded) {
  EXPECT_FALSE(in_lazy_scope());
  const int64_t before = fusion_stats().recorded;
  bp::exp(wave({3}));
  EXPECT_EQ(fusion_stats().recorded, before);
}

}  // namespace
}  // namespace bp::fusion
