// Special functions of the scalar math (digamma, lgamma, erfinv, the Bessel functions, ...),
// written once as portable source: the CPU backend compiles them as host C++ and the CUDA plugin
// embeds them in its jitted kernels, so both backends compute the same formula. Each states the
// algorithm it follows and its accuracy, which //reference_backend/math:special_test checks against
// Boost.Math, an independent implementation.
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

// ---- Helpers: series with coefficients in local arrays (no static tables) ----------------------

namespace special_detail {

// Cephes' chbevl: sum' coef[i] T_i(x / 2) over n Chebyshev coefficients, the zero-order term last
// (Clenshaw's recurrence).
template <typename T>
T chbevl(T x, const T* coef, int n) {
  T b0 = coef[0];
  T b1 = T(0);
  T b2 = T(0);
  for (int i = 1; i < n; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + coef[i];
  }
  return T(0.5) * (b0 - b2);
}

// Cephes' polevl: coef[0] x^n + ... + coef[n] (Horner's scheme over n + 1 coefficients).
template <typename T>
T polevl(T x, const T* coef, int n) {
  T result = T(0);
  for (int i = 0; i <= n; ++i) result = result * x + coef[i];
  return result;
}

// exp(-|x|) I0(|x|) on [0, 8] (Chebyshev in x / 2 - 2) and sqrt(x) exp(-x) I0(x) on (8, inf)
// (Chebyshev in 32 / x - 2): Cephes' i0e tables, both precisions.
template <typename T>
T i0e_abs(T x) {
  if (x <= T(8)) {
    constexpr T kA[30] = {
        -4.41534164647933937950E-18, 3.33079451882223809783E-17,  -2.43127984654795469359E-16,
        1.71539128555513303061E-15,  -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12,  -1.72682629144155570723E-11,
        9.67580903537323691224E-11,  -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8,  6.04699502254191894932E-8,   -2.67079385394061173391E-7,
        1.11738753912010371815E-6,   -4.41673835845875056359E-6,  1.64484480707288970893E-5,
        -5.75419501008210370398E-5,  1.88502885095841655729E-4,   -5.76375574538582365885E-4,
        1.63947561694133579842E-3,   -4.32430999505057594430E-3,  1.05464603945949983183E-2,
        -2.37374148058994688156E-2,  4.93052842396707084878E-2,   -9.49010970480476444210E-2,
        1.71620901522208775349E-1,   -3.04682672343198398683E-1,  6.76795274409476084995E-1};
    return chbevl(x / T(2) - T(2), kA, 30);
  }
  constexpr T kB[25] = {
      -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
      3.46122286769746109310E-17,  -2.82762398051658348494E-16, -3.42548561967721913462E-16,
      1.77256013305652638360E-15,  3.81168066935262242075E-15,  -9.55484669882830764870E-15,
      -4.15056934728722208663E-14, 1.54008621752140982691E-14,  3.85277838274214270114E-13,
      7.18012445138366623367E-13,  -1.79417853150680611778E-12, -1.32158118404477131188E-11,
      -3.14991652796324136454E-11, 1.18891471078464383424E-11,  4.94060238822496958910E-10,
      3.39623202570838634515E-9,   2.26666899049817806459E-8,   2.04891858946906374183E-7,
      2.89137052083475648297E-6,   6.88975834691682398426E-5,   3.36911647825569408990E-3,
      8.04490411014108831608E-1};
  return chbevl(T(32) / x - T(2), kB, 25) / sqrt(x);
}

// exp(-|x|) I1(|x|) / |x| on [0, 8] and sqrt(x) exp(-x) I1(x) on (8, inf), as i0e_abs: Cephes'
// i1e tables; float takes their last 17 and 7 terms, as PyTorch (the others are below its ulp).
template <typename T>
T i1e_abs(T x) {
  constexpr int kSkipA = sizeof(T) == 4 ? 12 : 0;
  constexpr int kSkipB = sizeof(T) == 4 ? 18 : 0;
  if (x <= T(8)) {
    constexpr T kA[29] = {
        2.77791411276104639959E-18,  -2.11142121435816608115E-17, 1.55363195773620046921E-16,
        -1.10559694773538630805E-15, 7.60068429473540693410E-15,  -5.04218550472791168711E-14,
        3.22379336594557470981E-13,  -1.98397439776494371520E-12, 1.17361862988909016308E-11,
        -6.66348972350202774223E-11, 3.62559028155211703701E-10,  -1.88724975172282928790E-9,
        9.38153738649577178388E-9,   -4.44505912879632808065E-8,  2.00329475355213526229E-7,
        -8.56872026469545474066E-7,  3.47025130813767847674E-6,   -1.32731636560394358279E-5,
        4.78156510755005422638E-5,   -1.61760815825896745588E-4,  5.12285956168575772895E-4,
        -1.51357245063125314899E-3,  4.15642294431288815669E-3,   -1.05640848946261981558E-2,
        2.47264490306265168283E-2,   -5.29459812080949914269E-2,  1.02643658689847095384E-1,
        -1.76416518357834055153E-1,  2.52587186443633654823E-1};
    return chbevl(x / T(2) - T(2), kA + kSkipA, 29 - kSkipA) * x;
  }
  constexpr T kB[25] = {
      7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
      -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
      -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
      4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
      -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
      3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
      -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
      7.78576235018280120474E-1};
  return chbevl(T(32) / x - T(2), kB + kSkipB, 25 - kSkipB) / sqrt(x);
}

}  // namespace special_detail

// ---- The functions ----------------------------------------------------------------------------

// i0e, the exponentially scaled modified Bessel function of order 0, exp(-|x|) I0(x): Cephes'
// two Chebyshev expansions, as PyTorch's calc_i0e. i0e(+-inf) = 0, i0e(nan) = nan.
// Accuracy (relative, against Boost.Math's cyl_bessel_i on [-700, 700]): double <= 1e-15
// (measured 4.3e-16); float <= 1e-6 on [-80, 80] (3.6e-7).
template <typename T>
T i0e(T x) {
  return special_detail::i0e_abs(abs(x));
}

// i0, the modified Bessel function of order 0: exp(|x|) i0e(x), as PyTorch's calc_i0 (so it
// overflows to inf beyond |x| ~ 713 in double, ~ 91.9 in float; i0(+-inf) is nan, as PyTorch's
// inf * 0). Accuracy as i0e's, plus exp's (double <= 1e-15, measured 5.0e-16; float <= 1e-6).
template <typename T>
T i0(T x) {
  const T a = abs(x);
  return exp(a) * special_detail::i0e_abs(a);
}

