#include "sdk/iter/transpose_copy.h"

#include <algorithm>
#include <cstdint>

#include "sdk/core/error.h"
#include "sdk/iter/vec/cpu_capability.h"
#include "sdk/iter/vec/vectorized.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Raw vectors cross always-inline helpers by value (see vectorized.h).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace bp {
namespace {

// Destination rows a vector kernel's bands cover at once (see transpose_copy_tile); a multiple of
// every kernel's step along j. 1024 measured best on Zen 3 with the kernels' loops still rolled
// (4000 x 4000 floats: 0.46 of memcpy's speed unblocked, 0.49 at 512, 0.60 at 1024, 0.58 at
// 2048); with them unrolled, 1024 and 2048 are alike (3.9 and 3.6-3.8 ms, memcpy 4.5-4.8).
constexpr int64_t kBlockCols = 1024;

template <int kBytes>
struct Element {
  char bytes[kBytes];
};

// Rows [i0, i1) x columns [j0, j1) of the tile, in 16 x 16 blocks so that both sides stay in the
// L1 cache while a block is moved.
template <int kSize>
void scalar_tile(char* dst, int64_t dst_stride1, const char* src, int64_t src_stride0, int64_t i0,
                 int64_t i1, int64_t j0, int64_t j1) {
  constexpr int64_t kBlock = 16;
  for (int64_t jb = j0; jb < j1; jb += kBlock) {
    const int64_t je = std::min(j1, jb + kBlock);
    for (int64_t ib = i0; ib < i1; ib += kBlock) {
      const int64_t ie = std::min(i1, ib + kBlock);
      for (int64_t j = jb; j < je; ++j) {
        char* d = dst + j * dst_stride1;
        const char* s = src + j * kSize;
        for (int64_t i = ib; i < ie; ++i) {
          Element<kSize> e;
          copy_bytes(&e, s + i * src_stride0, kSize);
          copy_bytes(d + i * kSize, &e, kSize);
        }
      }
    }
  }
}

void scalar_tile(int64_t esize, char* dst, int64_t dst_stride1, const char* src,
                 int64_t src_stride0, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  if (i0 >= i1 || j0 >= j1) return;
  switch (esize) {
    case 1:
      return scalar_tile<1>(dst, dst_stride1, src, src_stride0, i0, i1, j0, j1);
    case 2:
      return scalar_tile<2>(dst, dst_stride1, src, src_stride0, i0, i1, j0, j1);
    case 4:
      return scalar_tile<4>(dst, dst_stride1, src, src_stride0, i0, i1, j0, j1);
    case 8:
      return scalar_tile<8>(dst, dst_stride1, src, src_stride0, i0, i1, j0, j1);
    case 16:
      return scalar_tile<16>(dst, dst_stride1, src, src_stride0, i0, i1, j0, j1);
    default:
      BP_INTERNAL_ASSERT(false, "transpose_copy_tile: unsupported element size ", esize);
  }
}

#if defined(__x86_64__)

#define BP_AVX512 gnu::target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")
#define BP_AVX2 gnu::target("avx2,fma")

typedef float F8 __attribute__((vector_size(32), aligned(4)));
typedef double D8 __attribute__((vector_size(64), aligned(8)));
typedef float F16 __attribute__((vector_size(64), aligned(4)));
typedef float F4 __attribute__((vector_size(16), aligned(4)));
typedef double D4 __attribute__((vector_size(32), aligned(8)));
typedef double D2 __attribute__((vector_size(16), aligned(8)));

// Through a pointer, not a returned vector: clang refuses to return a 256- or 512-bit vector from
// a function without the AVX target into one with it.
template <typename V>
[[gnu::always_inline]] inline void load(V* v, const char* p) {
  copy_bytes(v, p, sizeof(V));
}

// Transposes 8 rows of 8 lanes in place (lanes of any type): pairs of lanes, then pairs of pairs,
// then halves. The shuffles are __builtin_shufflevector (GCC 12 and clang) rather than GCC's
// __builtin_shuffle, which clang lacks (the fuzz build compiles this file with clang 14).
//
// Every loop over the rows is unrolled (`#pragma GCC unroll`): GCC 12 at -O2 kept these loops, and
// with them the arrays on the stack, which made the 4000 x 4000 transpose compute-bound (perf: a
// store and a reload around every shuffle; 66 ns per 16 x 8 step in the L2 cache, 17-22 unrolled).
template <typename V>
[[gnu::always_inline]] inline void transpose8(V* r) {
  V t[8], u[8];
#pragma GCC unroll 8
  for (int k = 0; k < 8; k += 2) {
    t[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
#pragma GCC unroll 8
  for (int k = 0; k < 8; k += 4) {
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      u[k + 2 * h] = __builtin_shufflevector(t[k + h], t[k + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[k + 2 * h + 1] =
          __builtin_shufflevector(t[k + h], t[k + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  }
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    r[k] = __builtin_shufflevector(u[k], u[k + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[k + 4] = __builtin_shufflevector(u[k], u[k + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

// Transposes 16 rows of 16 floats in place: the same three steps within 128-bit lanes, then
// 128-bit and 256-bit blocks.
[[gnu::always_inline]] inline void transpose16(F16* r) {
  F16 t[16];
#pragma GCC unroll 16
  for (int k = 0; k < 16; k += 2) {
    t[k] = __builtin_shufflevector(r[k], r[k + 1], 0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28,
                                   13, 29);
    t[k + 1] = __builtin_shufflevector(r[k], r[k + 1], 2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27,
                                       14, 30, 15, 31);
  }
#pragma GCC unroll 16
  for (int k = 0; k < 16; k += 4) {
#pragma GCC unroll 2
    for (int h = 0; h < 2; ++h) {
      const F16 a = t[k + h], b = t[k + h + 2];
      r[k + 2 * h] =
          __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
      r[k + 2 * h + 1] =
          __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
    }
  }
#pragma GCC unroll 2
  for (int g = 0; g < 16; g += 8) {
#pragma GCC unroll 4
    for (int m = 0; m < 4; ++m) {
      const F16 a = r[g + m], b = r[g + 4 + m];
      t[g + m] =
          __builtin_shufflevector(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
      t[g + 4 + m] =
          __builtin_shufflevector(a, b, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    }
  }
#pragma GCC unroll 8
  for (int m = 0; m < 8; ++m) {
    r[m] = __builtin_shufflevector(t[m], t[8 + m], 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21,
                                   22, 23);
    r[8 + m] = __builtin_shufflevector(t[m], t[8 + m], 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27,
                                       28, 29, 30, 31);
  }
}

[[BP_AVX512, gnu::always_inline]] inline void store64(char* p, const void* v, bool streaming) {
  __m512 m;
  copy_bytes(&m, v, 64);
  if (streaming) {
    _mm512_stream_ps(reinterpret_cast<float*>(p), m);
  } else {
    _mm512_storeu_ps(reinterpret_cast<float*>(p), m);
  }
}

template <typename V>
[[BP_AVX2, gnu::always_inline]] inline void store32(char* p, const V& v, bool streaming) {
  static_assert(sizeof(V) == 32);
  __m256 m;
  copy_bytes(&m, &v, 32);
  if (streaming) {
    _mm256_stream_ps(reinterpret_cast<float*>(p), m);
  } else {
    _mm256_storeu_ps(reinterpret_cast<float*>(p), m);
  }
}

// Non-temporal stores need 64-byte aligned lines: every destination row of a band starts at
// dst + i * esize + j * dst_stride1.
bool can_stream(const char* dst, int64_t dst_stride1) {
  return reinterpret_cast<uintptr_t>(dst) % 64 == 0 && dst_stride1 % 64 == 0;
}

// Bands of kRows source rows (i), each walked along j in steps of kCols: every step reads kRows
// line segments in order and writes kCols destination lines of 64 bytes.
[[BP_AVX512]] void tile4_avx512(char* dst, int64_t dst_stride1, const char* src,
                                int64_t src_stride0, int64_t i_end, int64_t j_end, bool streaming) {
  for (int64_t i = 0; i < i_end; i += 16) {
    const char* s = src + i * src_stride0;
    char* d = dst + i * 4;
    const bool nt = streaming && can_stream(d, dst_stride1);
    for (int64_t j = 0; j < j_end; j += 16) {
      F16 r[16];
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) {
        const char* row = s + k * src_stride0 + j * 4;
        __builtin_prefetch(row + 256);
        load(&r[k], row);
      }
      transpose16(r);
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) store64(d + (j + k) * dst_stride1, &r[k], nt);
    }
  }
  if (streaming) _mm_sfence();
}

[[BP_AVX512]] void tile8_avx512(char* dst, int64_t dst_stride1, const char* src,
                                int64_t src_stride0, int64_t i_end, int64_t j_end, bool streaming) {
  for (int64_t i = 0; i < i_end; i += 8) {
    const char* s = src + i * src_stride0;
    char* d = dst + i * 8;
    const bool nt = streaming && can_stream(d, dst_stride1);
    for (int64_t j = 0; j < j_end; j += 8) {
      D8 r[8];
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) {
        const char* row = s + k * src_stride0 + j * 8;
        __builtin_prefetch(row + 256);
        load(&r[k], row);
      }
      transpose8(r);
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) store64(d + (j + k) * dst_stride1, &r[k], nt);
    }
  }
  if (streaming) _mm_sfence();
}

// Columns 0-7 of 8 rows of floats, `stride` bytes apart from p, into r[0..7]. Each register is
// loaded as row k's half beside row k + 4's, so the loads do the transpose's lane-crossing step;
// what is left is two in-lane steps (16 shuffles, where transpose8 takes 24).
[[BP_AVX2, gnu::always_inline]] inline void load_transpose(F8* r, const char* p, int64_t stride) {
  F8 t[8];
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    F4 low0, low4, high0, high4;
    load(&low0, p + k * stride);
    load(&low4, p + (k + 4) * stride);
    load(&high0, p + k * stride + 16);
    load(&high4, p + (k + 4) * stride + 16);
    t[k] = __builtin_shufflevector(low0, low4, 0, 1, 2, 3, 4, 5, 6, 7);
    t[k + 4] = __builtin_shufflevector(high0, high4, 0, 1, 2, 3, 4, 5, 6, 7);
  }
#pragma GCC unroll 2
  for (int g = 0; g < 8; g += 4) {
    const F8 u0 = __builtin_shufflevector(t[g], t[g + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    const F8 u1 = __builtin_shufflevector(t[g], t[g + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    const F8 u2 = __builtin_shufflevector(t[g + 2], t[g + 3], 0, 8, 1, 9, 4, 12, 5, 13);
    const F8 u3 = __builtin_shufflevector(t[g + 2], t[g + 3], 2, 10, 3, 11, 6, 14, 7, 15);
    r[g] = __builtin_shufflevector(u0, u2, 0, 1, 8, 9, 4, 5, 12, 13);
    r[g + 1] = __builtin_shufflevector(u0, u2, 2, 3, 10, 11, 6, 7, 14, 15);
    r[g + 2] = __builtin_shufflevector(u1, u3, 0, 1, 8, 9, 4, 5, 12, 13);
    r[g + 3] = __builtin_shufflevector(u1, u3, 2, 3, 10, 11, 6, 7, 14, 15);
  }
}

// Columns 0-3 of 4 rows of doubles, `stride` bytes apart from p, into r[0..3]: as
// the floats', the loads pair row k's half with row k + 2's, and one in-lane step is left.
[[BP_AVX2, gnu::always_inline]] inline void load_transpose(D4* r, const char* p, int64_t stride) {
  D4 t[4];
#pragma GCC unroll 2
  for (int k = 0; k < 2; ++k) {
    D2 low0, low2, high0, high2;
    load(&low0, p + k * stride);
    load(&low2, p + (k + 2) * stride);
    load(&high0, p + k * stride + 16);
    load(&high2, p + (k + 2) * stride + 16);
    t[k] = __builtin_shufflevector(low0, low2, 0, 1, 2, 3);
    t[k + 2] = __builtin_shufflevector(high0, high2, 0, 1, 2, 3);
  }
  r[0] = __builtin_shufflevector(t[0], t[1], 0, 4, 2, 6);
  r[1] = __builtin_shufflevector(t[0], t[1], 1, 5, 3, 7);
  r[2] = __builtin_shufflevector(t[2], t[3], 0, 4, 2, 6);
  r[3] = __builtin_shufflevector(t[2], t[3], 1, 5, 3, 7);
}

// Bands of 2 * kLanes source rows, kLanes columns per step, where V is a 32-byte row of kLanes
// elements (F8: floats, D4: doubles): two in-register transposes, one for each half of the band,
// fill kLanes destination lines of 64 bytes.
template <typename V>
[[BP_AVX2]] void tile_avx2(char* dst, int64_t dst_stride1, const char* src, int64_t src_stride0,
                           int64_t i_end, int64_t j_end, bool streaming) {
  constexpr int kLanes = sizeof(V) / sizeof(V{}[0]);
  constexpr int64_t kSize = sizeof(V{}[0]);
  for (int64_t i = 0; i < i_end; i += 2 * kLanes) {
    const char* s = src + i * src_stride0;
    char* d = dst + i * kSize;
    const bool nt = streaming && can_stream(d, dst_stride1);
    for (int64_t j = 0; j < j_end; j += kLanes) {
      const char* rows = s + j * kSize;
#pragma GCC unroll 16
      for (int k = 0; k < 2 * kLanes; ++k) __builtin_prefetch(rows + k * src_stride0 + 256);
      V lo[kLanes], hi[kLanes];
      load_transpose(lo, rows, src_stride0);
      load_transpose(hi, rows + kLanes * src_stride0, src_stride0);
#pragma GCC unroll 8
      for (int k = 0; k < kLanes; ++k) {
        char* line = d + (j + k) * dst_stride1;
        store32(line, lo[k], nt);
        store32(line + 32, hi[k], nt);
      }
    }
  }
  if (streaming) _mm_sfence();
}

#endif  // defined(__x86_64__)

}  // namespace

void transpose_copy_tile(int64_t esize, char* dst, int64_t dst_stride1, const char* src,
                         int64_t src_stride0, int64_t size0, int64_t size1, bool streaming) {
  int64_t i_end = 0, j_end = 0;  // the part done by a vector kernel
#if defined(__x86_64__)
  // The vector kernel for this element size and ISA, and its steps along i and j.
  struct VectorKernel {
    void (*run)(char*, int64_t, const char*, int64_t, int64_t, int64_t, bool);
    int64_t rows, cols;
  };
  VectorKernel kernel = {nullptr, 1, 1};
  const CpuCapability cap = cpu_capability();
  if (esize == 4 && cap == CpuCapability::kAvx512) {
    kernel = {tile4_avx512, 16, 16};
  } else if (esize == 4 && cap == CpuCapability::kAvx2) {
    kernel = {tile_avx2<F8>, 16, 8};
  } else if (esize == 8 && cap == CpuCapability::kAvx512) {
    kernel = {tile8_avx512, 8, 8};
  } else if (esize == 8 && cap == CpuCapability::kAvx2) {
    kernel = {tile_avx2<D4>, 8, 4};
  }
  if (kernel.run != nullptr) {
    i_end = size0 - size0 % kernel.rows;
    j_end = size1 - size1 % kernel.cols;
  }
  if (i_end > 0 && j_end > 0) {
    // Blocks of kBlockCols destination rows: a band of source rows writes one line into each
    // destination row of its block, and a destination row of more than a page is a page of its
    // own, so the block keeps the pages a band writes within the TLB's reach. Bands along the
    // whole of a 4000 x 4000 float matrix (4000 pages) took 1.3x the time of these.
    for (int64_t jb = 0; jb < j_end; jb += kBlockCols) {
      kernel.run(dst + jb * dst_stride1, dst_stride1, src + jb * esize, src_stride0, i_end,
                 std::min(kBlockCols, j_end - jb), streaming);
    }
  }
#else
  (void)streaming;
#endif
  if (i_end == 0 || j_end == 0) i_end = j_end = 0;
  // What is left: whole rows past i_end, and the columns past j_end of the rows before it.
  scalar_tile(esize, dst, dst_stride1, src, src_stride0, i_end, size0, 0, size1);
  scalar_tile(esize, dst, dst_stride1, src, src_stride0, 0, i_end, j_end, size1);
}

}  // namespace bp
