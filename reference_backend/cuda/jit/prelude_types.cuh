// Device prelude, part 1: the element types and conversions every jitted kernel uses.
//
// This file is NVRTC source, embedded as text in the CUDA plugin (jit_sources.h) and compiled
// with `-default-device` (functions without an annotation are device functions). NVRTC 13 has no
// <cstdint>, <type_traits>, <cmath>, cuda_fp16.h or complex headers, so everything a kernel needs
// is defined here, in the way PyTorch's jiterator embeds its own Half / BFloat16 / complex.
//
// It also compiles as host C++ (after <cstdint> and <cmath>) inside a wrapping namespace, for the
// host emulation of kernels (host_emulation.h) and the plugin's host-side conversions: so it has
// no #include and puts everything in namespaces `bp`, `bp::math` and `bp::jit`.
//
// The element types mirror sdk/core (same layout, same conversions) so that device results match
// the CPU backend bit for bit where the math is exact:
//   bp::Half / bp::BFloat16   16-bit storage, converted through float (round to nearest even);
//   bp::complex<T>            {real, imag}, alignas(2 * sizeof(T)), c10's arithmetic;
//   bp::jit::cast<To>(from)   sdk/core/element_cast.h's element_cast (PyTorch's kernel casts).
#if defined(__CUDACC_RTC__)
#define BP_JIT_INLINE __forceinline__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#define BP_JIT_INLINE inline
#endif

namespace bp {
namespace jit {

// ---- Type traits (NVRTC has no <type_traits>) ---------------------------------------------------

template <typename A, typename B>
inline constexpr bool is_same_v = false;
template <typename A>
inline constexpr bool is_same_v<A, A> = true;

template <bool kCondition, typename A, typename B>
struct conditional {
  using type = A;
};
template <typename A, typename B>
struct conditional<false, A, B> {
  using type = B;
};
template <bool kCondition, typename A, typename B>
using conditional_t = typename conditional<kCondition, A, B>::type;

// ---- Bit casts ----------------------------------------------------------------------------------

// __builtin_bit_cast: constexpr, and understood by NVRTC, GCC and Clang alike.
constexpr uint32_t bits_of(float value) { return __builtin_bit_cast(uint32_t, value); }
constexpr float float_of(uint32_t bits) { return __builtin_bit_cast(float, bits); }
constexpr double double_of(uint64_t bits) { return __builtin_bit_cast(double, bits); }
BP_JIT_INLINE int count_leading_zeros(uint32_t x) {
#if defined(__CUDACC_RTC__)
  return __clz(static_cast<int>(x));
#else
  return x == 0 ? 32 : __builtin_clz(x);
#endif
}

// ---- float <-> binary16 / bfloat16 (sdk/core/half.h, bfloat16.h) --------------------------------

// Round to nearest, ties to even; overflow gives +-inf; NaN gives 0x7E00 with the input's sign
// (the device's conversion instruction gives 0x7FFF: the same value, another NaN payload).
BP_JIT_INLINE uint16_t float_to_half_bits(float value) {
#if defined(__CUDA_ARCH__)
  uint16_t bits;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(value));
  return bits;
#endif
  const uint32_t f = bits_of(value);
  const uint16_t sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t magnitude = f & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return sign | 0x7E00u;
  if (magnitude >= 0x477FF000u) return sign | 0x7C00u;
  if (magnitude >= 0x38800000u) {
    const uint32_t rebiased = magnitude - (112u << 23);
    return sign | static_cast<uint16_t>((rebiased + 0xFFFu + ((rebiased >> 13) & 1u)) >> 13);
  }
  const uint32_t exponent = magnitude >> 23;
  if (exponent < 102) return sign;
  const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126 - exponent;
  const uint32_t kept = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  const uint32_t rounded = kept + ((rest > halfway || (rest == halfway && (kept & 1u))) ? 1u : 0u);
  return sign | static_cast<uint16_t>(rounded);
}

// Exact; NaN payloads are kept.
BP_JIT_INLINE float half_bits_to_float(uint16_t bits) {
#if defined(__CUDA_ARCH__)
  float value;
  asm("cvt.f32.f16 %0, %1;" : "=f"(value) : "h"(bits));
  return value;
#endif
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exponent == 0x1F) return float_of(sign | 0x7F800000u | (mantissa << 13));
  if (exponent != 0) return float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  if (mantissa == 0) return float_of(sign);
  const int shift = count_leading_zeros(mantissa) - 21;
  mantissa = (mantissa << shift) & 0x3FFu;
  return float_of(sign | (static_cast<uint32_t>(113 - shift) << 23) | (mantissa << 13));
}