// i1e, exp(-|x|) I1(x) (odd): Cephes' i1e, as PyTorch's calc_i1e. Accuracy (as i0e): double
// <= 3e-15 (measured 1.5e-15); float <= 2.5e-6 (1.2e-6: the shortened float expansions).
template <typename T>
T i1e(T x) {
  const T out = special_detail::i1e_abs(abs(x));
  return x < T(0) ? -out : out;
}

// i1, the modified Bessel function of order 1 (odd): exp(|x|) i1e(|x|) with x's sign, as
// PyTorch's calc_i1 (nan at +-inf, as PyTorch). Accuracy as i1e's, plus exp's.
template <typename T>
T i1(T x) {
  const T a = abs(x);
  const T out = exp(a) * special_detail::i1e_abs(a);
  return x < T(0) ? -out : out;
}

// calc_erfinv, the inverse error function (not `erfinv`, which names the device's libdevice
// primitive in the jit prelude): a rational first guess (central range |y| <= 0.7, else
// in sqrt(-log((1 - |y|) / 2))) and two Newton steps on erf, as PyTorch's calc_erfinv (Pavlis,
// from Matlab's erfinv). erfinv(+-1) = +-inf, nan outside [-1, 1].
// Accuracy (relative, against Boost.Math's erf_inv): double <= 1.5e-15 for |y| <= 0.99
// (measured 7.6e-16), growing near +-1 with the condition of the problem (y's rounding against
// 1 - |y|): <= 5e-14 for |y| <= 0.9999, <= 5e-12 for |y| <= 1 - 1e-6; float <= 1e-6 (4.5e-7).
template <typename T>
T calc_erfinv(T y) {
  const T y_abs = abs(y);
  if (y_abs > T(1)) return quiet_nan<T>();
  if (y_abs == T(1)) return copysign(infinity<T>(), y);
  if (!(y_abs == y_abs)) return y;
  T x;
  if (y_abs <= T(0.7)) {
    const T z = y * y;
    const T num =
        ((T(-0.140543331) * z + T(0.914624893)) * z + T(-1.645349621)) * z + T(0.886226899);
    const T dem =
        (((T(0.012229801) * z + T(-0.329097515)) * z + T(1.442710462)) * z + T(-2.118377725)) * z +
        T(1);
    x = y * num / dem;
  } else {
    const T z = sqrt(-log((T(1) - y_abs) / T(2)));
    const T num =
        ((T(1.641345311) * z + T(3.429567803)) * z + T(-1.624906493)) * z + T(-1.970840454);
    const T dem = (T(1.637067800) * z + T(3.543889200)) * z + T(1);
    x = copysign(num, y) / dem;
  }
  const T two_over_sqrt_pi = T(1.12837916709551257390);
  x = x - (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
  x = x - (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
  return x;
}

// ndtr, the standard normal distribution function: Cephes' ndtr, as PyTorch's calc_ndtr:
// (1 + erf(x / sqrt 2)) / 2 near 0, erfc of |x| / sqrt 2 in the tails (no cancellation).
// Accuracy (relative, against erfc in long double): erf's and erfc's plus the rounding of
// x / sqrt 2, which grows as x^2 ulp in the lower tail: double <= 5e-15 on |x| <= 5, <= 3e-13 on
// [-37, 9]; float <= 2.5e-6 on |x| <= 5, <= 2.5e-5 on [-13, 6].
template <typename T>
T ndtr(T x) {
  const T sqrt1_2 = T(0.70710678118654752440);
  const T t = x * sqrt1_2;
  const T z = abs(t);
  if (z < sqrt1_2) return T(0.5) + T(0.5) * erf(t);
  const T y = T(0.5) * erfc(z);
  return t > T(0) ? T(1) - y : y;
}

// ndtri, the inverse of ndtr: Cephes' ndtri, as PyTorch's calc_ndtri: a rational function of
// y - 1/2 for |y - 1/2| <= 3/8, else of 1 / sqrt(-2 log y) on two ranges.
// ndtri(0) = -inf, ndtri(1) = inf, nan outside [0, 1].
// Accuracy (relative, absolute below 0.1 around the zero at 1/2, against Boost.Math's quantile
// of the standard normal on [1e-300, 1 - 1e-6]): double <= 1.5e-15 (measured 6.9e-16); float
// <= 1e-6 (4.7e-7).
template <typename T>
T ndtri(T y0) {
  if (y0 == T(0)) return -infinity<T>();
  if (y0 == T(1)) return infinity<T>();
  if (y0 < T(0) || y0 > T(1)) return quiet_nan<T>();
  if (!(y0 == y0)) return y0;
  const T exp_m2 = T(0.13533528323661269189);  // exp(-2)
  bool negate = true;
  T y = y0;
  if (y > T(1) - exp_m2) {
    y = T(1) - y;
    negate = false;
  }
  if (y > exp_m2) {
    // 0 <= |y - 0.5| <= 3/8.
    constexpr T kP0[5] = {-5.99633501014107895267E1, 9.80010754185999661536E1,
                          -5.66762857469070293439E1, 1.39312609387279679503E1,
                          -1.23916583867381258016E0};
    constexpr T kQ0[9] = {
        1.00000000000000000000E0,  1.95448858338141759834E0,  4.67627912898881538453E0,
        8.63602421390890590575E1,  -2.25462687854119370527E2, 2.00260212380060660359E2,
        -8.20372256168333339912E1, 1.59056225126211695515E1,  -1.18331621121330003142E0};
    y = y - T(0.5);
    const T y2 = y * y;
    const T x =
        y + y * (y2 * special_detail::polevl(y2, kP0, 4) / special_detail::polevl(y2, kQ0, 8));
    return x * T(2.50662827463100050242);  // sqrt(2 pi)
  }
  const T x = sqrt(T(-2) * log(y));
  const T x0 = x - log(x) / x;
  const T z = T(1) / x;
  T x1;
  if (x < T(8)) {
    // z = sqrt(-2 log y) in [2, 8]: y in [exp(-32), exp(-2)].
    constexpr T kP1[9] = {
        4.05544892305962419923E0,   3.15251094599893866154E1,   5.71628192246421288162E1,
        4.40805073893200834700E1,   1.46849561928858024014E1,   2.18663306850790267539E0,
        -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4};
    constexpr T kQ1[9] = {
        1.00000000000000000000E0,   1.57799883256466749731E1,   4.53907635128879210584E1,
        4.13172038254672030440E1,   1.50425385692907503408E1,   2.50464946208309415979E0,
        -1.42182922854787788574E-1, -3.80806407691578277194E-2, -9.33259480895457427372E-4};
    x1 = z * special_detail::polevl(z, kP1, 8) / special_detail::polevl(z, kQ1, 8);
  } else {
    // z in [8, 64].
    constexpr T kP2[9] = {
        3.23774891776946035970E0,  6.91522889068984211695E0,  3.93881025292474443415E0,
        1.33303460815807542389E0,  2.01485389549179081538E-1, 1.23716634817820021358E-2,
        3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9};
    constexpr T kQ2[9] = {
        1.00000000000000000000E0,  6.02427039364742014255E0,  3.67983563856160859403E0,
        1.37702099489081330271E0,  2.16236993594496635890E-1, 1.34204006088543189037E-2,
        3.28014464682127739104E-4, 2.89247864745380683936E-6, 6.79019408009981274425E-9};
    x1 = z * special_detail::polevl(z, kP2, 8) / special_detail::polevl(z, kQ2, 8);
  }
  const T result = x0 - x1;
  return negate ? -result : result;
}

// erfcx, the scaled complementary error function exp(x^2) erfc(x), in double (float inputs are
// computed in double and rounded). Not PyTorch's algorithm (Johnson's 100-piece Chebyshev table,
// which the portable dialect's no-tables rule excludes) but the same function and special
// values: for 0 <= x < 26, exp(x^2) erfc(x) with x^2 split exactly into hi + lo (Veltkamp), so
// exp(x^2) = exp(hi) (1 + lo) carries no rounding of the square; for x >= 26, the asymptotic
// series 1 / (sqrt(pi) x) sum_k (-1)^k (2k-1)!! / (2x^2)^k to k = 8 (the next term is below
// 3e-21 of the sum there), one division where the continued fraction it replaces took 40, each
// a slow-path call on the device around which ptxas spilled registers; for x < 0,
// 2 exp(x^2) - erfcx(-x), inf below -26.7.
// Accuracy (relative, against exp(x^2) erfc(x) in long double on [-26, 100] and its asymptotic
// series beyond): double <= 1.5e-15 (measured 5.9e-16); float: rounded from double.
namespace special_detail {

// exp(x^2) without the rounding of x^2: x^2 = hi + lo exactly (Veltkamp's split of x into 26-bit
// halves; exact whether or not the compiler fuses the products), exp(hi) (1 + lo).
inline double exp_of_square(double x) {
  const double c = 134217729.0 * x;  // 2^27 + 1
  const double xh = c - (c - x);
  const double xl = x - xh;
  const double hi = x * x;
  const double lo = ((xh * xh - hi) + 2 * xh * xl) + xl * xl;
  return exp(hi) * (1 + lo);
}

// erfcx for x >= 0.
inline double erfcx_nonnegative(double x) {
  const double inv_sqrt_pi = 0.56418958354775628694807945156;
  if (x >= 26) {
    const double inv = 1 / x;
    const double w = 0.5 * inv * inv;  // 1 / (2 x^2), never overflowing
    const double sum =
        1 +
        w * (-1 +
             w * (3 +
                  w * (-15 + w * (105 + w * (-945 + w * (10395 + w * (-135135 + w * 2027025)))))));
    return inv_sqrt_pi * inv * sum;
  }
  return exp_of_square(x) * erfc(x);
}

}  // namespace special_detail

inline double erfcx_double(double x) {
  if (!(x == x)) return x;
  if (x >= 0) return special_detail::erfcx_nonnegative(x);
  if (x < -26.7) return infinity<double>();
  return 2 * special_detail::exp_of_square(x) - special_detail::erfcx_nonnegative(-x);
}

template <typename T>
T erfcx(T x) {
  return static_cast<T>(erfcx_double(static_cast<double>(x)));
}

// log_ndtr, log of ndtr: log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below -1 (no underflow in the
// far tail), else log1p(-erfc(x / sqrt 2) / 2), as PyTorch's calc_log_ndtr (SciPy's).
// Accuracy (relative, against long double on [-1000, 8]): double <= 2e-14 (measured 8.6e-15);
// float <= 2e-6 (1.1e-6).
template <typename T>
T log_ndtr(T x) {
  const T t = x * T(0.70710678118654752440);
  if (x < T(-1)) return log(erfcx(-t) / T(2)) - t * t;
  return log1p(-erfc(t) / T(2));
}

// entr, the elementwise entropy: -x log x for x > 0, 0 at 0, -inf for x < 0, nan for nan, as
// PyTorch. Accuracy: log's.
template <typename T>
T entr(T x) {
  if (!(x == x)) return x;
  if (x > T(0)) return -x * log(x);
  if (x == T(0)) return T(0);
  return -infinity<T>();
}

// sinc, the normalized sinc function sin(pi x) / (pi x), 1 at 0, as PyTorch (real and complex
// values; no special care near 0, where the quotient of two small numbers is accurate).
template <typename T>
T sinc(T x) {
  if (x == T(0)) return T(1);
  const real_t<T> pi = real_t<T>(3.14159265358979323846);
  const T product = pi * x;  // complex: each part times pi
  return sin(product) / product;
}

// The Bessel functions of the first kind of orders 0 and 1: Cephes' j0 and j1 (the algorithm of
// PyTorch's bessel_j0_forward and bessel_j1_forward): a rational function in x^2 times the
// factors of the first zeros for |x| <= 5, else Hankel's asymptotic form with rational P and Q
// in 25 / x^2. The denominators RQ and QQ have Cephes' implicit leading coefficient 1 (p1evl),
// which PyTorch's ports drop: PyTorch's values are off by up to about 4e-7 (absolute) for |x| in
// [4, 20], ours are not (docs/pytorch_parity.md; conformance/tolerances.json admits PyTorch's).
// j0 is even, j1 odd; j(+-inf) = nan (cos of an infinite phase), as PyTorch.
// Accuracy (absolute, against Boost.Math's cyl_bessel_j; relative error is unbounded near the
// zeros; scaled by max(1, |j|)): double <= 5e-16 on [-5, 5] (measured 3.3e-16), <= 1e-15 on
// [-100, 100] (6.0e-16: the rounding of x - pi/4 in the phase grows with x); float <= 5e-7
// (2.2e-7), while the phase of |x| beyond ~1e7 keeps no digit in float (as in PyTorch).
template <typename T>
T bessel_j0(T x) {
  if (x < T(0)) x = -x;
  if (x <= T(5)) {
    if (x < T(0.00001)) return T(1) - x * x / T(4);
    constexpr T kRp[4] = {-4.79443220978201773821E9, 1.95617491946556577543E12,
                          -2.49248344360967716204E14, 9.70862251047306323952E15};
    constexpr T kRq[9] = {1.0,
                          4.99563147152651017219E2,
                          1.73785401676374683123E5,
                          4.84409658339962045305E7,
                          1.11855537045356834862E10,
                          2.11277520115489217587E12,
                          3.10518229857422583814E14,
                          3.18121955943204943306E16,
                          1.71086294081043136091E18};
    const T z = x * x;
    return (z - T(5.78318596294678452118E0)) * (z - T(3.04712623436620863991E1)) *
           special_detail::polevl(z, kRp, 3) / special_detail::polevl(z, kRq, 8);
  }
  constexpr T kPp[7] = {7.96936729297347051624E-4, 8.28352392107440799803E-2,
                        1.23953371646414299388E0,  5.44725003058768775090E0,
                        8.74716500199817011941E0,  5.30324038235394892183E0,
                        9.99999999999999997821E-1};
  constexpr T kPq[7] = {9.24408810558863637013E-4, 8.56288474354474431428E-2,
                        1.25352743901058953537E0,  5.47097740330417105182E0,
                        8.76190883237069594232E0,  5.30605288235394617618E0,
                        1.00000000000000000218E0};
  constexpr T kQp[8] = {-1.13663838898469149931E-2, -1.28252718670509318512E0,
                        -1.95539544257735972385E1,  -9.32060152123768231369E1,
                        -1.77681167980488050595E2,  -1.47077505154951170175E2,
                        -5.14105326766599330220E1,  -6.05014350600728481186E0};
  constexpr T kQq[8] = {1.0,
                        6.43178256118178023184E1,
                        8.56430025976980587198E2,
                        3.88240183605401609683E3,
                        7.24046774195652478189E3,
                        5.93072701187316984827E3,
                        2.06209331660327847417E3,
                        2.42005740240291393179E2};
  const T w = T(25) / (x * x);
  const T p = special_detail::polevl(w, kPp, 6) / special_detail::polevl(w, kPq, 6);
  const T q = special_detail::polevl(w, kQp, 7) / special_detail::polevl(w, kQq, 7);
  const T phase = x - T(0.785398163397448309615660845819875721);  // x - pi/4
  return (p * cos(phase) - T(5) / x * q * sin(phase)) * T(0.797884560802865355879892119868763737) /
         sqrt(x);
}

template <typename T>
T bessel_j1(T x) {
  const bool negative = x < T(0);
  if (negative) x = -x;
  T result;
  if (x <= T(5)) {
    constexpr T kRp[4] = {-8.99971225705559398224E8, 4.52228297998194034323E11,
                          -7.27494245221818276015E13, 3.68295732863852883286E15};
    constexpr T kRq[9] = {1.0,
                          6.20836478118054335476E2,
                          2.56987256757748830383E5,
                          8.35146791431949253037E7,
                          2.21511595479792499675E10,
                          4.74914122079991414898E12,
                          7.84369607876235854894E14,
                          8.95222336184627338078E16,
                          5.32278620332680085395E18};
    const T z = x * x;
    result = special_detail::polevl(z, kRp, 3) / special_detail::polevl(z, kRq, 8) * x *
             (z - T(1.46819706421238932572E1)) * (z - T(4.92184563216946036703E1));
  } else {
    constexpr T kPp[7] = {7.62125616208173112003E-4, 7.31397056940917570436E-2,
                          1.12719608129684925192E0,  5.11207951146807644818E0,
                          8.42404590141772420927E0,  5.21451598682361504063E0,
                          1.00000000000000000254E0};
    constexpr T kPq[7] = {5.71323128072548699714E-4, 6.88455908754495404082E-2,
                          1.10514232634061696926E0,  5.07386386128601488557E0,
                          8.39985554327604159757E0,  5.20982848682361821619E0,
                          9.99999999999999997461E-1};
    constexpr T kQp[8] = {5.10862594750176621635E-2, 4.98213872951233449420E0,
                          7.58238284132545283818E1,  3.66779609360150777800E2,
                          7.10856304998926107277E2,  5.97489612400613639965E2,
                          2.11688757100572135698E2,  2.52070205858023719784E1};
    constexpr T kQq[8] = {1.0,
                          7.42373277035675149943E1,
                          1.05644886038262816351E3,
                          4.98641058337653607651E3,
                          9.56231892404756170795E3,
                          7.99704160447350683650E3,
                          2.82619278517639096600E3,
                          3.36093607810698293419E2};
    const T w = T(5) / x * (T(5) / x);
    const T p = special_detail::polevl(w, kPp, 6) / special_detail::polevl(w, kPq, 6);
    const T q = special_detail::polevl(w, kQp, 7) / special_detail::polevl(w, kQq, 7);
    const T phase = x - T(2.356194490192344928846982537459627163);  // x - 3 pi/4
    result = (p * cos(phase) - T(5) / x * q * sin(phase)) *
             T(0.797884560802865355879892119868763737) / sqrt(x);
  }
  return negative ? -result : result;
}

// log |gamma(x)| of float computed in double and rounded, as PyTorch's CPU kernel gives it (its
// float results are double's rounded, not C's lgammaf, which is 1 ulp off at x = 32767); double
// is the primitive.
template <typename T>
T lgamma_rounded(T x) {
  return static_cast<T>(lgamma(static_cast<double>(x)));
}

// trigamma, psi'(x), in double. At the poles 0, -1, -2, ... the limit from both sides, +inf. For
// x <= 0 the reflection psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x), with the sine taken of x's
// distance to the nearest integer (exact in double), so that it stays accurate next to a pole and
// for large |x| (PyTorch 1.13 takes sin(pi x) of the rounded product: finite at the poles, 1e-5
// off near them in float); the recurrence psi'(x) = psi'(x + 1) + 1 / x^2 up to x >= 10; then
// the asymptotic series 1/x + 1/(2x^2) + sum_{k=1..7} B_2k / x^(2k+1) (PyTorch stops at k = 3,
// from x >= 6.5: 5e-10 off). psi'(+inf) = 0; psi'(-inf) = nan (no limit); psi'(nan) = nan.
// Accuracy (relative, absolute below 1, against Boost.Math on [-30, 1e5]): <= 2e-15 for x > 0
// (measured 6.8e-16) and for x < 0 (measured 5.7e-16); float, the rounding of this (<= 6e-8).
inline double trigamma_double(double x) {
  const double kPi = 3.14159265358979323846;
  if (x == -infinity<double>()) return quiet_nan<double>();
  double reflection = 0;
  double sign = 1;
  if (x <= 0) {
    const double nearest = nearbyint(x);
    if (x == nearest) return infinity<double>();
    const double q = kPi / sin(kPi * (x - nearest));  // sin^2(pi x) = sin^2(pi (x - nearest))
    reflection = q * q;
    sign = -1;
    x = 1 - x;
  }
  double result = 0;
  while (x < 10) {
    result += 1 / (x * x);
    x += 1;
  }
  const double z = 1 / (x * x);
  // B_2k: 1/6, -1/30, 1/42, -1/30, 5/66, -691/2730, 7/6 (Horner's scheme in 1 / x^2).
  double series = 7.0 / 6.0;
  series = series * z - 691.0 / 2730.0;
  series = series * z + 5.0 / 66.0;
  series = series * z - 1.0 / 30.0;
  series = series * z + 1.0 / 42.0;
  series = series * z - 1.0 / 30.0;
  series = series * z + 1.0 / 6.0;
  result += (1 + 1 / (2 * x) + z * series) / x;
  return reflection + sign * result;
}

// The Hurwitz zeta function sum_k (k + q)^-s, in double: Cephes' zeta, as PyTorch's (direct
// summation until q + k > 9 and at least 9 terms, then the Euler-Maclaurin correction with
// B_2j / (2j)!, 12 terms). zeta(1, q) = inf; nan for s < 1; inf at q = 0, -1, -2, ...; nan for
// other q <= 0 unless s is an integer.
inline double hurwitz_zeta(double s, double q) {
  const double kMachEp = 1.11022302462515654042E-16;
  if (s == 1) return infinity<double>();
  if (s < 1) return quiet_nan<double>();
  if (q <= 0) {
    if (q == floor(q)) return infinity<double>();
    if (s != floor(s)) return quiet_nan<double>();
  }
  // (2j)! / B_2j.
  constexpr double kA[12] = {12.0,
                             -720.0,
                             30240.0,
                             -1209600.0,
                             47900160.0,
                             -1.8924375803183791606e9,
                             7.47242496e10,
                             -2.950130727918164224e12,
                             1.1646782814350067249e14,
                             -4.5979787224074726105e15,
                             1.8152105401943546773e17,
                             -7.1661652561756670113e18};
  double sum = pow(q, -s);
  double a = q;
  double b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    i += 1;
    a += 1;
    b = pow(a, -s);
    sum += b;
    if (-kMachEp * sum < b && b < kMachEp * sum) return sum;
  }
  // Terms that underflowed (huge s): the Euler-Maclaurin tail, multiples of b, is 0 too (its
  // factors s (s + 1) ... would overflow into 0 * inf). PyTorch: nan.
  if (b == 0) return sum;
  const double w = a;
  sum += b * w / (s - 1);
  sum -= 0.5 * b;
  double factor = 1;
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    factor *= s + k;
    b /= w;
    double t = factor * b / kA[j];
    sum = sum + t;
    t = abs(t / sum);
    if (t < kMachEp) return sum;
    k += 1;
    factor *= s + k;
    b /= w;
    k += 1;
  }
  return sum;
}

