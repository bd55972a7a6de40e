#include "sdk/iter/strided_convert.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "sdk/core/element_cast.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/half_convert.h"

namespace bp {
namespace {

// Casts whose element_cast is the C++ conversion and whose vector form gives the same bits (one
// conversion instruction per vector, rounding as the scalar one does): float <-> double and
// int32 -> float / double. Others stay element by element: float -> integer goes through int64 with
// a range check (1.5 ns per element, left for later), and the remaining integer ones are rare.
template <typename To, typename From>
inline constexpr bool kVectorCast = (std::is_same_v<From, float> && std::is_same_v<To, double>) ||
                                    (std::is_same_v<From, double> && std::is_same_v<To, float>) ||
                                    (std::is_same_v<From, int32_t> &&
                                     (std::is_same_v<To, float> || std::is_same_v<To, double>));

template <typename T, int kLanes>
struct VectorOf {
  typedef T type __attribute__((vector_size(kLanes * sizeof(T))));
};

// A contiguous kVectorCast, two of the ISA's vectors of the wider type per step (with one,
// double -> float ran at a third of the speed on AVX2 and AVX-512, for reasons not found; the
// vectors make no comparisons, so 64 bytes are safe on AVX-512: see cpu_capability.h).
template <typename To, typename From>
void convert_contiguous(char* dst, const char* src, int64_t n) {
  dispatch_cpu([&](auto width) __attribute__((always_inline)) {
    constexpr int kLanes = static_cast<int>(2 * width / std::max(sizeof(To), sizeof(From)));
    // Locals: the stores through char* could alias captured variables, reloaded every vector.
    char* const out_base = dst;
    const char* const in_base = src;
    const int64_t count = n;
    using FromVec = typename VectorOf<From, kLanes>::type;
    using ToVec = typename VectorOf<To, kLanes>::type;
    int64_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
      FromVec in;
      std::memcpy(&in, in_base + i * sizeof(From), sizeof(in));
      const ToVec out = __builtin_convertvector(in, ToVec);
      std::memcpy(out_base + i * sizeof(To), &out, sizeof(out));
    }
    for (; i < count; ++i) {
      From value;
      std::memcpy(&value, in_base + i * sizeof(From), sizeof(From));
      const To converted = static_cast<To>(value);
      std::memcpy(out_base + i * sizeof(To), &converted, sizeof(To));
    }
  });
}

// Element copies go through memcpy: operands of any dtype may sit at any byte offset.
template <typename To, typename From>
void convert_loop(char* dst, int64_t dst_stride, const char* src, int64_t src_stride, int64_t n) {
  if constexpr (kVectorCast<To, From>) {
    if (dst_stride == sizeof(To) && src_stride == sizeof(From)) {
      return convert_contiguous<To, From>(dst, src, n);
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    From value;
    std::memcpy(&value, src + i * src_stride, sizeof(From));
    To converted;
    if constexpr (std::is_same_v<To, From>) {
      converted = value;
    } else {
      converted = element_cast<To>(value);
    }
    std::memcpy(dst + i * dst_stride, &converted, sizeof(To));
  }
}

template <int kBytes>
struct Bytes {
  char b[kBytes];
};

void copy_bytes(size_t size, char* dst, int64_t dst_stride, const char* src, int64_t src_stride,
                int64_t n) {
  if (dst_stride == static_cast<int64_t>(size) && src_stride == static_cast<int64_t>(size)) {
    std::memcpy(dst, src, static_cast<size_t>(n) * size);
    return;
  }
  switch (size) {
    case 1:
      return convert_loop<Bytes<1>, Bytes<1>>(dst, dst_stride, src, src_stride, n);
    case 2:
      return convert_loop<Bytes<2>, Bytes<2>>(dst, dst_stride, src, src_stride, n);
    case 4:
      return convert_loop<Bytes<4>, Bytes<4>>(dst, dst_stride, src, src_stride, n);
    case 8:
      return convert_loop<Bytes<8>, Bytes<8>>(dst, dst_stride, src, src_stride, n);
    default:
      return convert_loop<Bytes<16>, Bytes<16>>(dst, dst_stride, src, src_stride, n);
  }
}

}  // namespace

void convert_elements(ScalarType dst_type, char* dst, int64_t dst_stride, ScalarType src_type,
                      const char* src, int64_t src_stride, int64_t n) {
  if (n <= 0) return;
  if (dst_type == src_type) {
    copy_bytes(element_size(dst_type), dst, dst_stride, src, src_stride, n);
    return;
  }
  // Contiguous float32 / float16 / bfloat16 casts (copy_, reductions' loads, dynamic casting's
  // buffers) take the vector path when the CPU has one. Strided ones stay element by element:
  // gathers would gain little on lines that are mostly skipped. So do short rows: the vector
  // path's tail goes through buffers, and for 3 elements cost 16 ns against the loop's 7-11.
  if (n >= 16 && dst_stride == static_cast<int64_t>(element_size(dst_type)) &&
      src_stride == static_cast<int64_t>(element_size(src_type)) &&
      convert_reduced_floats(dst_type, dst, src_type, src, n)) {
    return;
  }
  visit_dtype(dst_type, [&](auto dst_tag) {
    using To = typename decltype(dst_tag)::type;
    visit_dtype(src_type, [&](auto src_tag) {
      using From = typename decltype(src_tag)::type;
      convert_loop<To, From>(dst, dst_stride, src, src_stride, n);
    });
  });
}

}  // namespace bp
