// Vectorized<T, kBytes>: a SIMD value of kBytes bytes for kernel authors (ATen's Vectorized, our
// code), as wide as the registers of the instruction set the code is compiled for.
//
//   // Inside a loop that dispatch_cpu runs (see cpu_capability.h); `width` is 16, 32 or 64:
//   dispatch_cpu([&](auto width) __attribute__((always_inline)) {
//     using Vec = Vectorized<float, width>;
//     for (int64_t i = 0; i + Vec::size() <= n; i += Vec::size()) {
//       Vec a = Vec::loadu(x + i), b = Vec::loadu(y + i);
//       blendv(a * b, Vec(0), a < Vec(0)).store(out + i);   // a < 0 ? 0 : a * b
//     }
//   });
//
// Built on GCC's generic vector extensions, so one definition serves every ISA. dispatch_cpu
// compiles its body once per ISA (AVX-512 and AVX2: 32 bytes, baseline SSE2 and other CPUs: 16)
// and hands it the matching width. (A vector wider than that is not an option: GCC 12 splits its
// arithmetic but turns its comparisons and selects into scalar code, 10x slower; for 64-byte
// vectors that happens even on AVX-512, see cpu_capability.h and docs/design/iter.md.) Every
// member is always_inline so that it is compiled for the ISA of the function it is inlined into.
//
// Element types: float, double, and the integer types (int8..int64, uint8). Operations follow
// ATen's Vectorized: arithmetic (32- and 64-bit integer division in double), copysign (floating
// types; rounding to integers is in vec_round.h), maximum/minimum (NaN-propagating for floating
// types; of equal values the first, as std::max: see maximum), comparisons returning
// all-bits-set masks (operator<) or 1/0 values (lt()), blendv (select), horizontal sums.
// The elementary functions of float and double vectors (exp, log, sin, tanh, erf, ...) are in
// vec_math.h (SLEEF, <= 1 ulp), and inline ones for float in vec_exp.h and vec_erf.h, which
// reference_backend/math/primitives.h uses for vectors.
//
// Thread safety: a plain value.
#ifndef BACKPLANE_SDK_ITER_VEC_VECTORIZED_H_
#define BACKPLANE_SDK_ITER_VEC_VECTORIZED_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

// Raw 64-byte vectors cross inline helpers by value; they are always inlined, so the ABI note
// GCC gives for them (AVX-512 registers vs memory) does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace bp {

// memcpy for the vector layer and the loops that inline it: __builtin_memcpy, which
// _FORTIFY_SOURCE (on in Bazel's optimised builds, and in Debian's default flags) leaves alone.
// Under it, std::memcpy becomes __memcpy_chk, which GCC 12 expands in the always_inline helper's
// own (baseline) context: a 32-byte vector store became two 16-byte loads from the stack and two
// 16-byte stores inside AVX2 loops, the loads missing store forwarding. exp of 1e6 doubles took
// 2.5x libmvec's own loop on Zen 3 (perf: 78% on one reload); a plain copy of a fixed size.
[[gnu::always_inline]] inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  __builtin_memcpy(dst, src, n);
}

// The widest vector dispatch_cpu hands out, in bytes (64-byte Vectorized exist for tests).
inline constexpr int kMaxVectorBytes = 32;
template <int kBytes>
using VectorWidth = std::integral_constant<int, kBytes>;

// The instruction set a vector's code is known to be compiled for, at least. kAny (the default):
// unknown, the vector may live in code compiled for the baseline ISA. kAvx2 / kAvx512: the
// vectors that the loops of loops.h hand out on dispatch_cpu's AVX2 / AVX-512 paths, whose
// code is always inlined into functions compiled for that ISA (cpu_capability.h). vec_math.h
// calls SLEEF directly, vectors in registers, for those and for 16-byte vectors (SSE2 is the
// x86-64 baseline); a wider kAny vector goes through a table of functions that take pointers,
// since GCC passes 32- and 64-byte vectors in registers only between functions compiled for
// AVX (AVX-512). Tagging a vector whose code may be compiled for less than its tag says breaks
// that calling convention: only dispatch_cpu's paths do it.
enum class VecIsa : int { kAny = 0, kAvx2 = 1, kAvx512 = 2 };

