#include "sdk/iter/vec/vectorized.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

using VecF = Vectorized<float>;

TEST(Vectorized, WidthIsSixtyFourBytes) {
  EXPECT_EQ(VecF::size(), 16);
  EXPECT_EQ(Vectorized<double>::size(), 8);
  EXPECT_EQ(Vectorized<int64_t>::size(), 8);
  EXPECT_EQ(Vectorized<int8_t>::size(), 64);
}

TEST(Vectorized, PartialLoadsFillZerosAndPartialStoresKeepTheRest) {
  float in[16], out[16];
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i + 1), out[i] = -1;
  const VecF v = VecF::loadu(in, 5);
  EXPECT_EQ(v[4], 5.0f);
  EXPECT_EQ(v[5], 0.0f);
  v.store(out, 3);
  EXPECT_EQ(out[2], 3.0f);
  EXPECT_EQ(out[3], -1.0f);
}

TEST(Vectorized, ComparisonsGiveMasksOrOnes) {
  const Vectorized<int32_t> a(3), b(5);
  EXPECT_EQ((a < b)[0], -1);
  EXPECT_EQ((a > b)[0], 0);
  EXPECT_EQ(a.lt(b)[0], 1);
  EXPECT_EQ(blendv(a, b, a < b)[7], 5);
  EXPECT_EQ(blendv(a, b, a > b)[7], 3);
  EXPECT_EQ(VecF(2).le(VecF(2))[15], 1.0f);
}

TEST(Vectorized, MaximumAndMinimumPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(maximum(VecF(nan), VecF(1))[0]));
  EXPECT_TRUE(std::isnan(minimum(VecF(1), VecF(nan))[0]));
  EXPECT_EQ(maximum(VecF(-1), VecF(2))[3], 2.0f);
  EXPECT_EQ(minimum(Vectorized<int64_t>(-1), Vectorized<int64_t>(2))[3], -1);
}

TEST(Vectorized, ReduceAddSumsAllLanes) {
  int32_t in[16];
  for (int i = 0; i < 16; ++i) in[i] = i;
  EXPECT_EQ(reduce_add(Vectorized<int32_t>::loadu(in)), 120);
}

// exp on float lanes against std::exp, across the range and at its ends, on every ISA.
TEST(Vectorized, FloatExpIsWithinTwoUlpsEverywhere) {
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    dispatch_cpu([&]() __attribute__((always_inline)) {
      for (float x = -110.0f; x < 90.0f; x += 0.0371f) {
        const float got = VecF(x).exp()[3];
        const float want = std::exp(x);
        if (want == 0 || std::isinf(want)) {
          ASSERT_EQ(got, want) << x;
        } else if (want >= std::numeric_limits<float>::min()) {
          ASSERT_LE(std::fabs(got - want), 2 * (std::nextafter(want, INFINITY) - want)) << x;
        } else {  // subnormal results: absolute error of a few subnormal steps
          ASSERT_LE(std::fabs(got - want), 4 * std::numeric_limits<float>::denorm_min()) << x;
        }
      }
    });
  }
  set_cpu_capability(detected);
  EXPECT_TRUE(std::isnan(VecF(std::numeric_limits<float>::quiet_NaN()).exp()[0]));
  EXPECT_EQ(VecF(-std::numeric_limits<float>::infinity()).exp()[0], 0.0f);
  EXPECT_EQ(VecF(std::numeric_limits<float>::infinity()).exp()[0],
            std::numeric_limits<float>::infinity());
  EXPECT_EQ(Vectorized<double>(1.0).exp()[0], std::exp(1.0));
}

}  // namespace
}  // namespace bp