// polygamma, psi^(n)(x), for n >= 0 (the op checks n). n = 0 is digamma (in T, as the digamma
// op). n >= 1 is computed in double and rounded to T, so float results are float's roundings of
// the exact value: trigamma_double for n = 1, else (-1)^(n+1) n! zeta(n + 1, x) with Cephes'
// zeta, as PyTorch's calc_polygamma, except for x < -100: Cephes sums from x itself, -x terms
// (10 s per element at x = -1e9, whose sign it loses to rounding), so there, with
// f = x - floor(x) and s = n + 1, zeta(s, x) = zeta(s, f) + (-1)^s (zeta(s, 1 - f) -
// zeta(s, 1 - x)), three sums over positive arguments. Special values: at the poles 0, -1, -2, ...
// (-1)^(n+1) inf (for odd n the limit from both sides; for even n zeta's sign, the limit from the
// right); at +inf the limit,
// (-1)^(n+1) 0 (1.13: nan for n >= 2, zeta's 0 * inf); at -inf nan, as there is no limit (1.13:
// (-1)^(n+1) inf for n >= 2); nan at nan.
// Accuracy (relative, absolute below 1, against Boost.Math's polygamma, n = 2 to 5): on
// [0.001, 30] <= 1.5e-15 (measured 8.4e-16); on [-300, 0] <= 1e-12 (measured 4.1e-13 for n = 4,
// 1.4e-14 for n = 2, 1.3e-15 for odd n: for even n, terms of both signs cancel near the zeros);
// float, the rounding of these (<= 6e-8, measured 5.9e-8).
inline double polygamma_double(int n, double x) {
  if (n == 1) return trigamma_double(x);
  const double sign = (n % 2) ? 1.0 : -1.0;
  if (x == infinity<double>()) return sign * 0.0;
  if (x == -infinity<double>()) return quiet_nan<double>();
  const double s = static_cast<double>(n + 1);
  double zeta;
  if (x < -100 && x != floor(x)) {
    const double f = x - floor(x);  // exact
    // (-1)^s = (-1)^(n+1) = sign.
    zeta = hurwitz_zeta(s, f) + sign * (hurwitz_zeta(s, 1 - f) - hurwitz_zeta(s, 1 - x));
  } else {
    zeta = hurwitz_zeta(s, x);
  }
  const double factorial = exp(lgamma(static_cast<double>(n) + 1));
  return sign * factorial * zeta;
}

