#include "sdk/iter/cast_copy.h"

#include <algorithm>
#include <cstring>

#include "sdk/core/error.h"
#include "sdk/iter/parallel.h"
#include "sdk/iter/strided_convert.h"
#include "sdk/iter/tensor_iterator.h"
#include "sdk/iter/transpose_copy.h"

namespace bp {
namespace {

// Square blocks for transposing tiles that also convert. With power-of-two row strides the rows of
// a block map to the same L1 sets, so a block is first gathered into a small buffer (reading each
// source row segment once), then written out destination row by destination row.
constexpr int64_t kBlock = 32;

// A tile whose destination is contiguous along dim 0 while the source is contiguous along dim 1
// (a transpose), between different dtypes. Same-dtype tiles go to transpose_copy_tile.
void convert_tile_blocked(ScalarType dst_type, ScalarType src_type, char** data,
                          const int64_t* strides, int64_t size0, int64_t size1) {
  const int64_t esize = static_cast<int64_t>(element_size(src_type));
  alignas(64) char buf[kBlock * kBlock * 16];  // [j][i] in the source dtype
  for (int64_t j0 = 0; j0 < size1; j0 += kBlock) {
    const int64_t nj = std::min(kBlock, size1 - j0);
    for (int64_t i0 = 0; i0 < size0; i0 += kBlock) {
      const int64_t ni = std::min(kBlock, size0 - i0);
      for (int64_t i = 0; i < ni; ++i) {
        convert_elements(src_type, buf + i * esize, kBlock * esize, src_type,
                         data[1] + (i0 + i) * strides[1] + j0 * strides[3], strides[3], nj);
      }
      for (int64_t j = 0; j < nj; ++j) {
        convert_elements(dst_type, data[0] + i0 * strides[0] + (j0 + j) * strides[2], strides[0],
                         src_type, buf + j * kBlock * esize, esize, ni);
      }
    }
  }
}

bool is_transposed_tile(const int64_t* strides, int64_t size0, int64_t size1, size_t dst_size,
                        size_t src_size) {
  return size0 > 1 && size1 > 1 && strides[0] == static_cast<int64_t>(dst_size) &&
         strides[3] == static_cast<int64_t>(src_size) && strides[1] != strides[3];
}

}  // namespace

void cast_copy(const Tensor& dst, const Tensor& src) {
  BP_CHECK(dst.device().is_cpu() && src.device().is_cpu(), "cast_copy: expected CPU tensors, got ",
           dst.device(), " and ", src.device());
  TensorIteratorConfig config;
  config.set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .add_output(dst)
      .add_input(src);
  TensorIterator iter = config.build();
  const ScalarType dst_type = dst.dtype(), src_type = src.dtype();
  const size_t dst_size = element_size(dst_type), src_size = element_size(src_type);
  if (dst_type == src_type && iter.is_contiguous()) {
    // Same bytes on both sides: a parallel memcpy.
    char* out = static_cast<char*>(iter.data_ptr(0));
    const char* in = static_cast<const char*>(iter.data_ptr(1));
    parallel_for(0, iter.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      std::memcpy(out + begin * dst_size, in + begin * src_size,
                  static_cast<size_t>(end - begin) * dst_size);
    });
    return;
  }
  const bool streaming = iter.numel() * static_cast<int64_t>(dst_size) >= kStreamingBytes;
  iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    if (is_transposed_tile(strides, size0, size1, dst_size, src_size)) {
      if (dst_type == src_type) {
        transpose_copy_tile(static_cast<int64_t>(dst_size), data[0], strides[2], data[1],
                            strides[1], size0, size1, streaming);
      } else {
        convert_tile_blocked(dst_type, src_type, data, strides, size0, size1);
      }
      return;
    }
    for (int64_t j = 0; j < size1; ++j) {
      convert_elements(dst_type, data[0] + j * strides[2], strides[0], src_type,
                       data[1] + j * strides[3], strides[1], size0);
    }
  });
}

}  // namespace bp
