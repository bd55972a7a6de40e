#include "reference_backend/cuda/host_values.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "reference_backend/cuda/error.h"
#include "sdk/core/portable/element_cast.h"

namespace bp::cuda {
namespace {

template <typename T>
struct Tag {
  using type = T;
};

// Calls fn(Tag<T>{}) with T the device element type of `dtype`.
template <typename Fn>
decltype(auto) visit(Dtype dtype, Fn&& fn) {
  switch (dtype) {
    case Dtype::kBool:
      return fn(Tag<bool>{});
    case Dtype::kUInt8:
      return fn(Tag<uint8_t>{});
    case Dtype::kInt8:
      return fn(Tag<int8_t>{});
    case Dtype::kInt16:
      return fn(Tag<int16_t>{});
    case Dtype::kInt32:
      return fn(Tag<int32_t>{});
    case Dtype::kInt64:
      return fn(Tag<int64_t>{});
    case Dtype::kFloat16:
      return fn(Tag<Half>{});
    case Dtype::kBFloat16:
      return fn(Tag<BFloat16>{});
    case Dtype::kFloat32:
      return fn(Tag<float>{});
    case Dtype::kFloat64:
      return fn(Tag<double>{});
    case Dtype::kComplex64:
      return fn(Tag<complex<float>>{});
    case Dtype::kComplex128:
      break;
  }
  return fn(Tag<complex<double>>{});
}

template <typename T>
jit::Value value_of(const T& x) {
  static_assert(sizeof(T) <= sizeof(jit::Value));
  jit::Value v{};
  std::memcpy(v.bytes, &x, sizeof x);
  return v;
}

template <typename From>
jit::Value cast_to(const From& x, Dtype to) {
  return visit(to, [&](auto tag) {
    using To = typename decltype(tag)::type;
    return value_of(element_cast<To>(x));
  });
}

}  // namespace

jit::Value scalar_as(const bp_value& value, Dtype to) {
  switch (value.tag) {
    case BP_VALUE_BOOL:
      return cast_to(value.u.b, to);
    case BP_VALUE_INT:
      return cast_to(static_cast<int64_t>(value.u.i), to);
    case BP_VALUE_DOUBLE:
      return cast_to(value.u.d, to);
    case BP_VALUE_COMPLEX:
      return cast_to(complex<double>(value.u.c.re, value.u.c.im), to);
    default:
      throw Error(BP_ERROR_TYPE, detail::concat("expected a Scalar (bool, int, float or complex) "
                                                "but got a value with tag ",
                                                value.tag));
  }
}

jit::Value element_as(const void* data, Dtype from, Dtype via, Dtype to) {
  return visit(from, [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    From x;
    std::memcpy(&x, data, sizeof x);
    return visit(via, [&](auto via_tag) {
      using Via = typename decltype(via_tag)::type;
      return cast_to(element_cast<Via>(x), to);
    });
  });
}

namespace {

struct Limits {
  double lowest, max;  // finite range
  int digits;          // integers: value bits (2^digits is the first value past max)
  bool integral, is_unsigned;
};

Limits limits_of(Dtype d) {
  switch (d) {
    case Dtype::kUInt8:
      return {0, 255, 8, true, true};
    case Dtype::kInt8:
      return {-128, 127, 7, true, false};
    case Dtype::kInt16:
      return {-32768, 32767, 15, true, false};
    case Dtype::kInt32:
      return {-2147483648.0, 2147483647.0, 31, true, false};
    case Dtype::kInt64:
      return {-9223372036854775808.0, 9223372036854775807.0, 63, true, false};
    case Dtype::kFloat16:
      return {-65504.0, 65504.0, 11, false, false};
    case Dtype::kBFloat16:
      return {-3.3895313892515355e38, 3.3895313892515355e38, 8, false, false};
    case Dtype::kFloat32:
    case Dtype::kComplex64:
      return {-3.4028234663852886e38, 3.4028234663852886e38, 24, false, false};
    default:
      return {-1.7976931348623157e308, 1.7976931348623157e308, 53, false, false};
  }
}

bool integer_overflows(int64_t v, Dtype to) {
  const Limits l = limits_of(to);
  if (!l.integral) return static_cast<double>(v) < l.lowest || static_cast<double>(v) > l.max;
  if (to == Dtype::kInt64) return false;
  const int64_t lowest = static_cast<int64_t>(l.lowest), max = static_cast<int64_t>(l.max);
  if (l.is_unsigned && v < 0) return -static_cast<uint64_t>(v) > static_cast<uint64_t>(max);
  return v < lowest || v > max;
}

bool floating_overflows(double v, Dtype to) {
  const Limits l = limits_of(to);
  if (std::isinf(v)) return l.integral;
  if (std::isnan(v)) return l.integral;
  if (l.integral) return v < l.lowest || v >= std::ldexp(1.0, l.digits);
  return v < l.lowest || v > l.max;
}

}  // namespace

bool scalar_overflows(const bp_value& value, Dtype to) {
  if (to == Dtype::kBool) return false;
  switch (value.tag) {
    case BP_VALUE_BOOL:
      return false;
    case BP_VALUE_INT:
      return integer_overflows(value.u.i, to);
    case BP_VALUE_DOUBLE:
      return floating_overflows(value.u.d, to);
    case BP_VALUE_COMPLEX:
      if (!info(to).is_complex && value.u.c.im != 0) return true;
      return floating_overflows(value.u.c.re, to) || floating_overflows(value.u.c.im, to);
    default:
      throw Error(BP_ERROR_TYPE,
                  detail::concat("expected a Scalar but got a value with tag ", value.tag));
  }
}

void check_scalar_fits(const bp_value& value, Dtype to) {
  BP_CUDA_CHECK(!scalar_overflows(value, to), BP_ERROR_INVALID_ARGUMENT,
                "value cannot be converted to type ", info(to).pytorch_type, " without overflow");
}

double value_to_double(const jit::Value& value, Dtype dtype) {
  return visit(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T x;
    std::memcpy(&x, value.bytes, sizeof x);
    return element_cast<double>(x);
  });
}

}  // namespace bp::cuda
