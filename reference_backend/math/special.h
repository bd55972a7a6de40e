// Special functions of the scalar math (digamma, ...), written once as portable source: the CPU
// backend compiles them as host C++ and the CUDA plugin embeds them in its jitted kernels, so
// both backends compute the same formula. Each states the algorithm it follows and its accuracy,
// which //reference_backend/math:special_test checks against Boost.Math, an independent
// implementation.
//
//   double psi = bp::math::digamma(0.5);   // -1.9635100260214235
//
// Rules as for every math header (see primitives.h): only the primitives and traits, plain C++,
// no std::, no static data (device code has no constant tables in function scope). T is float or
// double: the functors call these in their compute type.
//
// Thread safety: pure functions.
#ifndef BACKPLANE_REFERENCE_BACKEND_MATH_SPECIAL_H_
#define BACKPLANE_REFERENCE_BACKEND_MATH_SPECIAL_H_

#include "reference_backend/math/primitives.h"

namespace bp::math {

// digamma (psi), the logarithmic derivative of the gamma function: Cephes' psi, as PyTorch's
// calc_digamma (so results match it): for x < 0 the reflection psi(x) = psi(1 - x) - pi / tan(pi x)
// with tan taken of the fractional part in double; the recurrence psi(x) = psi(x + 1) - 1 / x up
// to x >= 10; then the asymptotic series log(x) - 1 / (2x) - sum B_2k / (2k x^2k).
// Special values: psi(+-0) = -+inf, psi(negative integer) = nan, psi(+inf) = +inf,
// psi(-inf) = nan, psi(nan) = nan.
// Accuracy (relative error, absolute where |psi| < 1, against Boost.Math on [-30, 30]): double,
// <= 1.5e-15 for x > 0 (Cephes' bound; measured 1.0e-15) and <= 1e-13 for x < 0 at least 1e-3
// from a pole (the reflection term's rounding; measured 8.6e-14); float, computed in float as
// PyTorch does, <= 1e-6 (measured 5.6e-7, about 5 ulp).
template <typename T>
T digamma(T x) {
  if (x == T(0)) return copysign(infinity<T>(), -x);
  T reflection = T(0);
  if (x < T(0)) {
    const T whole = trunc(x);
    if (x == whole) return quiet_nan<T>();
    // tan(pi * r) of the fractional part r is more accurate than tan(pi * x) when |x| > 1.
    const double kPi = 3.14159265358979323846;
    reflection = static_cast<T>(kPi / tan(kPi * static_cast<double>(x - whole)));
    x = T(1) - x;
  }
  T result = T(0);
  while (x < T(10)) {
    result -= T(1) / x;
    x += T(1);
  }
  if (x == T(10)) return result + T(2.25175258906672110764) - reflection;  // psi(10)
  T series = T(0);
  if (x < T(1.0e17)) {
    const T z = T(1) / (x * x);
    // Cephes' polevl over A[0..6], Horner's scheme.
    T p = T(8.33333333333333333333E-2);
    p = p * z + T(-2.10927960927960927961E-2);
    p = p * z + T(7.57575757575757575758E-3);
    p = p * z + T(-4.16666666666666666667E-3);
    p = p * z + T(3.96825396825396825397E-3);
    p = p * z + T(-8.33333333333333333333E-3);
    p = p * z + T(8.33333333333333333333E-2);
    series = z * p;
  }
  return result + log(x) - T(0.5) / x - series - reflection;
}

// The functors of the ops (`math: Digamma`).
struct Digamma {
  template <typename T>
  T operator()(T x) const {
    return digamma(x);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_SPECIAL_H_