template <typename T>
T polygamma(int n, T x) {
  if (n == 0) return digamma(x);
  return static_cast<T>(polygamma_double(n, static_cast<double>(x)));
}

// mvlgamma, the multivariate log-gamma function of dimension p >= 1 (the op checks p):
// p (p - 1) / 4 log(pi) + sum_{j < p} lgamma(x - j / 2), summed from j = p - 1 down as PyTorch
// (which adds lgamma of x + arange((1 - p) / 2, 1/2, 1/2) along a new last dim). No check of
// x > (p - 1) / 2: PyTorch 1.13 has none either (lgamma's value at the poles, inf, and its
// log |gamma| elsewhere). Computed in double and rounded once to T: x - j / 2 is exact in double
// for a float x, where float's own rounds it and lgamma magnifies that next to its poles
// (PyTorch 1.13's float mvlgamma(-7.5044, 2) is 1.1e-4 off).
// Accuracy (relative, absolute below 1, against lgamma in long double, p = 1 to 5, x in
// [-30, 1e5], each x - j / 2 at least 1e-3 from a pole): double <= 5e-13 (measured 3.3e-13 next
// to the poles, where glibc's lgamma is least accurate and the terms cancel; 4.1e-16 above 30);
// float, its rounding (<= 6e-8, measured 5.9e-8).
template <typename T>
T mvlgamma(T x, int p) {
  const double wide = static_cast<double>(x);
  double sum = 0;
  for (int j = p - 1; j >= 0; --j) sum += lgamma(wide - static_cast<double>(j) / 2);
  const double log_pi = 1.14472988584940017414;
  return static_cast<T>(sum + static_cast<double>(p) * static_cast<double>(p - 1) * log_pi / 4.0);
}

