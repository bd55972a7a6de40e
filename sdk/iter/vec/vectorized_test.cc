#include "sdk/iter/vec/vectorized.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
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
  EXPECT_EQ(Vectorized<float>::size(), 8);  // the default: the widest dispatch_cpu hands out
}

TEST(Vectorized, DispatchHandsTheBodyItsIsasVectorWidth) {
  for (CpuCapability c : runnable_capabilities()) {
    set_cpu_capability(c);
    int width = 0;
    dispatch_cpu([&](auto w) __attribute__((always_inline)) { width = decltype(w)::value; });
    // AVX-512 runs 32-byte vectors (see cpu_capability.h).
    EXPECT_EQ(width, c == CpuCapability::kDefault ? 16 : 32) << cpu_capability_name(c);
  }
  set_cpu_capability(detected_cpu_capability());
}

TEST(Vectorized, DispatchCallsABodyThatTakesNoWidth) {
  int calls = 0;
  dispatch_cpu([&]() __attribute__((always_inline)) {
    using Vec = Vectorized<float>;  // the default width: 32 bytes on every ISA
    float out[Vec::size()];
    (Vec(1) + Vec(2)).store(out);
    EXPECT_EQ(out[Vec::size() - 1], 3.0f);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

// The bits of lane `lane` of `v`.
template <typename Vec>
uint64_t lane_bits(const Vec& v, int lane) {
  const typename Vec::value_type x = v[lane];
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(x));
  return bits;
}
template <typename T>
uint64_t bits_of(T x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(x));
  return bits;
}

// A broadcast value (a stride-0 operand, a Scalar argument) fills every lane bit for bit: -0.0
// stays -0.0 (0.0 + value would give +0.0) and NaNs keep their sign and payload.
TEST(Vectorized, BroadcastKeepsEveryValueBitForBit) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecF = Vectorized<float, width>;
    using VecD = Vectorized<double, width>;
    const float float_nan = std::bit_cast<float>(uint32_t{0xFFC01234u});  // negative, payload
    for (float x : {-0.0f, 0.0f, float_nan, -std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::denorm_min(), 1.5f}) {
      const VecF v(x);
      for (int lane = 0; lane < VecF::size(); ++lane) {
        ASSERT_EQ(lane_bits(v, lane), bits_of(x)) << x << " lane " << lane;
      }
    }
    const double double_nan = std::bit_cast<double>(uint64_t{0x7FF8000000001234u});
    for (double x : {-0.0, 0.0, double_nan, -std::numeric_limits<double>::denorm_min()}) {
      const VecD v(x);
      for (int lane = 0; lane < VecD::size(); ++lane) {
        ASSERT_EQ(lane_bits(v, lane), bits_of(x)) << x << " lane " << lane;
      }
    }
    // Through arithmetic as a kernel uses it: -0.0 + -0.0 is -0.0, -0.0 * 1 is -0.0.
    EXPECT_TRUE(std::signbit((VecF(-0.0f) + VecF(-0.0f))[VecF::size() - 1]));
    EXPECT_TRUE(std::signbit((VecD(-0.0) * VecD(1.0))[0]));
    EXPECT_EQ((Vectorized<int8_t, width>(int8_t{-128})[Vectorized<int8_t, width>::size() - 1]),
              -128);
    EXPECT_EQ((Vectorized<int64_t, width>(std::numeric_limits<int64_t>::min())[1]),
              std::numeric_limits<int64_t>::min());
  });
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

TEST(Vectorized, BitwiseOperationsActOnIntegerLanes) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecB = Vectorized<int8_t, width>;
    using VecL = Vectorized<int64_t, width>;
    const int last = VecB::size() - 1;
    EXPECT_EQ((VecB(0x5A) & VecB(0x0F))[last], 0x0A);
    EXPECT_EQ((VecB(0x50) | VecB(0x0F))[0], 0x5F);
    EXPECT_EQ((VecB(-1) ^ VecB(0x0F))[last], -16);
    EXPECT_EQ((VecL(int64_t{1} << 40) ^ VecL(-1))[1], ~(int64_t{1} << 40));
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

// Of equal lanes the first, as std::max / std::min and torch.maximum's scalar loop.
TEST(Vectorized, MaximumAndMinimumOfEqualLanesGiveTheFirst) {
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    using VecD = Vectorized<double, width>;
    EXPECT_FALSE(std::signbit(maximum(VecD(0.0), VecD(-0.0))[0]));
    EXPECT_TRUE(std::signbit(maximum(VecD(-0.0), VecD(0.0))[1]));
    EXPECT_FALSE(std::signbit(minimum(VecD(0.0), VecD(-0.0))[0]));
    EXPECT_TRUE(std::signbit(minimum(VecD(-0.0), VecD(0.0))[1]));
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
