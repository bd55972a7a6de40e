// PyTorch's floor division written plainly (branches and std::), the reference the vector paths
// are tested against bit for bit (vec_division_test, reference_backend/cpu's vector_math_test).
//
//   EXPECT_EQ(bits(got), bits(floor_divide_reference(a, b)));
//
// Thread safety: a pure function. Test-only.
#ifndef BACKPLANE_SDK_ITER_VEC_DIVISION_REFERENCE_H_
#define BACKPLANE_SDK_ITER_VEC_DIVISION_REFERENCE_H_

#include <cmath>
#include <type_traits>

namespace bp::testing {

// Python's a // b: integers (b != 0) rounded toward negative infinity, a divisor of -1 negating
// with wraparound; floating types as PyTorch's div_floor_floating (the exact floor of the real
// quotient from fmod; b == 0 gives the IEEE quotient; a zero result has the sign of a / b).
template <typename T>
T floor_divide_reference(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // In unsigned arithmetic: the minimum wraps to itself, without signed overflow.
    if (b == T(-1)) return static_cast<T>(-static_cast<std::make_unsigned_t<T>>(a));
    const T q = static_cast<T>(a / b);
    return (a % b != 0 && (a < 0) != (b < 0)) ? static_cast<T>(q - 1) : q;
  } else {
    if (b == T(0)) return a / b;
    const T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && (b < T(0)) != (mod < T(0))) div -= T(1);
    if (div == T(0)) return std::copysign(T(0), a / b);
    T floored = std::floor(div);
    if (div - floored > T(0.5)) floored += T(1);
    return floored;
  }
}

}  // namespace bp::testing

#endif  // BACKPLANE_SDK_ITER_VEC_DIVISION_REFERENCE_H_