// ---- Binary special functions: xlogy, xlog1py, zeta, igamma, igammac ------------------------

// The Hurwitz zeta function zeta(s, q) = sum_{k >= 0} (k + q)^-s, in double (float inputs are
// exact in double; the result is rounded once). hurwitz_zeta above (Cephes' summation plus
// Euler-Maclaurin, as PyTorch) for q >= -100; for q < -100 and integer s (otherwise the value is
// nan) the reflection polygamma_double uses, with f = q - floor(q), three sums over positive
// arguments, zeta(s, f) + (-1)^s (zeta(s, 1 - f) - zeta(s, 1 - q)): bounded work, where PyTorch
// 1.13 sums -q terms from q upwards (it never ends in float32 below -2^24, where q + 1 == q).
// Special values: zeta(1, q) = inf; nan for s < 1 and for s or q nan; inf at q = 0, -1, -2, ...;
// nan for other q < 0 unless s is an integer (as 1.13); the limits zeta(s, +inf) = 0 and
// zeta(+inf, q) = 0, 1, inf for q > 1, q = 1, 0 < q < 1 (1.13: nan); nan at q = -inf, which has
// no limit (1.13: inf) and for s = +inf with q < 0.
// Accuracy (relative, absolute below 1, against Boost.Math's polygamma for integer s and a long
// double Euler-Maclaurin sum otherwise): q > 0 <= 5e-15 (Cephes' bound; measured 1.2e-15); q < 0,
// integer s <= 1e-12 (terms of both signs cancel near the zeros of odd s); float, the rounding
// of these.
inline double zeta_double(double s, double q) {
  if (s == 1) return infinity<double>();
  if (s < 1 || !(s == s) || !(q == q)) return quiet_nan<double>();
  if (q == infinity<double>()) return 0.0;
  if (q == -infinity<double>()) return quiet_nan<double>();
  if (q <= 0 && q == floor(q)) return infinity<double>();
  if (q < 0 && s != floor(s)) return quiet_nan<double>();
  if (s == infinity<double>()) {
    if (q < 0) return quiet_nan<double>();
    return q > 1 ? 0.0 : (q == 1 ? 1.0 : infinity<double>());
  }
  if (q < -100) {
    const double f = q - floor(q);                       // exact, in (0, 1)
    const double sign = fmod(s, 2.0) == 0 ? 1.0 : -1.0;  // (-1)^s
    return hurwitz_zeta(s, f) + sign * (hurwitz_zeta(s, 1 - f) - hurwitz_zeta(s, 1 - q));
  }
  return hurwitz_zeta(s, q);
}

