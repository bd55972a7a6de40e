// bp::Scalar: one number of any dtype, as an op argument (alpha, fill value, the other operand
// of `tensor + 2`). The counterpart of c10::Scalar.
//
//   Scalar a = 2;                  // type() == kInt64
//   Scalar b = 1.5f;               // type() == kFloat64
//   Scalar c = complex<float>(1, 2);
//   uint8_t x = a.to<uint8_t>();   // 2
//   Scalar(300).to<uint8_t>();     // throws "value cannot be converted to type uint8_t without
//                                  // overflow"
//   if (b.overflows(ScalarType::kFloat16)) ...
//
// A Scalar holds exactly one of bool, int64_t, double or complex<double>: every input is widened
// to the widest type of its category, as in PyTorch, so `type()` is one of kBool, kInt64,
// kFloat64, kComplex128. Conversions back out use PyTorch's checked rules (element_cast.h).
//
// Thread safety: a value type; const methods may run concurrently.
#ifndef BACKPLANE_SDK_CORE_SCALAR_H_
#define BACKPLANE_SDK_CORE_SCALAR_H_

#include <complex>
#include <cstdint>
#include <ostream>
#include <type_traits>
#include <variant>

#include "sdk/core/element_cast.h"
#include "sdk/core/error.h"
#include "sdk/core/scalar_type.h"

namespace bp {

class Scalar {
 public:
  // Zero of type int64, like c10::Scalar().
  Scalar() : value_(int64_t{0}) {}

  // From any C++ arithmetic type: bool stays bool, integers become int64 (an unsigned value
  // above INT64_MAX throws "value cannot be converted to type int64_t without overflow"),
  // floating values become double.
  template <typename T>
  requires std::is_arithmetic_v<T> Scalar(T value)
      : value_(widen(value)) {}  // NOLINT: implicit, like c10::Scalar.
  Scalar(Half value) : value_(static_cast<double>(static_cast<float>(value))) {}      // NOLINT
  Scalar(BFloat16 value) : value_(static_cast<double>(static_cast<float>(value))) {}  // NOLINT
  template <typename T>
  Scalar(complex<T> value) : value_(complex<double>(value)) {}  // NOLINT
  template <typename T>
  Scalar(std::complex<T> value)  // NOLINT
      : value_(complex<double>(static_cast<double>(value.real()),
                               static_cast<double>(value.imag()))) {}

  // kBool, kInt64, kFloat64 or kComplex128.
  ScalarType type() const;

  bool is_boolean() const { return std::holds_alternative<bool>(value_); }
  // An integer; with include_bool, a bool too (c10's isIntegral(includeBool)).
  bool is_integral(bool include_bool) const {
    return std::holds_alternative<int64_t>(value_) || (include_bool && is_boolean());
  }
  bool is_floating_point() const { return std::holds_alternative<double>(value_); }
  bool is_complex() const { return std::holds_alternative<complex<double>>(value_); }

  // The value as element type T (one of the 12 element types), with PyTorch's checked_convert
  // rules (see element_overflows): throws Error(kInvalidArgument) "value cannot be converted to
  // type <C++ type> without overflow" when it does not fit. Conversion to bool never throws.
  template <typename T>
  T to() const {
    return std::visit(
        [](auto v) -> T {
          if (BP_UNLIKELY(element_overflows<T>(v))) report_overflow(scalar_type_of<T>);
          return element_cast<T>(v);
        },
        value_);
  }

  // The value as element type T, converted as PyTorch's kernels do with no check (see
  // element_cast): for places where PyTorch does not check either.
  template <typename T>
  T to_unchecked() const {
    return std::visit([](auto v) { return element_cast<T>(v); }, value_);
  }

  // True when to<T>() for the C++ type T of `t` would throw.
  bool overflows(ScalarType t) const;

  // Negation of the same type; integers wrap (-INT64_MIN is INT64_MIN). A bool throws
  // "torch boolean negative, the `-` operator, is not supported." as in PyTorch.
  Scalar operator-() const;

  // Same type and same value (so Scalar(1) != Scalar(1.0); NaN != NaN).
  friend bool operator==(const Scalar& a, const Scalar& b) { return a.value_ == b.value_; }

  // Prints "true" / "false", the integer, the double, or "(re,im)".
  friend std::ostream& operator<<(std::ostream& out, const Scalar& s);

 private:
  using Value = std::variant<bool, int64_t, double, complex<double>>;

  template <typename T>
  static Value widen(T value) {
    if constexpr (std::is_same_v<T, bool>) {
      return value;
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
        if (BP_UNLIKELY(element_overflows<int64_t>(value))) report_overflow(ScalarType::kInt64);
      }
      return static_cast<int64_t>(value);
    } else {
      return static_cast<double>(value);
    }
  }

  [[noreturn]] static void report_overflow(ScalarType t);

  Value value_;
};

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_SCALAR_H_
