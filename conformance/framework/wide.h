// Numbers in wide precision, for the conformance suite's references: every reference computes in
// int64 (with explicit wrapping), double or std::complex<double>, and only rounds to the result
// dtype at the end, so that it is independent of how backends compute.
//
//   Int a = INT64_MAX;
//   a + Int(1);                                            // INT64_MIN: wraps, no UB
//   Wide w = from_real(1e10);
//   cast(w, ScalarType::kFloat64, ScalarType::kFloat16);   // +inf: rounded to float16
//   cast(from_int(300), ScalarType::kInt64, ScalarType::kUInt8).i;   // 44: wrapped
//
// Casts follow PyTorch's conversion rules (the ones its kernels apply): to bool is "non-zero";
// integers wrap modulo 2^bits; floating to integral truncates toward zero through int64 (NaN and
// values outside int64 give INT64_MIN first, as on x86: PyTorch leaves them
// implementation-defined, samples avoid them); complex to real keeps the real part; float16 and
// bfloat16 round through float32, as c10 does.
//
// Thread safety: pure functions and value types.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_WIDE_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_WIDE_H_

#include <complex>
#include <concepts>
#include <cstdint>
#include <string>

#include "sdk/core/scalar_type.h"

namespace bp::conformance {

using cd = std::complex<double>;

// A 64-bit integer with wrapping arithmetic (mod 2^64), so that references of integral ops can
// overflow the way the dtype does without undefined behaviour. Division and remainder are
// C++'s (truncating); INT64_MIN / -1 wraps to INT64_MIN.
struct Int {
  int64_t v = 0;

  constexpr Int() = default;
  template <typename T>
  requires std::integral<T>
  constexpr Int(T x) : v(static_cast<int64_t>(x)) {}  // NOLINT

  friend constexpr Int operator+(Int a, Int b) {
    return Int(static_cast<int64_t>(static_cast<uint64_t>(a.v) + static_cast<uint64_t>(b.v)));
  }
  friend constexpr Int operator-(Int a, Int b) {
    return Int(static_cast<int64_t>(static_cast<uint64_t>(a.v) - static_cast<uint64_t>(b.v)));
  }
  friend constexpr Int operator*(Int a, Int b) {
    return Int(static_cast<int64_t>(static_cast<uint64_t>(a.v) * static_cast<uint64_t>(b.v)));
  }
  constexpr Int operator-() const { return Int(0) - *this; }
  constexpr Int operator~() const { return Int(~v); }
  friend constexpr Int operator&(Int a, Int b) { return Int(a.v & b.v); }
  friend constexpr Int operator|(Int a, Int b) { return Int(a.v | b.v); }
  friend constexpr Int operator^(Int a, Int b) { return Int(a.v ^ b.v); }
  friend constexpr auto operator<=>(Int a, Int b) = default;
  friend constexpr bool operator==(Int a, Int b) = default;
};

// C++ division and remainder (truncating). Precondition: b != 0.
Int trunc_div(Int a, Int b);
Int trunc_mod(Int a, Int b);
// Python's floor division and modulo (the sign of the divisor). Precondition: b != 0.
Int floor_div(Int a, Int b);
Int floor_mod(Int a, Int b);

// How a dtype computes in the references: bool and integral dtypes as Int, floating dtypes as
// double, complex dtypes as std::complex<double>.
enum class Kind { kInt, kReal, kComplex };
Kind kind_of(ScalarType dtype);

// One element in wide precision. The field that holds it follows the dtype it belongs to: bool
// and integral dtypes in `i` (bool as 0 / 1), floating dtypes in `z.real()`, complex in `z`.
struct Wide {
  int64_t i = 0;
  cd z;
};

inline Wide from_int(Int v) { return Wide{v.v, cd()}; }
inline Wide from_real(double v) { return Wide{0, cd(v, 0)}; }
inline Wide from_complex(cd v) { return Wide{0, v}; }

// The value of `w` (an element of dtype `from`) in each kind, converted as a cast would.
Int as_int(const Wide& w, ScalarType from);
double as_real(const Wide& w, ScalarType from);
cd as_complex(const Wide& w, ScalarType from);

// `w`, an element of dtype `from`, converted to dtype `to` (rounded or wrapped to its precision).
Wide cast(const Wide& w, ScalarType from, ScalarType to);

// Arithmetic in the kind of dtype `t` (int64 wrapping, double or complex<double>), not rounded
// to `t`: a reference sums and multiplies exactly, then rounds once.
Wide add(const Wide& a, const Wide& b, ScalarType t);
Wide mul(const Wide& a, const Wide& b, ScalarType t);

// `w`, computed in `t`'s kind, rounded (or wrapped) to `t`.
Wide round_to(const Wide& w, ScalarType t);

// Whether two elements of `dtype` hold the same bits' worth of value: NaN equals NaN, and
// -0.0 differs from 0.0.
bool identical(const Wide& a, const Wide& b, ScalarType dtype);

// "1.5", "nan", "-inf", "-0", "(1, -2)", "-3", "true": for messages.
std::string to_string(const Wide& w, ScalarType dtype);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_WIDE_H_
