#include "sdk/iter/vec/half_convert.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/bfloat16.h"
#include "sdk/core/half.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

constexpr ScalarType kF32 = ScalarType::kFloat32;
constexpr ScalarType kF16 = ScalarType::kFloat16;
constexpr ScalarType kBF16 = ScalarType::kBFloat16;

// The scalar conversions the vector paths must reproduce bit for bit.
uint32_t float_from_half(uint16_t h) { return std::bit_cast<uint32_t>(float(Half::from_bits(h))); }
uint32_t float_from_bfloat16(uint16_t b) {
  return std::bit_cast<uint32_t>(float(BFloat16::from_bits(b)));
}
uint16_t half_from_float(uint32_t f) { return Half(std::bit_cast<float>(f)).bits; }
uint16_t bfloat16_from_float(uint32_t f) { return BFloat16(std::bit_cast<float>(f)).bits; }

// Every ISA this CPU has, each run with the vector path it selects (kDefault has none). On a CPU
// with AVX512_BF16 the AVX-512 integer rounding of bfloat16 runs for the vectors that hold a
// subnormal or NaN lane, which the sweeps are full of.
class HalfConvert : public testing::TestWithParam<CpuCapability> {
 protected:
  void SetUp() override {
    if (GetParam() > detected_cpu_capability()) {
      GTEST_SKIP() << "this CPU (or build: see cpu_capability.h) lacks "
                   << cpu_capability_name(GetParam());
    }
    set_cpu_capability(GetParam());
  }
  void TearDown() override { set_cpu_capability(detected_cpu_capability()); }

  // Converts `src` with convert_reduced_floats; checks that it took a vector path exactly when
  // the ISA has one. Returns the results as raw bits.
  template <typename Out, typename In>
  std::vector<Out> convert(ScalarType dst_type, ScalarType src_type, const std::vector<In>& src) {
    std::vector<Out> dst(src.size());
    const bool vectorised = convert_reduced_floats(dst_type, dst.data(), src_type, src.data(),
                                                   static_cast<int64_t>(src.size()));
    EXPECT_EQ(vectorised, GetParam() != CpuCapability::kDefault);
    if (!vectorised) {  // the baseline: nothing to compare but the scalar code with itself
      for (size_t i = 0; i < src.size(); ++i) dst[i] = scalar<Out>(dst_type, src_type, src[i]);
    }
    return dst;
  }

  // The scalar conversion of one element, as raw bits.
  template <typename Out, typename In>
  static Out scalar(ScalarType dst_type, ScalarType src_type, In bits) {
    uint32_t f = 0;  // through float, as element_cast converts between reduced floats
    if (src_type == kF32) f = static_cast<uint32_t>(bits);
    if (src_type == kF16) f = float_from_half(static_cast<uint16_t>(bits));
    if (src_type == kBF16) f = float_from_bfloat16(static_cast<uint16_t>(bits));
    if (dst_type == kF16) return static_cast<Out>(half_from_float(f));
    if (dst_type == kBF16) return static_cast<Out>(bfloat16_from_float(f));
    return static_cast<Out>(f);
  }

  // Expects convert() to match scalar() on every element; names the first few mismatches.
  template <typename Out, typename In>
  void expect_matches_scalar(ScalarType dst_type, ScalarType src_type, const std::vector<In>& src) {
    const std::vector<Out> got = convert<Out>(dst_type, src_type, src);
    int64_t mismatches = 0;
    for (size_t i = 0; i < src.size(); ++i) {
      const Out want = scalar<Out>(dst_type, src_type, src[i]);
      if (got[i] == want) continue;
      if (++mismatches <= 5) {
        ADD_FAILURE() << scalar_type_name(src_type) << " -> " << scalar_type_name(dst_type)
                      << " of 0x" << std::hex << static_cast<uint64_t>(src[i]) << ": got 0x"
                      << static_cast<uint64_t>(got[i]) << ", scalar gives 0x"
                      << static_cast<uint64_t>(want);
      }
    }
    EXPECT_EQ(mismatches, 0) << "of " << src.size() << " elements";
  }
};

std::vector<uint16_t> every_16_bit_pattern() {
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  return all;
}