template <typename T>
T zeta(T s, T q) {
  return static_cast<T>(zeta_double(static_cast<double>(s), static_cast<double>(q)));
}

namespace special_detail {

// log(x / a) - (x - a) / a, that is log1p(t) - t for t = (x - a) / a, without cancellation:
// the series -t^2/2 + t^3/3 - ... for |t| < 0.5, else from x / a itself (1 + t would round
// away the digits of a small x / a).
inline double log_ratio_minus(double x, double a) {
  const double t = (x - a) / a;
  if (abs(t) >= 0.5) return log(x / a) - t;
  double power = t;
  double sum = 0;
  for (int k = 2; k < 60; ++k) {
    power *= -t;
    const double term = power / k;
    sum += term;
    if (abs(term) <= 1e-17 * abs(sum)) break;
  }
  return sum;
}

// x^a e^-x / gamma(a), the factor in front of the incomplete gamma functions' series and
// continued fraction. For a >= 10 written as exp(a (log(x / a) - (x - a) / a)) sqrt(a / (2 pi)) /
// gamma*(a), with Stirling's series for gamma*(a) = gamma(a) / (sqrt(2 pi) a^(a - 1/2) e^-a), so
// that no large logarithms cancel; below, exp(a log x - x - lgamma(a)).
inline double igamma_factor(double a, double x) {
  if (a < 10) return exp(a * log(x) - x - lgamma(a));
  const double z = 1 / (a * a);
  // sum_k B_2k / (2k (2k - 1) a^(2k - 1)), k = 1..8 (Horner's scheme in 1 / a^2).
  double series = -3617.0 / 122400.0;
  series = series * z + 1.0 / 156.0;
  series = series * z - 691.0 / 360360.0;
  series = series * z + 1.0 / 1188.0;
  series = series * z - 1.0 / 1680.0;
  series = series * z + 1.0 / 1260.0;
  series = series * z - 1.0 / 360.0;
  series = series * z + 1.0 / 12.0;
  const double log_gamma_star = series / a;
  const double inv_sqrt_2pi = 0.398942280401432677939946059934;
  return exp(a * log_ratio_minus(x, a) - log_gamma_star) * sqrt(a) * inv_sqrt_2pi;
}

// P(a, x) by its power series (DLMF 8.11.4): x^a e^-x / gamma(a + 1) sum_n x^n / ((a + 1) ...
// (a + n)); for x <= a or x <= 1, where its terms fall at once or soon (about 9 sqrt(a) terms
// where x is near a < 1e4).
inline double igamma_series(double a, double x) {
  const double factor = igamma_factor(a, x);
  if (factor == 0) return 0.0;
  double r = a;
  double term = 1;
  double sum = 1;
  for (int i = 0; i < 4000; ++i) {
    r += 1;
    term *= x / r;
    sum += term;
    if (term <= 1.1e-16 * sum) break;
  }
  return sum * factor / a;
}

// Q(a, x) for small x (DLMF 8.7.3): 1 - x^a / gamma(a + 1) + x^a / gamma(a) sum_{n >= 1}
// (-x)^n / (n! (a + n)), written so that neither part cancels: -expm1(a log x - lgamma(a + 1))
// - x^a / gamma(a) sum.
inline double igammac_small_x(double a, double x) {
  double factor = 1;
  double sum = 0;
  for (int n = 1; n < 4000; ++n) {
    factor *= -x / n;
    const double term = factor / (a + n);
    sum += term;
    if (abs(term) <= 1.1e-16 * abs(sum)) break;
  }
  const double log_x = log(x);
  return -expm1(a * log_x - lgamma(a + 1)) - exp(a * log_x - lgamma(a)) * sum;
}

// Q(a, x) by Legendre's continued fraction (DLMF 8.9.2), evaluated by the modified Lentz
// method, for x > a and x > 1.1.
inline double igammac_fraction(double a, double x) {
  const double factor = igamma_factor(a, x);
  if (factor == 0) return 0.0;
  const double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 4000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (abs(delta - 1) <= 1.1e-16) break;
  }
  return factor * h;
}

