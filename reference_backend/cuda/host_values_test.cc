// The plugin's host-side conversions agree with the SDK's (which the plugin cannot link): Scalar
// arguments convert as Scalar::to_unchecked, CPU scalar operands as element_cast, and the
// overflow check of fill_ as element_overflows, for every dtype and a spread of values.
#include "reference_backend/cuda/host_values.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/error.h"
#include "sdk/core/element_cast.h"
#include "sdk/core/scalar.h"

namespace bp::cuda {
namespace {

ScalarType sdk_type(Dtype d) { return static_cast<ScalarType>(code(d)); }

std::vector<bp_value> sample_values() {
  std::vector<bp_value> values;
  auto add = [&](bp_value v) { values.push_back(v); };
  for (bool b : {false, true}) add(bp_value{BP_VALUE_BOOL, {.b = b}});
  for (int64_t i :
       {int64_t{0}, int64_t{-1}, int64_t{255}, int64_t{256}, int64_t{-255}, int64_t{-256},
        int64_t{70000}, int64_t{-129}, int64_t{1} << 40, INT64_MIN, INT64_MAX}) {
    add(bp_value{BP_VALUE_INT, {.i = i}});
  }
  const double nan = std::nan("");
  for (double d : {0.0, -0.0, 1.5, -1.5, 255.9, 256.0, -129.0, 65504.0, 65520.0, 1e39, -1e39,
                   9.3e18, -9.3e18, 1e300, HUGE_VAL, -HUGE_VAL, nan}) {
    add(bp_value{BP_VALUE_DOUBLE, {.d = d}});
  }
  bp_value z{BP_VALUE_COMPLEX, {}};
  for (auto [re, im] :
       {std::pair{1.5, 0.0}, std::pair{1.5, 2.0}, std::pair{1e39, 0.0}, std::pair{nan, 0.0}}) {
    z.u.c.re = re;
    z.u.c.im = im;
    add(z);
  }
  return values;
}

Scalar sdk_scalar(const bp_value& v) {
  switch (v.tag) {
    case BP_VALUE_BOOL:
      return Scalar(v.u.b);
    case BP_VALUE_INT:
      return Scalar(v.u.i);
    case BP_VALUE_DOUBLE:
      return Scalar(v.u.d);
    default:
      return Scalar(complex<double>(v.u.c.re, v.u.c.im));
  }
}

TEST(HostValues, ScalarArgumentsConvertAsTheSdkConvertsThem) {
  for (const bp_value& v : sample_values()) {
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype to = dtype_of_code(d);
      const jit::Value mine = scalar_as(v, to);
      visit_dtype(sdk_type(to), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T expected = sdk_scalar(v).to_unchecked<T>();
        // Compare as bytes, except NaNs (any payload).
        T got;
        std::memcpy(&got, mine.bytes, sizeof got);
        const complex<double> g = element_cast<complex<double>>(got);
        const complex<double> e = element_cast<complex<double>>(expected);
        if (std::isnan(e.real()) || std::isnan(e.imag())) {
          EXPECT_TRUE(std::isnan(g.real()) || std::isnan(g.imag())) << info(to).name;
        } else {
          EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
              << sdk_scalar(v) << " -> " << info(to).name << ": " << g << " vs " << e;
        }
      });
    }
  }
}

TEST(HostValues, OverflowChecksAgreeWithTheSdksCheckedConversion) {
  for (const bp_value& v : sample_values()) {
    for (int d = 0; d < kNumDtypes; ++d) {
      const Dtype to = dtype_of_code(d);
      EXPECT_EQ(scalar_overflows(v, to), sdk_scalar(v).overflows(sdk_type(to)))
          << sdk_scalar(v) << " -> " << info(to).name;
    }
  }
}

TEST(HostValues, AnOverflowingFillValueGivesPyTorchsMessage) {
  try {
    check_scalar_fits(bp_value{BP_VALUE_INT, {.i = 300}}, Dtype::kUInt8);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), BP_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(e.what(), "value cannot be converted to type uint8_t without overflow");
  }
}

TEST(HostValues, CpuScalarOperandsConvertThroughTheCommonDtype) {
  // int64 2049 -> float16 rounds to 2048 -> float32 2048 (not 2049, as a direct cast would).
  const int64_t x = 2049;
  const jit::Value v = element_as(&x, Dtype::kInt64, Dtype::kFloat16, Dtype::kFloat32);
  EXPECT_EQ(value_to_double(v, Dtype::kFloat32), 2048.0);
}

}  // namespace
}  // namespace bp::cuda
