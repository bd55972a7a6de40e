// bp::complex<T>: the element type of ScalarType::kComplex64 (T = float) and kComplex128
// (T = double).
//
//   complex<float> z(1.0f, 2.0f);
//   complex<float> w = z * z + 1.0f;               // (-2, 4)
//   complex<double> wide = z;                      // widening is implicit
//   complex<float> narrow(wide);                   // narrowing is explicit
//   std::complex<float> s = static_cast<std::complex<float>>(z);
//   std::cout << w;                                // "(-2,4)"
//
// The type is portable source shared with the CUDA plugin's jitted kernels
// (sdk/core/portable/complex.h: layout, arithmetic, std::complex conversions); this header adds
// printing and checks the layout against std::complex.
//
// Thread safety: a value type; no shared state.
#ifndef BACKPLANE_SDK_CORE_COMPLEX_H_
#define BACKPLANE_SDK_CORE_COMPLEX_H_

#include <complex>
#include <ostream>
#include <type_traits>

#include "sdk/core/portable/complex.h"  // IWYU pragma: export

namespace bp {

static_assert(sizeof(complex<float>) == sizeof(std::complex<float>) &&
              alignof(complex<float>) == 8);
static_assert(sizeof(complex<double>) == sizeof(std::complex<double>) &&
              alignof(complex<double>) == 16);
static_assert(std::is_trivially_copyable_v<complex<float>> &&
              std::is_trivially_copyable_v<complex<double>>);

// Prints "(re,im)", as for std::complex.
template <typename T>
std::ostream& operator<<(std::ostream& out, const complex<T>& z) {
  return out << static_cast<std::complex<T>>(z);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_COMPLEX_H_
