#include "sdk/iter/vec/vectorized.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

// The capabilities this CPU can run, lowest first.
std::vector<CpuCapability> runnable_capabilities() {
  std::vector<CpuCapability> out;
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c <= detected_cpu_capability()) out.push_back(c);
  }
  return out;
}

// Runs `body(width)` through dispatch_cpu once per runnable capability.
template <typename Body>
void on_every_isa(const Body& body) {
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : runnable_capabilities()) {
    set_cpu_capability(c);
    SCOPED_TRACE(std::string(cpu_capability_name(c)));
    dispatch_cpu(body);
  }
  set_cpu_capability(detected);
}

TEST(Vectorized, LanesFillTheWidth) {
  EXPECT_EQ((Vectorized<float, 64>::size()), 16);
  EXPECT_EQ((Vectorized<float, 32>::size()), 8);
  EXPECT_EQ((Vectorized<float, 16>::size()), 4);
  EXPECT_EQ((Vectorized<double, 64>::size()), 8);
  EXPECT_EQ((Vectorized<int64_t, 32>::size()), 4);
  EXPECT_EQ((Vectorized<int8_t, 64>::size()), 64);
  EXPECT_EQ(Vectorized<float>::size(), 16);  // the default: the widest
}

TEST(Vectorized, DispatchHandsTheBodyItsIsasRegisterWidth) {
  for (CpuCapability c : runnable_capabilities()) {
    set_cpu_capability(c);
    int width = 0;
    dispatch_cpu([&](auto w) __attribute__((always_inline)) { width = decltype(w)::value; });
    EXPECT_EQ(width, c == CpuCapability::kAvx512 ? 64
                     : c == CpuCapability::kAvx2 ? 32
                                                 : 16)
        << cpu_capability_name(c);
  }
  set_cpu_capability(detected_cpu_capability());
}

TEST(Vectorized, DispatchCallsABodyThatTakesNoWidth) {
  int calls = 0;
  dispatch_cpu([&]() __attribute__((always_inline)) {
    using Vec = Vectorized<float>;  // the default width: 64 bytes on every ISA
    float out[16];
    (Vec(1) + Vec(2)).store(out);
    EXPECT_EQ(out[15], 3.0f);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

TEST(Vectorized, PartialLoadsFillZerosAndPartialStoresKeepTheRest) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using Vec = Vectorized<float, width>;
    float in[16], out[16];
    for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i + 1), out[i] = -1;
    const Vec v = Vec::loadu(in, 3);
    EXPECT_EQ(v[2], 3.0f);
    EXPECT_EQ(v[3], 0.0f);
    v.store(out, 2);
    EXPECT_EQ(out[1], 2.0f);
    EXPECT_EQ(out[2], -1.0f);
  });
}

TEST(Vectorized, ComparisonsGiveMasksOrOnes) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecI = Vectorized<int32_t, width>;
    using VecF = Vectorized<float, width>;
    const VecI a(3), b(5);
    const int last = VecI::size() - 1;
    EXPECT_EQ((a < b)[0], -1);
    EXPECT_EQ((a > b)[0], 0);
    EXPECT_EQ(a.lt(b)[0], 1);
    EXPECT_EQ(blendv(a, b, a < b)[last], 5);
    EXPECT_EQ(blendv(a, b, a > b)[last], 3);
    EXPECT_EQ(VecF(2).le(VecF(2))[last], 1.0f);
    EXPECT_EQ(VecF(2).gt(VecF(2))[last], 0.0f);
  });
}

TEST(Vectorized, MaximumAndMinimumPropagateNaN) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecF = Vectorized<float, width>;
    using VecL = Vectorized<int64_t, width>;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(std::isnan(maximum(VecF(nan), VecF(1))[0]));
    EXPECT_TRUE(std::isnan(minimum(VecF(1), VecF(nan))[0]));
    EXPECT_EQ(maximum(VecF(-1), VecF(2))[3], 2.0f);
    EXPECT_EQ(minimum(VecL(-1), VecL(2))[1], -1);
  });
}

TEST(Vectorized, ReduceAddSumsAllLanes) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecI = Vectorized<int32_t, width>;
    int32_t in[16];
    for (int i = 0; i < 16; ++i) in[i] = i;
    const int n = VecI::size();
    EXPECT_EQ(reduce_add(VecI::loadu(in)), n * (n - 1) / 2);
  });
}

// exp on float lanes against std::exp, across the range and at its ends, on every ISA.
TEST(Vectorized, FloatExpIsWithinTwoUlpsEverywhere) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecF = Vectorized<float, width>;
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
    // The ends of the range, where the result overflows or underflows.
    for (float x : {88.5f, 88.72f, 88.7228f, 88.75f, 89.0f, 100.0f, -87.3f, -103.9f, -103.98f}) {
      const float got = VecF(x).exp()[0];
      const float want = std::exp(x);
      if (std::isinf(want) || want == 0) {
        EXPECT_EQ(got, want) << x;
      } else {
        EXPECT_LE(std::fabs(got - want), 2 * (std::nextafter(want, INFINITY) - want) +
                                             4 * std::numeric_limits<float>::denorm_min())
            << x;
      }
    }
    EXPECT_TRUE(std::isnan(VecF(std::numeric_limits<float>::quiet_NaN()).exp()[0]));
    EXPECT_EQ(VecF(-std::numeric_limits<float>::infinity()).exp()[0], 0.0f);
    EXPECT_EQ(VecF(std::numeric_limits<float>::infinity()).exp()[0],
              std::numeric_limits<float>::infinity());
    EXPECT_EQ((Vectorized<double, width>(1.0).exp()[0]), std::exp(1.0));
  });
}

}  // namespace
}  // namespace bp