// Temme's uniform expansion for large a (DLMF 8.12.3, 8.12.4): Q = erfc(eta sqrt(a / 2)) / 2 +
// R, P = erfc(-eta sqrt(a / 2)) / 2 - R, R = e^(-a eta^2 / 2) / sqrt(2 pi a) sum_k ck(eta) a^-k,
// with eta^2 / 2 = lambda - 1 - log lambda, lambda = x / a, eta of lambda - 1's sign. For
// |eta| < 0.5 (all of the range where R does not underflow, for a >= 1e4, where it is used) c0
// to c3 by their Taylor series in eta, derived here by series reversion of lambda(eta) and the
// recurrence ck = c(k-1)' / eta + (-1)^k gk / (lambda - 1) (DLMF 8.12.11; gk: Stirling's series
// of gamma*); the next term, c4 / a^4 with |c4| < 9e-4, is below 1e-19. Beyond, c0 and c1 by
// their closed forms (DLMF 8.12.9, 8.12.10).
inline double igamma_temme(double a, double x, bool upper) {
  const double t = (x - a) / a;  // lambda - 1
  const double half_eta2 = -log_ratio_minus(x, a);
  const double eta = copysign(sqrt(2 * half_eta2), t);
  double sum;  // c0 + c1 / a + c2 / a^2 + c3 / a^3
  if (abs(eta) < 0.5) {
    constexpr double kC0[18] = {
        -3.3333333333333333e-1,  8.3333333333333333e-2,   -1.4814814814814815e-2,
        1.1574074074074074e-3,   3.5273368606701940e-4,   -1.7875514403292181e-4,
        3.9192631785224378e-5,   -2.1854485106799922e-6,  -1.8540622107151600e-6,
        8.2967113409530870e-7,   -1.7665952736826078e-7,  6.7078535434014980e-9,
        1.0261809784240309e-8,   -4.3820360184533530e-9,  9.1476995822367900e-10,
        -2.5514193994946248e-11, -5.8307721325504260e-11, 2.4361948020667415e-11};
    constexpr double kC1[18] = {
        -1.8518518518518519e-3, -3.4722222222222222e-3,  2.6455026455026455e-3,
        -9.9022633744855960e-4, 2.0576131687242798e-4,   -4.0187757201646090e-7,
        -1.8098550334489977e-5, 7.6491609160811100e-6,   -1.6120900894563446e-6,
        4.6471278028074340e-9,  1.3786334469157210e-7,   -5.7525456035177050e-8,
        1.1951628599778148e-8,  -1.7543241719747647e-11, -1.0091543710600413e-9,
        4.1627929918425830e-10, -8.5639070264929800e-11, 6.0672151016047580e-14};
    constexpr double kC2[14] = {
        4.1335978835978834e-3,  -2.6813271604938273e-3, 7.7160493827160490e-4,
        2.0093878600823047e-6,  -1.0736653226365160e-4, 5.2923448829120125e-5,
        -1.2760635188618728e-5, 3.4235787340961378e-8,  1.3721957309062934e-6,
        -6.2989921383800548e-7, 1.4280614206064242e-7,  -2.0477098421990866e-10,
        -1.4092529910867520e-8, 6.2289740849220218e-9};
    constexpr double kC3[12] = {
        6.4943415637860077e-4,   2.2947209362139917e-4,  -4.6918949439525570e-4,
        2.6772063206283885e-4,   -7.5618016718839766e-5, -2.3965051138672968e-7,
        1.1082654115347302e-5,   -5.6749528269915965e-6, 1.4230900732435883e-6,
        -2.7861080291528143e-11, -1.6958404091930278e-7, 8.0994649053880827e-8};
    double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (int k = 17; k >= 0; --k) {
      c0 = c0 * eta + kC0[k];
      c1 = c1 * eta + kC1[k];
    }
    for (int k = 13; k >= 0; --k) c2 = c2 * eta + kC2[k];
    for (int k = 11; k >= 0; --k) c3 = c3 * eta + kC3[k];
    sum = c0 + (c1 + (c2 + c3 / a) / a) / a;
  } else {
    // Here e^(-a eta^2 / 2) < e^-1250: c0 and c1 are plenty.
    const double inv_mu = 1 / t;
    const double inv_eta = 1 / eta;
    const double c0 = inv_mu - inv_eta;
    const double c1 =
        inv_eta * inv_eta * inv_eta - inv_mu * inv_mu * inv_mu - inv_mu * inv_mu - inv_mu / 12;
    sum = c0 + c1 / a;
  }
  const double inv_sqrt_2pi = 0.398942280401432677939946059934;
  const double r = exp(-a * half_eta2) * inv_sqrt_2pi / sqrt(a) * sum;
  const double w = eta * sqrt(a / 2);
  return upper ? erfc(w) / 2 + r : erfc(-w) / 2 - r;
}

}  // namespace special_detail

