// transpose_copy_tile: the inner kernel of a copy between operands whose fastest dimensions differ
// (e.g. `contiguous()` of a transposed matrix), used by cast_copy.
//
//   // dst is contiguous along i, src along j:
//   //   dst[i * esize + j * dst_stride1] = src[i * src_stride0 + j * esize]
//   transpose_copy_tile(sizeof(float), dst, dst_stride1, src, src_stride0, size0, size1,
//                       /*streaming=*/false);
//
// 4- and 8-byte elements move through in-register transposes (AVX-512: 16x16 floats, 8x8
// doubles; AVX2: pairs of 8x8 floats, pairs of 4x4 doubles), compiled for the CPU's ISA and picked
// at run time (cpu_capability.h); a band of source rows is read in order across a block of 1024
// columns, so every cache line is read once and written once, whole, and the destination rows a
// band writes stay within the TLB's reach. Other element sizes and the baseline ISA use a blocked
// scalar loop. With `streaming`, whole destination lines are written with non-temporal stores: for
// destinations much larger than the caches, which then need no read-for-ownership and do not evict
// the source (see kStreamingBytes).
//
// Thread safety: pure; callers split the work so that no two threads write the same elements.
#ifndef BACKPLANE_SDK_ITER_TRANSPOSE_COPY_H_
#define BACKPLANE_SDK_ITER_TRANSPOSE_COPY_H_

#include <cstdint>

namespace bp {

// Copies larger than this (destination bytes) write with non-temporal stores (about what glibc's
// memcpy uses on this kind of machine: a good part of the last-level cache).
inline constexpr int64_t kStreamingBytes = int64_t{8} << 20;

// See the file comment. `esize` is 1, 2, 4, 8 or 16; strides are in bytes; `dst` and `src` must
// not overlap.
void transpose_copy_tile(int64_t esize, char* dst, int64_t dst_stride1, const char* src,
                         int64_t src_stride0, int64_t size0, int64_t size1, bool streaming);

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_TRANSPOSE_COPY_H_
