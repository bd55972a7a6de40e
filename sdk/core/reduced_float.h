// Operators shared by the 16-bit floating-point types bp::Half and bp::BFloat16.
//
//   Half a = 1.5f, b = 2.0f;
//   Half c = a * b;        // 3.0: computed in float, rounded back to Half
//   float d = a * 2.0f;    // mixed with float: the result is a float (as c10::Half)
//   std::cout << c;        // "3"
//
// Include half.h or bfloat16.h rather than this header. The arithmetic and comparisons are
// portable source shared with the jitted kernels (sdk/core/portable/reduced_float.h); this header
// adds printing.
//
// Thread safety: these are pure functions.
#ifndef BACKPLANE_SDK_CORE_REDUCED_FLOAT_H_
#define BACKPLANE_SDK_CORE_REDUCED_FLOAT_H_

#include <ostream>

#include "sdk/core/portable/reduced_float.h"  // IWYU pragma: export

namespace bp {

// Prints the value as a float would print, e.g. "1.5".
template <detail::ReducedFloat T>
std::ostream& operator<<(std::ostream& out, T value) {
  return out << static_cast<float>(value);
}

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_REDUCED_FLOAT_H_