// Vectorized<T> (the default width, 32 bytes: the widest dispatch_cpu hands out, see
// cpu_capability.h) is the type of vector callables written without the width parameter; they
// run with 32-byte vectors on every ISA (slower on SSE2). New code takes the width that
// dispatch_cpu hands out (generic lambdas). kIsa: see VecIsa; it changes no operation here.
template <typename T, int kBytes = kMaxVectorBytes, VecIsa kIsa = VecIsa::kAny>
class Vectorized {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "Vectorized<T> supports float, double and integer element types");
  static_assert(kBytes == 16 || kBytes == 32 || kBytes == 64, "Vectorized: 16, 32 or 64 bytes");

 public:
  using value_type = T;
  // The element-aligned raw vector (loads and stores need no particular alignment).
  typedef T Raw __attribute__((vector_size(kBytes), aligned(alignof(T))));
  // The signed integer vector that comparisons of Raw produce.
  using Mask = decltype(Raw{} < Raw{});

  static constexpr int size() { return kBytes / static_cast<int>(sizeof(T)); }

  Vectorized() = default;
  // Every lane set to `value`, bit for bit: -0.0 stays -0.0 (a broadcast operand or Scalar of
  // -0.0 keeps its sign) and a NaN keeps its payload. No arithmetic is involved (0.0 + value, the
  // obvious way to splat with vector extensions, turns -0.0 into +0.0).
  [[gnu::always_inline]] Vectorized(T value)  // NOLINT: implicit, like ATen
      : v_(splat(value, std::make_integer_sequence<int, size()>{})) {}
  // Wraps a raw vector (a named function: a constructor from Raw would clash with the one from T).
  [[gnu::always_inline]] static Vectorized from_raw(Raw raw) {
    Vectorized r;
    r.v_ = raw;
    return r;
  }

  // Loads size() elements from `ptr` (any alignment).
  [[gnu::always_inline]] static Vectorized loadu(const void* ptr) {
    Vectorized r;
    copy_bytes(&r.v_, ptr, sizeof(Raw));
    return r;
  }
  // Loads the first `count` (< size()) elements; the other lanes are 0.
  [[gnu::always_inline]] static Vectorized loadu(const void* ptr, int64_t count) {
    Vectorized r(T(0));
    copy_bytes(&r.v_, ptr, static_cast<size_t>(count) * sizeof(T));
    return r;
  }
  [[gnu::always_inline]] void store(void* ptr) const { copy_bytes(ptr, &v_, sizeof(Raw)); }
  // Stores the first `count` (< size()) lanes.
  [[gnu::always_inline]] void store(void* ptr, int64_t count) const {
    copy_bytes(ptr, &v_, static_cast<size_t>(count) * sizeof(T));
  }

  [[gnu::always_inline]] T operator[](int lane) const { return v_[lane]; }
  // The raw vector (GCC's vector extension type).
  [[gnu::always_inline]] Raw raw() const { return v_; }

  [[gnu::always_inline]] friend Vectorized operator+(Vectorized a, Vectorized b) {
    return from_raw(a.v_ + b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator-(Vectorized a, Vectorized b) {
    return from_raw(a.v_ - b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator*(Vectorized a, Vectorized b) {
    return from_raw(a.v_ * b.v_);
  }
  // Integer division by zero, and of the minimum by -1, is undefined, as for scalars. 32- and
  // 64-bit integers divide in float or double (there is no SIMD integer division): exact, since
  // the rounded quotient of integers within the type's mantissa never crosses an integer, and
  // several times faster than a division per lane (divide_in_floating).
  [[gnu::always_inline]] friend Vectorized operator/(Vectorized a, Vectorized b) {
    if constexpr (std::is_integral_v<T> && sizeof(T) >= 4) {
      return divide_in_floating(a, b);
    } else {
      return from_raw(a.v_ / b.v_);
    }
  }
  [[gnu::always_inline]] friend Vectorized operator-(Vectorized a) { return from_raw(-a.v_); }
  [[gnu::always_inline]] Vectorized& operator+=(Vectorized b) {
    v_ += b.v_;
    return *this;
  }
  [[gnu::always_inline]] Vectorized& operator*=(Vectorized b) {
    v_ *= b.v_;
    return *this;
  }

  // Bitwise operations of integer lanes.
  [[gnu::always_inline]] friend Vectorized operator&(Vectorized a,
                                                     Vectorized b) requires std::is_integral_v<T> {
    return from_raw(a.v_ & b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator|(Vectorized a,
                                                     Vectorized b) requires std::is_integral_v<T> {
    return from_raw(a.v_ | b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator^(Vectorized a,
                                                     Vectorized b) requires std::is_integral_v<T> {
    return from_raw(a.v_ ^ b.v_);
  }

  // |a| with the sign of b, lane by lane (floating types), as std::copysign.
  [[gnu::always_inline]] friend Vectorized copysign(
      Vectorized a, Vectorized b) requires std::is_floating_point_v<T> {
    using Bits = typename Vectorized<SameSizeInt, kBytes>::Raw;
    constexpr SameSizeInt kSign = std::numeric_limits<SameSizeInt>::min();
    Bits x, y;
    copy_bytes(&x, &a.v_, sizeof(Raw));
    copy_bytes(&y, &b.v_, sizeof(Raw));
    x = (x & ~kSign) | (y & kSign);
    Vectorized r;
    copy_bytes(&r.v_, &x, sizeof(Raw));
    return r;
  }

  // Masks: every bit of a lane set where the comparison holds, as ATen's operators do.
  [[gnu::always_inline]] friend Vectorized operator==(Vectorized a, Vectorized b) {
    return from_mask(a.v_ == b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator!=(Vectorized a, Vectorized b) {
    return from_mask(a.v_ != b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator<(Vectorized a, Vectorized b) {
    return from_mask(a.v_ < b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator<=(Vectorized a, Vectorized b) {
    return from_mask(a.v_ <= b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator>(Vectorized a, Vectorized b) {
    return from_mask(a.v_ > b.v_);
  }
  [[gnu::always_inline]] friend Vectorized operator>=(Vectorized a, Vectorized b) {
    return from_mask(a.v_ >= b.v_);
  }

  // 1 where the comparison holds, else 0 (ATen's eq/ne/lt/le/gt/ge).
  [[gnu::always_inline]] Vectorized eq(Vectorized b) const { return to_ones(v_ == b.v_); }
  [[gnu::always_inline]] Vectorized ne(Vectorized b) const { return to_ones(v_ != b.v_); }
  [[gnu::always_inline]] Vectorized lt(Vectorized b) const { return to_ones(v_ < b.v_); }
  [[gnu::always_inline]] Vectorized le(Vectorized b) const { return to_ones(v_ <= b.v_); }
  [[gnu::always_inline]] Vectorized gt(Vectorized b) const { return to_ones(v_ > b.v_); }
  [[gnu::always_inline]] Vectorized ge(Vectorized b) const { return to_ones(v_ >= b.v_); }

  // Lanes of `b` where `mask` (a comparison result) is set, of `a` elsewhere.
  [[gnu::always_inline]] friend Vectorized blendv(Vectorized a, Vectorized b, Vectorized mask) {
    Mask m;
    copy_bytes(&m, &mask.v_, sizeof(Raw));
    return from_raw(m != 0 ? b.v_ : a.v_);
  }

  // The larger (smaller) of each pair of lanes; NaN if either is NaN; of equal lanes (0.0 and
  // -0.0) a's, as std::max (std::min) and torch.maximum's element-wise definition (its scalar
  // loop). (ATen's Vectorized, like x86's max instruction, gives b's: maximum(b, a) for that.)
  [[gnu::always_inline]] friend Vectorized maximum(Vectorized a, Vectorized b) {
    return propagate_nan(a, b, from_raw(a.v_ < b.v_ ? b.v_ : a.v_));
  }
  [[gnu::always_inline]] friend Vectorized minimum(Vectorized a, Vectorized b) {
    return propagate_nan(a, b, from_raw(b.v_ < a.v_ ? b.v_ : a.v_));
  }

  // The sum of the lanes: the low half plus the high half, lane by lane, until one lane is left
  // (pairwise for floating types). In registers: through an array of lanes, each step waited on
  // the stores of the one before (a row sum of 256 floats spent a third of its time here).
  [[gnu::always_inline]] friend T reduce_add(Vectorized a) { return sum_halves<kBytes>(a.v_); }

 private:
  // The sum of the lanes of a kVecBytes-byte vector of T (see reduce_add).
  template <int kVecBytes, typename V>
  [[gnu::always_inline]] static T sum_halves(V v) {
    if constexpr (kVecBytes == static_cast<int>(sizeof(T))) {
      return v[0];
    } else {
      typedef T Half __attribute__((vector_size(kVecBytes / 2), aligned(alignof(T))));
      Half low, high;
      copy_bytes(&low, &v, sizeof(Half));
      copy_bytes(&high, reinterpret_cast<const char*>(&v) + sizeof(Half), sizeof(Half));
      return sum_halves<kVecBytes / 2>(low + high);
    }
  }

  // The signed integer type of T's size.
  using SameSizeInt =
      std::conditional_t<sizeof(T) == 1, int8_t,
                         std::conditional_t<sizeof(T) == 2, int16_t,
                                            std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>>;

  // Whether every lane of a and b is in [-2^kBits, 2^kBits) (integer lanes).
  template <int kBits>
  [[gnu::always_inline]] static bool all_lanes_within(Vectorized a, Vectorized b) {
    using UInt = std::make_unsigned_t<SameSizeInt>;
    typedef UInt U __attribute__((vector_size(kBytes)));
    typedef UInt U16 __attribute__((vector_size(16)));
    constexpr UInt kOffset = UInt(1) << kBits;
    U ua, ub;
    copy_bytes(&ua, &a.v_, sizeof(Raw));
    copy_bytes(&ub, &b.v_, sizeof(Raw));
    // Offset into [0, 2^(kBits + 1)) where within; OR the lanes together, 16-byte pieces first.
    const U high = (ua + kOffset) | (ub + kOffset);
    U16 folded;
    copy_bytes(&folded, &high, 16);
    for (int piece = 1; piece < kBytes / 16; ++piece) {
      U16 next;
      copy_bytes(&next, reinterpret_cast<const char*>(&high) + 16 * piece, 16);
      folded |= next;
    }
    UInt all = folded[0];
    for (int k = 1; k < static_cast<int>(16 / sizeof(UInt)); ++k) all |= folded[k];
    return (all >> (kBits + 1)) == 0;
  }

  // a / b (32- or 64-bit integer lanes) rounded toward zero, through a floating type F: exact when
  // every lane is below 2^(F's mantissa bits + 1), since then the rounded quotient never crosses
  // an integer. int32: in float when every lane is within 2^23 (a vdivps for 8 lanes), else in
  // double; int64: in double within 2^52, else one lane at a time. operator/.
  [[gnu::always_inline]] static Vectorized divide_in_floating(Vectorized a, Vectorized b) {
    if constexpr (sizeof(T) == 4) {
      if (all_lanes_within<23>(a, b)) {
        typedef float F __attribute__((vector_size(kBytes)));
        return from_raw(__builtin_convertvector(
            __builtin_convertvector(a.v_, F) / __builtin_convertvector(b.v_, F), Raw));
      }
    } else {
      if (__builtin_expect(!all_lanes_within<52>(a, b), 0)) return from_raw(a.v_ / b.v_);
    }
    // In double, up to 4 lanes at a time (at most 32-byte double vectors, whatever the ISA).
    constexpr int kPieceLanes = size() < 4 ? size() : 4;
    typedef T Piece __attribute__((vector_size(kPieceLanes * sizeof(T))));
    typedef double Wide __attribute__((vector_size(kPieceLanes * sizeof(double))));
    Raw q;
    for (int piece = 0; piece < size() / kPieceLanes; ++piece) {
      Piece x, y;
      copy_bytes(&x, reinterpret_cast<const char*>(&a.v_) + piece * sizeof(Piece), sizeof(Piece));
      copy_bytes(&y, reinterpret_cast<const char*>(&b.v_) + piece * sizeof(Piece), sizeof(Piece));
      const Piece quotient = __builtin_convertvector(
          __builtin_convertvector(x, Wide) / __builtin_convertvector(y, Wide), Piece);
      copy_bytes(reinterpret_cast<char*>(&q) + piece * sizeof(Piece), &quotient, sizeof(Piece));
    }
    return from_raw(q);
  }

  // A Raw with every lane `value` (one lane per I).
  template <int... I>
  [[gnu::always_inline]] static Raw splat(T value, std::integer_sequence<int, I...>) {
    return Raw{((void)I, value)...};
  }
  // Reinterprets comparison results as lanes of T (and back), bit for bit.
  [[gnu::always_inline]] static Vectorized from_mask(Mask m) {
    Vectorized r;
    copy_bytes(&r.v_, &m, sizeof(Raw));
    return r;
  }
  [[gnu::always_inline]] static Vectorized to_ones(Mask m) {
    return from_raw(m ? Raw{} + T(1) : Raw{});
  }
  [[gnu::always_inline]] static Vectorized propagate_nan(Vectorized a, Vectorized b, Vectorized r) {
    if constexpr (std::is_floating_point_v<T>) {
      return from_raw((a.v_ != a.v_) | (b.v_ != b.v_) ? a.v_ + b.v_ : r.v_);
    }
    return r;
  }

  Raw v_;
};

}  // namespace bp

#pragma GCC diagnostic pop

#endif  // BACKPLANE_SDK_ITER_VEC_VECTORIZED_H_