// Round to nearest, ties to even; NaN gives 0x7FC0 with the input's sign (sm_80's conversion
// instruction gives 0x7FFF: the same value, another NaN payload).
BP_JIT_INLINE uint16_t float_to_bfloat16_bits(float value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint16_t bits;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(bits) : "f"(value));
  return bits;
#endif
  const uint32_t f = bits_of(value);
  if ((f & 0x7FFFFFFFu) > 0x7F800000u) {
    return static_cast<uint16_t>(((f >> 16) & 0x8000u) | 0x7FC0u);
  }
  return static_cast<uint16_t>((f + 0x7FFFu + ((f >> 16) & 1u)) >> 16);
}

BP_JIT_INLINE float bfloat16_bits_to_float(uint16_t bits) {
  return float_of(static_cast<uint32_t>(bits) << 16);
}

}  // namespace jit

// ---- Element types ------------------------------------------------------------------------------

struct Half {
  Half() = default;
  BP_JIT_INLINE Half(float value) : bits(jit::float_to_half_bits(value)) {}       // NOLINT
  BP_JIT_INLINE operator float() const { return jit::half_bits_to_float(bits); }  // NOLINT
  uint16_t bits;
};

struct BFloat16 {
  BFloat16() = default;
  BP_JIT_INLINE BFloat16(float value) : bits(jit::float_to_bfloat16_bits(value)) {}   // NOLINT
  BP_JIT_INLINE operator float() const { return jit::bfloat16_bits_to_float(bits); }  // NOLINT
  uint16_t bits;
};

// sdk/core/complex.h's bp::complex: plain multiplication, Smith's division, real operands touch
// only the parts they change.
template <typename T>
struct alignas(2 * sizeof(T)) complex {
  using value_type = T;

  complex() = default;
  constexpr complex(T re, T im = T(0)) : real_(re), imag_(im) {}  // NOLINT
  template <typename U>
  explicit constexpr complex(const complex<U>& z)
      : real_(static_cast<T>(z.real())), imag_(static_cast<T>(z.imag())) {}

  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
  BP_JIT_INLINE void real(T value) { real_ = value; }
  BP_JIT_INLINE void imag(T value) { imag_ = value; }

