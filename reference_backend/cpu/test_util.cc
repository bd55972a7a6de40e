#include "reference_backend/cpu/test_util.h"

#include <cmath>
#include <cstring>

#include "gtest/gtest.h"
#include "sdk/core/error.h"
#include "sdk/ops/ops.h"

namespace bp::test {
namespace {

std::vector<ScalarType> dtypes_where(bool (*keep)(ScalarType)) {
  std::vector<ScalarType> out;
  for (const ScalarTypeInfo& info : kScalarTypeInfos) {
    if (keep(info.type)) out.push_back(info.type);
  }
  return out;
}

// A tensor of the C++ element type T holding `values`, converted to `dtype` by copy_.
template <typename T>
Tensor converted(ScalarType dtype, const std::vector<T>& values, std::vector<int64_t> sizes) {
  if (sizes.empty()) sizes = {static_cast<int64_t>(values.size())};
  Tensor source = bp::empty(sizes, scalar_type_of<T>, kCpu);
  EXPECT_EQ(static_cast<size_t>(source.numel()), values.size());
  // An empty tensor's data may be null, which memcpy must not get even for 0 bytes.
  if (!values.empty()) std::memcpy(source.data_ptr(), values.data(), values.size() * sizeof(T));
  if (dtype == source.dtype()) return source;
  Tensor result = bp::empty(sizes, dtype, kCpu);
  bp::copy_(result, source);
  return result;
}

// The elements of `t` as element type T, in logical order.
template <typename T>
std::vector<T> elements_as(const Tensor& t) {
  Tensor c = bp::empty(t.sizes(), scalar_type_of<T>, kCpu);
  bp::copy_(c, t);
  const T* p = c.data_ptr<T>();
  return std::vector<T>(p, p + c.numel());
}

bool same_value(double actual, double expected, double rel_tol) {
  if (std::isnan(expected)) return std::isnan(actual);
  if (expected == 0 && rel_tol == 0) {
    return actual == 0 && std::signbit(actual) == std::signbit(expected);
  }
  if (std::isinf(expected) || rel_tol == 0) return actual == expected;
  return std::fabs(actual - expected) <= rel_tol * std::max(1.0, std::fabs(expected));
}

}  // namespace

std::vector<ScalarType> all_dtypes() {
  return dtypes_where([](ScalarType) { return true; });
}
std::vector<ScalarType> integral_dtypes() {
  return dtypes_where([](ScalarType t) { return is_integral(t, /*include_bool=*/false); });
}
std::vector<ScalarType> signed_integral_dtypes() {
  return dtypes_where([](ScalarType t) { return is_integral(t, false) && is_signed(t); });
}
std::vector<ScalarType> floating_dtypes() {
  return dtypes_where([](ScalarType t) { return is_floating_point(t); });
}
std::vector<ScalarType> complex_dtypes() {
  return dtypes_where([](ScalarType t) { return is_complex(t); });
}

Tensor tensor_of(ScalarType dtype, const std::vector<double>& values, std::vector<int64_t> sizes) {
  if (is_integral(dtype, /*include_bool=*/false)) {
    std::vector<int64_t> ints(values.begin(), values.end());
    return converted(dtype, ints, std::move(sizes));
  }
  return converted(dtype, values, std::move(sizes));
}

Tensor complex_tensor_of(ScalarType dtype, const std::vector<std::complex<double>>& values) {
  std::vector<complex<double>> elements(values.begin(), values.end());
  return converted(dtype, elements, {});
}

Tensor int_tensor_of(ScalarType dtype, const std::vector<int64_t>& values) {
  return converted(dtype, values, {});
}

std::vector<double> values_of(const Tensor& t) { return elements_as<double>(t); }

std::vector<std::complex<double>> complex_values_of(const Tensor& t) {
  std::vector<std::complex<double>> out;
  for (const complex<double>& z : elements_as<complex<double>>(t)) out.emplace_back(z);
  return out;
}

std::vector<int64_t> int_values_of(const Tensor& t) { return elements_as<int64_t>(t); }

void expect_values(const Tensor& t, ScalarType dtype, const std::vector<double>& expected,
                   double rel_tol) {
  ASSERT_EQ(t.dtype(), dtype);
  const std::vector<double> actual = values_of(t);
  ASSERT_EQ(actual.size(), expected.size()) << dtype;
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_TRUE(same_value(actual[i], expected[i], rel_tol))
        << dtype << " element " << i << ": got " << actual[i] << ", expected " << expected[i];
  }
}

void expect_complex_values(const Tensor& t, ScalarType dtype,
                           const std::vector<std::complex<double>>& expected, double rel_tol) {
  ASSERT_EQ(t.dtype(), dtype);
  const std::vector<std::complex<double>> actual = complex_values_of(t);
  ASSERT_EQ(actual.size(), expected.size()) << dtype;
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_TRUE(same_value(actual[i].real(), expected[i].real(), rel_tol) &&
                same_value(actual[i].imag(), expected[i].imag(), rel_tol))
        << dtype << " element " << i << ": got " << actual[i] << ", expected " << expected[i];
  }
}

void expect_int_values(const Tensor& t, ScalarType dtype, const std::vector<int64_t>& expected) {
  ASSERT_EQ(t.dtype(), dtype);
  EXPECT_EQ(int_values_of(t), expected) << dtype;
}

double tolerance_of(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::kFloat16:
      return 2e-3;
    case ScalarType::kBFloat16:
      return 1e-2;
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return 1e-6;
    default:
      return 1e-13;
  }
}

void expect_same(const Tensor& actual, const Tensor& expected) {
  ASSERT_EQ(actual.dtype(), expected.dtype());
  ASSERT_EQ(actual.sizes(), expected.sizes());
  if (is_complex(expected.dtype())) {
    expect_complex_values(actual, expected.dtype(), complex_values_of(expected));
  } else {
    expect_values(actual, expected.dtype(), values_of(expected));
  }
}

void expect_same_geometry(const Tensor& actual, const Tensor& expected) {
  EXPECT_EQ(actual.sizes(), expected.sizes());
  EXPECT_EQ(actual.strides(), expected.strides());
  EXPECT_EQ(actual.dtype(), expected.dtype());
}

int64_t min_of(ScalarType dtype) {
  return visit_dtype(dtype, [](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::min();
    } else {
      return 0;
    }
  });
}

int64_t max_of(ScalarType dtype) {
  return visit_dtype(dtype, [](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      return static_cast<int64_t>(std::numeric_limits<T>::max());
    } else {
      return 0;
    }
  });
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

}  // namespace bp::test
