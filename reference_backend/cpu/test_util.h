// Helpers for the CPU kernel tests: tensors of any dtype from plain values, their values back as
// doubles (or complex doubles), value comparisons that tell NaN and signed zeros apart, and the
// message of a failing call.
//
//   Tensor x = tensor_of(ScalarType::kFloat16, {1.5, -0.0, kNan});
//   expect_values(bp::abs(x), {1.5, 0.0, kNan});   // exact, -0.0 != +0.0, NaN == NaN
//   EXPECT_EQ(message_of([&] { bp::abs(flags); }), "\"abs\" not implemented for 'bool'");
//
// Thread safety: test code, one thread.
#ifndef BACKPLANE_REFERENCE_BACKEND_CPU_TEST_UTIL_H_
#define BACKPLANE_REFERENCE_BACKEND_CPU_TEST_UTIL_H_

#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::test {

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline const Device kCpu(DeviceType::kCPU);
inline const Device kMeta(DeviceType::kMeta);

// Every dtype, and the dtypes of each category.
std::vector<ScalarType> all_dtypes();
std::vector<ScalarType> integral_dtypes();  // uint8, int8, int16, int32, int64
std::vector<ScalarType> signed_integral_dtypes();
std::vector<ScalarType> floating_dtypes();  // float16, bfloat16, float32, float64
std::vector<ScalarType> complex_dtypes();

// A 1-d CPU tensor of `dtype` holding `values` converted as PyTorch converts (e.g. -1 to uint8
// is 255), or with `sizes` when given (their product must be values.size()).
Tensor tensor_of(ScalarType dtype, const std::vector<double>& values,
                 std::vector<int64_t> sizes = {});
Tensor complex_tensor_of(ScalarType dtype, const std::vector<std::complex<double>>& values);
// Integers given exactly (values beyond 2^53, e.g. INT64_MIN, survive).
Tensor int_tensor_of(ScalarType dtype, const std::vector<int64_t>& values);

// The elements in logical (C) order, converted to double / complex<double> / int64.
std::vector<double> values_of(const Tensor& t);
std::vector<std::complex<double>> complex_values_of(const Tensor& t);
std::vector<int64_t> int_values_of(const Tensor& t);

// Expects `t` to have `dtype` and, element by element, exactly `expected` (NaN matches NaN, and
// zeros must have the expected sign), or within `rel_tol` of it (relative, or absolute near 0)
// when rel_tol > 0.
void expect_values(const Tensor& t, ScalarType dtype, const std::vector<double>& expected,
                   double rel_tol = 0);
void expect_complex_values(const Tensor& t, ScalarType dtype,
                           const std::vector<std::complex<double>>& expected, double rel_tol = 0);
void expect_int_values(const Tensor& t, ScalarType dtype, const std::vector<int64_t>& expected);

// The relative tolerance for results computed in the math of `dtype` and rounded to it: a few
// units in its last place.
double tolerance_of(ScalarType dtype);

// Expects two tensors to have the same dtype, sizes and exactly the same values.
void expect_same(const Tensor& actual, const Tensor& expected);
// Expects the same sizes, strides and dtype (e.g. a Meta result and a CPU result).
void expect_same_geometry(const Tensor& actual, const Tensor& expected);

// The smallest and largest value of an integer dtype.
int64_t min_of(ScalarType dtype);
int64_t max_of(ScalarType dtype);

// The message of the bp::Error `f` throws, or "(no error)".
std::string message_of(const std::function<void()>& f);

}  // namespace bp::test

#endif  // BACKPLANE_REFERENCE_BACKEND_CPU_TEST_UTIL_H_