  BP_JIT_INLINE complex& operator+=(const complex& z) {
    real_ += z.real_;
    imag_ += z.imag_;
    return *this;
  }
  BP_JIT_INLINE complex& operator-=(const complex& z) {
    real_ -= z.real_;
    imag_ -= z.imag_;
    return *this;
  }
  BP_JIT_INLINE complex& operator*=(const complex& z) {
    const T re = real_ * z.real_ - imag_ * z.imag_;
    imag_ = real_ * z.imag_ + imag_ * z.real_;
    real_ = re;
    return *this;
  }
  BP_JIT_INLINE complex& operator/=(const complex& z) {
    const T a = real_, b = imag_, c = z.real_, d = z.imag_;
    const T abs_c = c < T(0) ? -c : c;
    const T abs_d = d < T(0) ? -d : d;
    if (abs_c >= abs_d) {
      if (abs_c == T(0) && abs_d == T(0)) {
        real_ = a / abs_c;
        imag_ = b / abs_d;
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
  BP_JIT_INLINE complex& operator+=(T x) {
    real_ += x;
    return *this;
  }
  BP_JIT_INLINE complex& operator-=(T x) {
    real_ -= x;
    return *this;
  }
  BP_JIT_INLINE complex& operator*=(T x) {
    real_ *= x;
    imag_ *= x;
    return *this;
  }
  BP_JIT_INLINE complex& operator/=(T x) {
    real_ /= x;
    imag_ /= x;
    return *this;
  }

 private:
  T real_;
  T imag_;
};

namespace jit {
// The scalar side of complex operators, kept out of deduction (std::type_identity_t).
template <typename T>
struct identity {
  using type = T;
};
template <typename T>
using identity_t = typename identity<T>::type;
}  // namespace jit

template <typename T>
BP_JIT_INLINE complex<T> operator+(const complex<T>& z) {
  return z;
}
template <typename T>
BP_JIT_INLINE complex<T> operator-(const complex<T>& z) {
  return complex<T>(-z.real(), -z.imag());
}
template <typename T>
BP_JIT_INLINE complex<T> operator+(complex<T> a, const complex<T>& b) {
  return a += b;
}
template <typename T>
BP_JIT_INLINE complex<T> operator-(complex<T> a, const complex<T>& b) {
  return a -= b;
}
template <typename T>
BP_JIT_INLINE complex<T> operator*(complex<T> a, const complex<T>& b) {
  return a *= b;
}
template <typename T>
BP_JIT_INLINE complex<T> operator/(complex<T> a, const complex<T>& b) {
  return a /= b;
}
template <typename T>
BP_JIT_INLINE complex<T> operator+(complex<T> a, jit::identity_t<T> x) {
  return a += x;
}
template <typename T>
BP_JIT_INLINE complex<T> operator-(complex<T> a, jit::identity_t<T> x) {
  return a -= x;
}
template <typename T>
BP_JIT_INLINE complex<T> operator*(complex<T> a, jit::identity_t<T> x) {
  return a *= x;
}
template <typename T>
BP_JIT_INLINE complex<T> operator/(complex<T> a, jit::identity_t<T> x) {
  return a /= x;
}
template <typename T>
BP_JIT_INLINE complex<T> operator+(jit::identity_t<T> x, const complex<T>& z) {
  return complex<T>(x + z.real(), z.imag());
}
template <typename T>
BP_JIT_INLINE complex<T> operator-(jit::identity_t<T> x, const complex<T>& z) {
  return complex<T>(x - z.real(), -z.imag());
}
template <typename T>
BP_JIT_INLINE complex<T> operator*(jit::identity_t<T> x, const complex<T>& z) {
  return complex<T>(x * z.real(), x * z.imag());
}
template <typename T>
BP_JIT_INLINE complex<T> operator/(jit::identity_t<T> x, const complex<T>& z) {
  return complex<T>(x) / z;
}
template <typename T>
BP_JIT_INLINE bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
BP_JIT_INLINE bool operator!=(const complex<T>& a, const complex<T>& b) {
  return !(a == b);
}
template <typename T>
BP_JIT_INLINE bool operator==(const complex<T>& a, jit::identity_t<T> x) {
  return a.real() == x && a.imag() == T(0);
}
template <typename T>
BP_JIT_INLINE bool operator!=(const complex<T>& a, jit::identity_t<T> x) {
  return !(a == x);
}

// ---- The traits of primitives.h -----------------------------------------------------------------

namespace math {

// The element type of a value: T itself (the device has no Vectorized<T>; the host's element_t
// also unwraps vectors).
template <typename T>
struct element_of {
  using type = T;
};
template <typename T>
using element_t = typename element_of<T>::type;

template <typename T>
inline constexpr bool is_complex_v = false;
template <typename T>
inline constexpr bool is_complex_v<complex<T>> = true;

template <typename T>
inline constexpr bool is_bool_v = jit::is_same_v<T, bool>;

// Integers, not bool (every spelling of the fundamental integer types).
template <typename T>
inline constexpr bool is_integral_v = false;
template <>
inline constexpr bool is_integral_v<char> = true;
template <>
inline constexpr bool is_integral_v<signed char> = true;
template <>
inline constexpr bool is_integral_v<unsigned char> = true;
template <>
inline constexpr bool is_integral_v<short> = true;
template <>
inline constexpr bool is_integral_v<unsigned short> = true;
template <>
inline constexpr bool is_integral_v<int> = true;
template <>
inline constexpr bool is_integral_v<unsigned int> = true;
template <>
inline constexpr bool is_integral_v<long> = true;
template <>
inline constexpr bool is_integral_v<unsigned long> = true;
template <>
inline constexpr bool is_integral_v<long long> = true;
template <>
inline constexpr bool is_integral_v<unsigned long long> = true;

template <typename T>
inline constexpr bool is_floating_v = jit::is_same_v<T, float> || jit::is_same_v<T, double>;

// std::is_signed_v: floating types and signed integers.
template <typename T>
inline constexpr bool is_signed_v = is_floating_v<T> || (is_integral_v<T> && T(-1) < T(0));

template <typename T>
struct real_of {
  using type = T;
};
template <typename T>
struct real_of<complex<T>> {
  using type = T;
};
template <typename T>
using real_t = typename real_of<T>::type;

// std::numeric_limits<T>::infinity() / quiet_NaN(): zero for types without them.
template <typename T>
constexpr T infinity() {
  if constexpr (jit::is_same_v<T, float>) {
    return jit::float_of(0x7F800000u);
  } else if constexpr (jit::is_same_v<T, double>) {
    return jit::double_of(0x7FF0000000000000ull);
  } else {
    return T(0);
  }
}
template <typename T>
constexpr T quiet_nan() {
  if constexpr (jit::is_same_v<T, float>) {
    return jit::float_of(0x7FC00000u);
  } else if constexpr (jit::is_same_v<T, double>) {
    return jit::double_of(0x7FF8000000000000ull);
  } else {
    return T(0);
  }
}

}  // namespace math

// ---- Conversions (sdk/core/element_cast.h) ------------------------------------------------------

namespace jit {

template <typename T>
inline constexpr bool is_reduced_float_v = is_same_v<T, Half> || is_same_v<T, BFloat16>;

// NaN and values outside int64 give INT64_MIN (x86's integer indefinite), as on the CPU.
BP_JIT_INLINE int64_t floating_to_int64(double value) {
  if (!(value >= -0x1p63 && value < 0x1p63)) return static_cast<int64_t>(0x8000000000000000ull);
  return static_cast<int64_t>(value);
}

template <typename To, typename From>
BP_JIT_INLINE To real_cast(From value) {
  if constexpr (is_same_v<To, From>) {
    return value;
  } else if constexpr (math::is_integral_v<To> &&
                       !(math::is_integral_v<From> || is_same_v<From, bool>)) {
    return static_cast<To>(floating_to_int64(static_cast<double>(value)));
  } else if constexpr (is_reduced_float_v<To> || is_reduced_float_v<From>) {
    return static_cast<To>(static_cast<float>(value));
  } else {
    return static_cast<To>(value);
  }
}

// `value` as element type To, converted the way PyTorch's kernels convert: to bool, non-zero;
// complex to real, the real part; real to complex, (value, 0); integers wrap; floating to
// integral truncates through int64; double to Half / BFloat16 rounds through float.
template <typename To, typename From>
BP_JIT_INLINE To cast(From value) {
  if constexpr (is_same_v<To, From>) {
    return value;
  } else if constexpr (is_same_v<To, bool>) {
    if constexpr (math::is_complex_v<From>) {
      return value.real() != 0 || value.imag() != 0;
    } else {
      return static_cast<double>(value) != 0;
    }
  } else if constexpr (math::is_complex_v<To>) {
    using V = typename To::value_type;
    if constexpr (math::is_complex_v<From>) {
      return To(real_cast<V>(value.real()), real_cast<V>(value.imag()));
    } else {
      return To(real_cast<V>(value), V(0));
    }
  } else if constexpr (math::is_complex_v<From>) {
    return real_cast<To>(value.real());
  } else {
    return real_cast<To>(value);
  }
}

}  // namespace jit
}  // namespace bp