// igammac_double(a, x), Q(a, x) = gamma(a, x) / gamma(a), the regularized upper incomplete gamma
// function, and igamma_double(a, x), P(a, x) = 1 - Q(a, x), the lower one, in double. The
// boundary values are PyTorch's (SciPy's), checked in this order: nan for a < 0 or x < 0; at
// a = 0, P = 1 and Q = 0 for x > 0, else nan; at x = 0, P = 0 and Q = 1; at a = inf, nan for
// x = inf, else P = 0 and Q = 1; at x = inf, P = 1 and Q = 0 (so a nan a with x = 0 or inf gives
// these, as PyTorch). Then, as SciPy chooses its regions: Temme's uniform expansion for a >= 1e4
// (PyTorch: for a > 20 near x = a, with 25 terms); P by its series for x <= 1 or x <= a, else
// 1 - Q; Q by its continued fraction for x > 1.1 and x > a, by 1 - P for x < a (and for small x
// when a > -0.4 / log x, or x > 0.5 and a > 1.1 x), else by the small-x series (DLMF 8.7.3).
// Every region takes at most a few thousand terms (about 9 sqrt(a) near x = a).
// Accuracy (relative, absolute below 1e-300, against Boost.Math's gamma_p / gamma_q in long
// double, a in [1e-3, 1e6], x from 1e-3 to 20 a): <= 1e-12 (measured 3.6e-13 in the far
// tails: exp of a multiple of a); float, the rounding of these.
inline double igamma_regions(double a, double x, bool upper) {
  if (a >= 1e4) return special_detail::igamma_temme(a, x, upper);
  if (!upper) {
    if (x > 1 && x > a) {  // 1 - Q, Q as below (no recursion: device code)
      return 1 - (x > 1.1 ? special_detail::igammac_fraction(a, x)
                          : special_detail::igammac_small_x(a, x));
    }
    return special_detail::igamma_series(a, x);
  }
  if (x > 1.1) {
    if (x < a) return 1 - special_detail::igamma_series(a, x);
    return special_detail::igammac_fraction(a, x);
  }
  const bool lower_first = x <= 0.5 ? -0.4 / log(x) < a : x * 1.1 < a;
  if (lower_first) return 1 - special_detail::igamma_series(a, x);
  return special_detail::igammac_small_x(a, x);
}

inline double igamma_double(double a, double x, bool upper) {
  const double nan = quiet_nan<double>();
  const double inf = infinity<double>();
  if (x < 0 || a < 0) return nan;
  if (a == 0) return x > 0 ? (upper ? 0.0 : 1.0) : nan;
  if (x == 0) return upper ? 1.0 : 0.0;
  if (a == inf) return x == inf ? nan : (upper ? 1.0 : 0.0);
  if (x == inf) return upper ? 0.0 : 1.0;
  if (!(a == a) || !(x == x)) return nan;
  return igamma_regions(a, x, upper);
}

template <typename T>
T igamma(T a, T x) {
  return static_cast<T>(igamma_double(static_cast<double>(a), static_cast<double>(x), false));
}

template <typename T>
T igammac(T a, T x) {
  return static_cast<T>(igamma_double(static_cast<double>(a), static_cast<double>(x), true));
}

// The functors of the ops (`math: Digamma`), in the compute type (float for float16 and
// bfloat16 inputs).
struct Digamma {
  template <typename T>
  T operator()(T x) const {
    return digamma(x);
  }
};

// lgamma: log |gamma(x)|, of the primitive (C's lgamma on the host, libdevice's on the device).
struct Lgamma {
  template <typename T>
  T operator()(T x) const {
    return lgamma_rounded(x);
  }
};

struct Erfinv {
  template <typename T>
  T operator()(T x) const {
    return calc_erfinv(x);
  }
};

struct I0 {
  template <typename T>
  T operator()(T x) const {
    return i0(x);
  }
};

struct I0e {
  template <typename T>
  T operator()(T x) const {
    return i0e(x);
  }
};

struct I1 {
  template <typename T>
  T operator()(T x) const {
    return i1(x);
  }
};

struct I1e {
  template <typename T>
  T operator()(T x) const {
    return i1e(x);
  }
};

// sinc: real and complex values.
struct Sinc {
  template <typename T>
  T operator()(T x) const {
    return sinc(x);
  }
};

struct Ndtr {
  template <typename T>
  T operator()(T x) const {
    return ndtr(x);
  }
};

struct Ndtri {
  template <typename T>
  T operator()(T x) const {
    return ndtri(x);
  }
};

struct LogNdtr {
  template <typename T>
  T operator()(T x) const {
    return log_ndtr(x);
  }
};

struct Erfcx {
  template <typename T>
  T operator()(T x) const {
    return erfcx(x);
  }
};

struct Entr {
  template <typename T>
  T operator()(T x) const {
    return entr(x);
  }
};

// polygamma(n, x): n reaches the functor as a number in the compute type.
struct Polygamma {
  template <typename T>
  T operator()(T x, T n) const {
    return polygamma(static_cast<int>(n), x);
  }
};

struct Mvlgamma {
  template <typename T>
  T operator()(T x, T p) const {
    return mvlgamma(x, static_cast<int>(p));
  }
};

struct BesselJ0 {
  template <typename T>
  T operator()(T x) const {
    return bessel_j0(x);
  }
};

struct BesselJ1 {
  template <typename T>
  T operator()(T x) const {
    return bessel_j1(x);
  }
};

// xlogy(self, other) = x log(y), 0 where x == 0 (even for y = 0 or inf), nan where y is nan,
// as PyTorch's xlogy; special_xlog1py = x log1p(y) likewise. Written with select() so the same
// body runs on vectors (both branches are evaluated: the product's nan or inf is discarded), in
// the functor itself: a helper the compiler keeps out of line would be compiled for the baseline
// ISA and hand SLEEF's log1p its vector in memory. Accuracy: log's and log1p's, plus the
// product's rounding.
struct Xlogy {
  static constexpr bool kVectorized = true;
  template <typename T>
  T operator()(T x, T y) const {
    return select(y != y, y, select(x == T(0), T(0), x * log(y)));
  }
};

struct Xlog1py {
  static constexpr bool kVectorized = true;
  template <typename T>
  BP_MATH_ALWAYS_INLINE T operator()(T x, T y) const {
    return select(y != y, y, select(x == T(0), T(0), x * log1p(y)));
  }
};

// special_zeta(self, other): zeta(s = self, q = other).
struct Zeta {
  template <typename T>
  T operator()(T s, T q) const {
    return zeta(s, q);
  }
};

// igamma(self, other) = P(a = self, x = other); igammac = Q(a, x).
struct Igamma {
  template <typename T>
  T operator()(T a, T x) const {
    return igamma(a, x);
  }
};

struct Igammac {
  template <typename T>
  T operator()(T a, T x) const {
    return igammac(a, x);
  }
};

}  // namespace bp::math

#endif  // BACKPLANE_REFERENCE_BACKEND_MATH_SPECIAL_H_
