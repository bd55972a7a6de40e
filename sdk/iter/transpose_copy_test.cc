#include "sdk/iter/transpose_copy.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "sdk/iter/vec/cpu_capability.h"

namespace bp {
namespace {

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<char, FreeDeleter>;

// A 64-byte aligned buffer (streaming stores need aligned lines), filled with `fill`.
Buffer aligned_buffer(int64_t bytes, unsigned char fill) {
  const size_t size = static_cast<size_t>((bytes + 63) / 64 * 64 + 64);
  Buffer b(static_cast<char*>(std::aligned_alloc(64, size)));
  std::memset(b.get(), fill, size);
  return b;
}

// Copies a size0 x size1 tile of `esize`-byte elements from a source contiguous along dim 1 (row
// pitch src_pitch elements) into a destination contiguous along dim 0 (row pitch dst_pitch
// elements), then checks every destination byte: tile elements against the source, the padding
// between rows untouched.
void expect_transposed(int64_t esize, int64_t size0, int64_t size1, int64_t src_pitch,
                       int64_t dst_pitch, bool streaming) {
  const int64_t src_bytes = size0 * src_pitch * esize, dst_bytes = size1 * dst_pitch * esize;
  Buffer src = aligned_buffer(src_bytes, 0), dst = aligned_buffer(dst_bytes, 0xAB);
  for (int64_t b = 0; b < src_bytes; ++b) src.get()[b] = static_cast<char>((b * 131 + 7) % 251);
  transpose_copy_tile(esize, dst.get(), dst_pitch * esize, src.get(), src_pitch * esize, size0,
                      size1, streaming);
  for (int64_t j = 0; j < size1; ++j) {
    for (int64_t i = 0; i < dst_pitch; ++i) {
      const char* got = dst.get() + (j * dst_pitch + i) * esize;
      if (i < size0) {
        const char* want = src.get() + (i * src_pitch + j) * esize;
        ASSERT_EQ(std::memcmp(got, want, static_cast<size_t>(esize)), 0)
            << "esize " << esize << " tile " << size0 << "x" << size1 << " element (" << i << ", "
            << j << ") streaming " << streaming;
      } else {
        for (int64_t b = 0; b < esize; ++b) {
          ASSERT_EQ(static_cast<unsigned char>(got[b]), 0xAB)
              << "padding written at (" << i << ", " << j << ")";
        }
      }
    }
  }
}

TEST(TransposeCopyTile, EveryElementSizeShapeAndInstructionSetMatchesTheNaiveCopy) {
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int64_t esize : {1, 2, 4, 8, 16}) {
      // Below, at and around the 8 / 16 element blocks, and odd pitches (unaligned rows).
      for (int64_t size0 : {1, 7, 16, 33}) {
        for (int64_t size1 : {1, 8, 17, 48}) {
          for (bool streaming : {false, true}) {
            expect_transposed(esize, size0, size1, size1, size0, streaming);
            expect_transposed(esize, size0, size1, size1 + 3, size0 + 5, streaming);
          }
        }
      }
    }
  }
  set_cpu_capability(detected);
}

TEST(TransposeCopyTile, TilesWiderThanAColumnBlockMatchTheNaiveCopy) {
  // The vector kernels run in blocks of 1024 columns: two whole blocks, a part of one that ends
  // at a kernel step, and a scalar tail past it.
  const CpuCapability detected = detected_cpu_capability();
  for (CpuCapability c : {CpuCapability::kDefault, CpuCapability::kAvx2, CpuCapability::kAvx512}) {
    if (c > detected) continue;
    set_cpu_capability(c);
    for (int64_t esize : {4, 8}) {
      expect_transposed(esize, 33, 2 * 1024 + 16 + 3, 2 * 1024 + 16 + 3, 33, /*streaming=*/false);
      expect_transposed(esize, 32, 2 * 1024 + 16, 2 * 1024 + 16, 32, /*streaming=*/true);
    }
  }
  set_cpu_capability(detected);
}

TEST(TransposeCopyTile, StreamsWholeAlignedLinesOfLargeTiles) {
  // Rows of 64 floats (256 bytes): every destination line is aligned, so the vector kernels
  // take the non-temporal path throughout.
  expect_transposed(4, 64, 128, 128, 64, /*streaming=*/true);
  expect_transposed(8, 64, 40, 40, 64, /*streaming=*/true);
}

}  // namespace
}  // namespace bp
