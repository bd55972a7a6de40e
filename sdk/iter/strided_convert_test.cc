#include "sdk/iter/strided_convert.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/bfloat16.h"
#include "sdk/core/half.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

constexpr int64_t kCount = 1000;

// Random bytes, then values every cast must get right written over the first elements: signed
// zeros, subnormals, limits, infinities, NaNs with payloads, integers that floats cannot hold.
std::vector<unsigned char> source_bytes(ScalarType type) {
  const size_t size = element_size(type);
  std::vector<unsigned char> bytes(kCount * size + 1);  // +1: the source starts at an odd address
  std::mt19937 rng(static_cast<unsigned>(type) + 1);
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng());
  auto put = [&](int64_t i, auto value) { std::memcpy(&bytes[1 + i * size], &value, size); };
  const double doubles[] = {0.0,
                            -0.0,
                            1.0,
                            -1.5,
                            0.1,
                            65504.0,
                            65520.0,
                            1e-8,
                            1e-40,
                            1e-310,
                            3.4028235677973366e38,
                            3.4028235677973366e38 * 1.0000001,
                            1e300,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::nan(""),
                            16777217.0,
                            2147483648.0,
                            -2147483649.0,
                            1.0000000596046448 /* a float tie */};
  int64_t i = 0;
  if (type == ScalarType::kFloat64) {
    for (double d : doubles) put(i++, d);
    put(i++, uint64_t{0x7FF0000000000001});  // signalling NaN
    put(i++, uint64_t{0xFFF8000000012345});  // quiet NaN, negative, with a payload
  } else if (type == ScalarType::kFloat32) {
    for (double d : doubles) put(i++, static_cast<float>(d));
    put(i++, uint32_t{0x7F800001});
    put(i++, uint32_t{0xFFC12345});
    put(i++, uint32_t{0x00000001});
  } else if (type == ScalarType::kInt32) {
    for (int32_t v : {0, 1, -1, 16777217, -16777217, 2147483647, -2147483647 - 1, 123456789}) {
      put(i++, v);
    }
  }
  return bytes;
}

// Contiguous casts (vector paths where there are some) against the same casts with strides,
// which run element by element through element_cast.
TEST(ConvertElements, ContiguousCastsMatchElementByElementOnEveryIsa) {
  const ScalarType types[] = {ScalarType::kFloat32, ScalarType::kFloat64, ScalarType::kFloat16,
                              ScalarType::kBFloat16, ScalarType::kInt32};
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected_cpu_capability()) continue;
    set_cpu_capability(c);
    for (ScalarType to : types) {
      for (ScalarType from : types) {
        const int64_t to_size = static_cast<int64_t>(element_size(to));
        const int64_t from_size = static_cast<int64_t>(element_size(from));
        const std::vector<unsigned char> src = source_bytes(from);
        std::vector<unsigned char> spread(kCount * 2 * from_size);
        for (int64_t i = 0; i < kCount; ++i) {
          std::memcpy(&spread[i * 2 * from_size], &src[1 + i * from_size], from_size);
        }
        for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{16}, int64_t{33}, kCount}) {
          std::vector<unsigned char> got(n * to_size + 1, 0xAB), want(n * 2 * to_size);
          convert_elements(to, reinterpret_cast<char*>(&got[1]), to_size, from,
                           reinterpret_cast<const char*>(&src[1]), from_size, n);
          convert_elements(to, reinterpret_cast<char*>(want.data()), 2 * to_size, from,
                           reinterpret_cast<const char*>(spread.data()), 2 * from_size, n);
          const std::string where = std::string(cpu_capability_name(c)) + ": " +
                                    std::string(scalar_type_name(from)) + " -> " +
                                    std::string(scalar_type_name(to)) + ", n " + std::to_string(n);
          ASSERT_EQ(got[0], 0xAB) << where;
          for (int64_t i = 0; i < n; ++i) {
            ASSERT_EQ(std::memcmp(&got[1 + i * to_size], &want[i * 2 * to_size], to_size), 0)
                << where << ", element " << i;
          }
        }
      }
    }
  }
  set_cpu_capability(detected_cpu_capability());
}

}  // namespace
}  // namespace bp
