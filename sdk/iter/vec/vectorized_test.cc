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

// a / b of every pair of `values` (b != 0, not the minimum by -1) as C's division: pairs within
// 2^23 (int32: in float), 2^52 (in double) and beyond, and vectors that mix them.
template <typename Vec>
[[gnu::always_inline]] inline void expect_division_exact(const std::vector<int64_t>& values) {
  using T = typename Vec::value_type;
  constexpr int kLanes = Vec::size();
  std::vector<T> a, b;
  for (int64_t x : values) {
    for (int64_t y : values) {
      if (static_cast<T>(y) == 0) continue;
      if (static_cast<T>(x) == std::numeric_limits<T>::min() && static_cast<T>(y) == -1) continue;
      a.push_back(static_cast<T>(x));
      b.push_back(static_cast<T>(y));
    }
  }
  while (a.size() % kLanes != 0) {
    a.push_back(1);
    b.push_back(1);
  }
  for (size_t i = 0; i < a.size(); i += kLanes) {
    T q[kLanes];
    (Vec::loadu(&a[i]) / Vec::loadu(&b[i])).store(q);
    for (int k = 0; k < kLanes; ++k) {
      ASSERT_EQ(q[k], static_cast<T>(a[i + k] / b[i + k])) << a[i + k] << " / " << b[i + k];
    }
  }
}

TEST(Vectorized, IntegerDivisionTruncatesExactly) {
  std::vector<int64_t> values = {
      0,          1,          2,          3,       5,        7,       10,      1000,
      65535,      65536,      8388607,    8388608, 8388609,  4194305, 1 << 24, (1 << 24) + 1,
      2147483647, 2147483646, 1073741824, 46341,   999999999};
  const size_t n = values.size();
  for (size_t k = 0; k < n; ++k) values.push_back(-values[k]);
  values.push_back(std::numeric_limits<int32_t>::min());
  std::vector<int64_t> wide = values;
  for (int64_t v : {int64_t{1} << 51, (int64_t{1} << 52) - 1, int64_t{1} << 52,
                    (int64_t{1} << 53) + 1, int64_t{3} << 60, std::numeric_limits<int64_t>::max(),
                    int64_t{999999999999}, int64_t{4503599627370495}}) {
    wide.push_back(v);
    wide.push_back(-v);
  }
  wide.push_back(std::numeric_limits<int64_t>::min());
  uint64_t state = 7;
  for (int i = 0; i < 300; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values.push_back(static_cast<int32_t>(state >> 32) >> (state % 31));
    wide.push_back(static_cast<int64_t>(state) >> (state % 63));
  }
  on_every_isa([&](auto width) __attribute__((always_inline)) {
    expect_division_exact<Vectorized<int32_t, width>>(values);
    expect_division_exact<Vectorized<int64_t, width>>(wide);
  });
  expect_division_exact<Vectorized<int32_t, 64>>(values);
  expect_division_exact<Vectorized<int64_t, 16>>(wide);
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

}  // namespace
}  // namespace bp
