#include "conformance/framework/wide.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace bp::conformance {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// Wraps an integer to the width of an integral dtype (bool: non-zero).
int64_t wrap_to(int64_t v, ScalarType to) {
  switch (to) {
    case ScalarType::kBool:
      return v != 0 ? 1 : 0;
    case ScalarType::kUInt8:
      return static_cast<uint8_t>(static_cast<uint64_t>(v));
    case ScalarType::kInt8:
      return static_cast<int8_t>(static_cast<uint64_t>(v));
    case ScalarType::kInt16:
      return static_cast<int16_t>(static_cast<uint64_t>(v));
    case ScalarType::kInt32:
      return static_cast<int32_t>(static_cast<uint64_t>(v));
    default:
      return v;
  }
}

// Floating to int64 the x86 way: truncation, and INT64_MIN outside the range (and for NaN).
int64_t truncate(double v) {
  if (!(v >= -0x1p63 && v < 0x1p63)) return kInt64Min;
  return static_cast<int64_t>(v);
}

// Rounds a double to the precision of a floating dtype (float16 / bfloat16 through float32).
double round_real(double v, ScalarType to) {
  switch (to) {
    case ScalarType::kFloat16:
      return static_cast<float>(Half(static_cast<float>(v)));
    case ScalarType::kBFloat16:
      return static_cast<float>(BFloat16(static_cast<float>(v)));
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return static_cast<float>(v);
    default:
      return v;
  }
}

// An integer to a floating dtype: one rounding from the integer (int64 -> float32 directly, as a
// C++ cast does), float16 / bfloat16 through float32.
double int_to_real(int64_t v, ScalarType to) {
  switch (to) {
    case ScalarType::kFloat16:
    case ScalarType::kBFloat16:
    case ScalarType::kFloat32:
    case ScalarType::kComplex64:
      return round_real(static_cast<float>(v), to);
    default:
      return static_cast<double>(v);
  }
}

}  // namespace

Int trunc_div(Int a, Int b) {
  if (b.v == -1) return -a;  // INT64_MIN / -1 wraps instead of trapping
  return Int(a.v / b.v);
}

Int trunc_mod(Int a, Int b) {
  if (b.v == -1) return Int(0);
  return Int(a.v % b.v);
}

Int floor_div(Int a, Int b) {
  Int q = trunc_div(a, b);
  Int r = trunc_mod(a, b);
  if (r.v != 0 && ((r.v < 0) != (b.v < 0))) q = q - Int(1);
  return q;
}

Int floor_mod(Int a, Int b) {
  Int r = trunc_mod(a, b);
  if (r.v != 0 && ((r.v < 0) != (b.v < 0))) r = r + b;
  return r;
}

Kind kind_of(ScalarType dtype) {
  if (is_complex(dtype)) return Kind::kComplex;
  if (is_floating_point(dtype)) return Kind::kReal;
  return Kind::kInt;
}

Int as_int(const Wide& w, ScalarType from) {
  switch (kind_of(from)) {
    case Kind::kInt:
      return Int(w.i);
    case Kind::kReal:
    case Kind::kComplex:
      return Int(truncate(w.z.real()));
  }
  return Int(0);
}

double as_real(const Wide& w, ScalarType from) {
  return kind_of(from) == Kind::kInt ? static_cast<double>(w.i) : w.z.real();
}

cd as_complex(const Wide& w, ScalarType from) {
  return kind_of(from) == Kind::kInt ? cd(static_cast<double>(w.i), 0) : w.z;
}

Wide cast(const Wide& w, ScalarType from, ScalarType to) {
  const Kind source = kind_of(from);
  if (to == ScalarType::kBool) {
    const bool nonzero = source == Kind::kInt ? w.i != 0 : (w.z.real() != 0 || w.z.imag() != 0);
    return from_int(Int(nonzero ? 1 : 0));
  }
  switch (kind_of(to)) {
    case Kind::kInt:
      return from_int(Int(wrap_to(as_int(w, from).v, to)));
    case Kind::kReal:
      return from_real(source == Kind::kInt ? int_to_real(w.i, to) : round_real(w.z.real(), to));
    case Kind::kComplex:
      if (source == Kind::kInt) return from_complex(cd(int_to_real(w.i, to), 0));
      return from_complex(cd(round_real(w.z.real(), to), round_real(w.z.imag(), to)));
  }
  return w;
}

bool identical(const Wide& a, const Wide& b, ScalarType dtype) {
  if (kind_of(dtype) == Kind::kInt) return a.i == b.i;
  auto same = [](double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  };
  return same(a.z.real(), b.z.real()) && same(a.z.imag(), b.z.imag());
}

std::string to_string(const Wide& w, ScalarType dtype) {
  auto real = [](double v) -> std::string {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == 0) return std::signbit(v) ? "-0" : "0";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", v);
    return buffer;
  };
  switch (kind_of(dtype)) {
    case Kind::kInt:
      if (dtype == ScalarType::kBool) return w.i != 0 ? "true" : "false";
      return std::to_string(w.i);
    case Kind::kReal:
      return real(w.z.real());
    case Kind::kComplex:
      return "(" + real(w.z.real()) + ", " + real(w.z.imag()) + ")";
  }
  return "?";
}

Wide add(const Wide& a, const Wide& b, ScalarType t) {
  switch (kind_of(t)) {
    case Kind::kInt:
      return from_int(Int(a.i) + Int(b.i));
    case Kind::kReal:
      return from_real(a.z.real() + b.z.real());
    case Kind::kComplex:
      break;
  }
  return from_complex(a.z + b.z);
}

Wide mul(const Wide& a, const Wide& b, ScalarType t) {
  switch (kind_of(t)) {
    case Kind::kInt:
      return from_int(Int(a.i) * Int(b.i));
    case Kind::kReal:
      return from_real(a.z.real() * b.z.real());
    case Kind::kComplex:
      break;
  }
  return from_complex(a.z * b.z);
}

Wide round_to(const Wide& w, ScalarType t) {
  switch (kind_of(t)) {
    case Kind::kInt:
      return cast(w, ScalarType::kInt64, t);
    case Kind::kReal:
      return cast(w, ScalarType::kFloat64, t);
    case Kind::kComplex:
      break;
  }
  return cast(w, ScalarType::kComplex128, t);
}

}  // namespace bp::conformance
