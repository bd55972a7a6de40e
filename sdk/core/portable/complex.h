// bp::complex<T> as portable source: the element type of ScalarType::kComplex64 (T = float) and
// kComplex128 (T = double), one definition for the SDK (sdk/core/complex.h adds printing) and the
// jitted kernels.
//
//   complex<float> z(1.0f, 2.0f);
//   complex<float> w = z * z + 1.0f;               // (-2, 4)
//   complex<double> wide = z;                      // widening is implicit
//   complex<float> narrow(wide);                   // narrowing is explicit
//
// Same size, alignment and layout as std::complex<T> (and CUDA's cuComplex / c10::complex), with
// alignas(2 * sizeof(T)) so a load of one element can be a single vector load. Everything is
// constexpr; multiplication uses the plain formula and division Smith's algorithm, as c10::complex
// does, so results match PyTorch's. Transcendental functions live with the op math
// (reference_backend/math), not here. On the host it converts to and from std::complex.
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_PORTABLE_COMPLEX_H_
#define BACKPLANE_SDK_CORE_PORTABLE_COMPLEX_H_

#include "sdk/core/portable/base.h"

#if defined(BP_PORTABLE_HOST)
#include <complex>
#endif

namespace bp {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  static_assert(portable::is_float_or_double_v<T>, "bp::complex<T> supports T = float or double");
  using value_type = T;

  constexpr complex() = default;
  // Implicit from a real value, like std::complex.
  constexpr complex(T re, T im = T(0)) : real_(re), imag_(im) {}  // NOLINT
  // complex<float> -> complex<double> is implicit; the narrowing direction is explicit.
  template <typename U>
  requires(!portable::is_same_v<U, T>) constexpr explicit(sizeof(U) > sizeof(T))
      complex(const complex<U>& z)
      : real_(static_cast<T>(z.real())), imag_(static_cast<T>(z.imag())) {}
#if defined(BP_PORTABLE_HOST)
  constexpr complex(const std::complex<T>& z) : real_(z.real()), imag_(z.imag()) {}  // NOLINT
  explicit constexpr operator std::complex<T>() const { return std::complex<T>(real_, imag_); }
#endif

  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
  constexpr void real(T value) { real_ = value; }
  constexpr void imag(T value) { imag_ = value; }

  constexpr complex& operator+=(const complex& z) {
    real_ += z.real_;
    imag_ += z.imag_;
    return *this;
  }
  constexpr complex& operator-=(const complex& z) {
    real_ -= z.real_;
    imag_ -= z.imag_;
    return *this;
  }
  constexpr complex& operator*=(const complex& z) {
    const T re = real_ * z.real_ - imag_ * z.imag_;
    imag_ = real_ * z.imag_ + imag_ * z.real_;
    real_ = re;
    return *this;
  }
  // Smith's algorithm: scales by the larger of |c|, |d| so that c*c + d*d cannot overflow or
  // underflow when the quotient itself is representable (the method NumPy and c10 use).
  constexpr complex& operator/=(const complex& z) {
    const T a = real_, b = imag_, c = z.real_, d = z.imag_;
    const T abs_c = c < T(0) ? -c : c;
    const T abs_d = d < T(0) ? -d : d;
    if (abs_c >= abs_d) {
      if (abs_c == T(0) && abs_d == T(0)) {
        // Division by zero gives a complex inf or nan: each part over |c| = |d| = +0 whatever
        // the zeros' signs (c10::complex divides by std::abs), so 1 / (0-0j) is inf+nanj.
        real_ = a / T(0);
        imag_ = b / T(0);
      } else {
        const T ratio = d / c;
        const T scale = T(1) / (c + d * ratio);
        real_ = (a + b * ratio) * scale;
        imag_ = (b - a * ratio) * scale;
      }
    } else {
      const T ratio = c / d;
      const T scale = T(1) / (d + c * ratio);
      real_ = (a * ratio + b) * scale;
      imag_ = (b * ratio - a) * scale;
    }
    return *this;
  }
  // With a real operand only the parts it touches change (no 0 * inf = nan in the other part).
  constexpr complex& operator+=(T x) {
    real_ += x;
    return *this;
  }
  constexpr complex& operator-=(T x) {
    real_ -= x;
    return *this;
  }
  constexpr complex& operator*=(T x) {
    real_ *= x;
    imag_ *= x;
    return *this;
  }
  constexpr complex& operator/=(T x) {
    real_ /= x;
    imag_ /= x;
    return *this;
  }

 private:
  T real_ = T(0);
  T imag_ = T(0);
};

static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8);
static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16);

// The arithmetic operators are hidden behind type_identity_t on the scalar side so that
// `z * 2.0f` and `z * 2` (an int converting to T) both work without deduction conflicts.

template <typename T>
constexpr complex<T> operator+(const complex<T>& z) {
  return z;
}
template <typename T>
constexpr complex<T> operator-(const complex<T>& z) {
  return complex<T>(-z.real(), -z.imag());
}

template <typename T>
constexpr complex<T> operator+(complex<T> a, const complex<T>& b) {
  return a += b;
}
template <typename T>
constexpr complex<T> operator-(complex<T> a, const complex<T>& b) {
  return a -= b;
}
template <typename T>
constexpr complex<T> operator*(complex<T> a, const complex<T>& b) {
  return a *= b;
}
template <typename T>
constexpr complex<T> operator/(complex<T> a, const complex<T>& b) {
  return a /= b;
}

template <typename T>
constexpr complex<T> operator+(complex<T> a, portable::type_identity_t<T> x) {
  return a += x;
}
template <typename T>
constexpr complex<T> operator-(complex<T> a, portable::type_identity_t<T> x) {
  return a -= x;
}
template <typename T>
constexpr complex<T> operator*(complex<T> a, portable::type_identity_t<T> x) {
  return a *= x;
}
template <typename T>
constexpr complex<T> operator/(complex<T> a, portable::type_identity_t<T> x) {
  return a /= x;
}

template <typename T>
constexpr complex<T> operator+(portable::type_identity_t<T> x, const complex<T>& z) {
  return complex<T>(x + z.real(), z.imag());
}
template <typename T>
constexpr complex<T> operator-(portable::type_identity_t<T> x, const complex<T>& z) {
  return complex<T>(x - z.real(), -z.imag());
}
template <typename T>
constexpr complex<T> operator*(portable::type_identity_t<T> x, const complex<T>& z) {
  return complex<T>(x * z.real(), x * z.imag());
}
template <typename T>
constexpr complex<T> operator/(portable::type_identity_t<T> x, const complex<T>& z) {
  return complex<T>(x) / z;
}

template <typename T>
constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
// Equal to a real value when the imaginary part is zero.
template <typename T>
constexpr bool operator==(const complex<T>& a, portable::type_identity_t<T> x) {
  return a.real() == x && a.imag() == T(0);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_PORTABLE_COMPLEX_H_