// float32 patterns that exercise every rounding decision of both 16-bit formats: a stride over all
// 2^32 patterns (every exponent, both signs), ties and their neighbours at every bit position of
// every exponent (float16's subnormals drop 14 to 24 bits), named boundaries, and random ones.
std::vector<uint32_t> float_sweep() {
  std::vector<uint32_t> v;
  for (uint64_t f = 0; f < (uint64_t{1} << 32); f += 997) v.push_back(static_cast<uint32_t>(f));
  std::mt19937 rng(27);
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t exponent = 0; exponent < 256; ++exponent) {
      const uint32_t top = (sign << 31) | (exponent << 23);
      for (uint32_t m : {0u, 1u, 0x400000u, 0x7FFFFFu}) v.push_back(top | m);
      for (uint32_t p = 0; p < 23; ++p) {
        const uint32_t above = (0x7FFFFFu << (p + 1)) & 0x7FFFFFu;  // bits above the tie bit
        for (uint32_t high : {0u, above, static_cast<uint32_t>(rng()) & above,
                              static_cast<uint32_t>(rng()) & above}) {
          for (uint32_t delta : {0xFFFFFFFFu, 0u, 1u}) {  // tie - 1, tie, tie + 1
            v.push_back(top | (((high | (1u << p)) + delta) & 0x7FFFFFu));
          }
        }
      }
    }
  }
  for (uint32_t f : {0x477FEFFFu, 0x477FF000u, 0x477FF001u, 0x477FE000u, 0x47800000u, 0x387FFFFFu,
                     0x38800000u, 0x33000000u, 0x33000001u, 0x32FFFFFFu, 0x7F7FFFFFu, 0x7F7F8000u,
                     0x7F800000u, 0x7F800001u, 0x7FBFFFFFu, 0x7FC00000u, 0x7FFFFFFFu, 0x00000001u,
                     0x007FFFFFu, 0x007F8000u, 0x00008000u}) {
    v.push_back(f);
    v.push_back(f | 0x80000000u);
  }
  for (int i = 0; i < (1 << 20); ++i) v.push_back(static_cast<uint32_t>(rng()));
  return v;
}

TEST_P(HalfConvert, EveryFloat16PatternConvertsUpAsTheScalarCode) {
  const std::vector<uint16_t> all = every_16_bit_pattern();
  expect_matches_scalar<uint32_t>(kF32, kF16, all);
  expect_matches_scalar<uint16_t>(kBF16, kF16, all);
}

TEST_P(HalfConvert, EveryBFloat16PatternConvertsAsTheScalarCode) {
  const std::vector<uint16_t> all = every_16_bit_pattern();
  expect_matches_scalar<uint32_t>(kF32, kBF16, all);
  expect_matches_scalar<uint16_t>(kF16, kBF16, all);
}

TEST_P(HalfConvert, Float32SweepRoundsDownAsTheScalarCode) {
  const std::vector<uint32_t> sweep = float_sweep();
  expect_matches_scalar<uint16_t>(kF16, kF32, sweep);
  expect_matches_scalar<uint16_t>(kBF16, kF32, sweep);
}

// Every length up to a few vectors, from and to odd addresses, leaves the bytes around the
// destination alone.
TEST_P(HalfConvert, TailsAndUnalignedPointersWriteExactlyTheirElements) {
  std::mt19937 rng(5);
  std::vector<unsigned char> src(4 * 80 + 1), dst(4 * 80 + 8);
  for (unsigned char& b : src) b = static_cast<unsigned char>(rng());
  const ScalarType types[] = {kF32, kF16, kBF16};
  for (ScalarType to : types) {
    for (ScalarType from : types) {
      if (to == from) continue;
      const size_t to_size = element_size(to), from_size = element_size(from);
      for (int64_t n = 0; n <= 70; ++n) {
        std::fill(dst.begin(), dst.end(), 0xAB);
        const bool vectorised = convert_reduced_floats(to, dst.data() + 3, from, src.data() + 1, n);
        ASSERT_EQ(vectorised, GetParam() != CpuCapability::kDefault);
        if (!vectorised) continue;
        const std::string where = std::string(scalar_type_name(from)) + " -> " +
                                  std::string(scalar_type_name(to)) + ", n " + std::to_string(n);
        for (int64_t i = 0; i < n; ++i) {
          uint32_t in = 0, out = 0;
          std::memcpy(&in, src.data() + 1 + i * from_size, from_size);
          std::memcpy(&out, dst.data() + 3 + i * to_size, to_size);
          const uint32_t want =
              to == kF32 ? scalar<uint32_t>(to, from, in) : scalar<uint16_t>(to, from, in);
          ASSERT_EQ(out, want) << where << ", element " << i;
        }
        for (size_t b = 0; b < dst.size(); ++b) {
          if (b >= 3 && b < 3 + static_cast<size_t>(n) * to_size) continue;
          ASSERT_EQ(dst[b], 0xAB) << where << ": byte " << b << " written";
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, HalfConvert,
                         testing::Values(CpuCapability::kDefault, CpuCapability::kAvx2,
                                         CpuCapability::kAvx512),
                         [](const testing::TestParamInfo<CpuCapability>& info) {
                           return std::string(cpu_capability_name(info.param));
                         });

}  // namespace
}  // namespace bp
