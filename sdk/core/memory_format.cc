#include "sdk/core/memory_format.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "sdk/core/error.h"

namespace bp {
namespace {

// Dim orders from the densest dim outwards.
constexpr std::array<int, 4> kChannelsLastOrder = {1, 3, 2, 0};
constexpr std::array<int, 5> kChannelsLast3dOrder = {1, 4, 3, 2, 0};

template <size_t N>
DimVector strides_in_order(IntArrayRef sizes, const std::array<int, N>& order) {
  DimVector strides(N);
  int64_t expected = 1;
  for (int d : order) {
    strides[d] = expected;
    expected *= sizes[d];
  }
  return strides;
}

template <size_t N>
bool dense_in_order(IntArrayRef sizes, IntArrayRef strides, const std::array<int, N>& order) {
  if (sizes.size() != N) return false;
  int64_t expected = 1;
  for (int d : order) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

}  // namespace

std::ostream& operator<<(std::ostream& out, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::kContiguous:
      return out << "torch.contiguous_format";
    case MemoryFormat::kChannelsLast:
      return out << "torch.channels_last";
    case MemoryFormat::kChannelsLast3d:
      return out << "torch.channels_last_3d";
    case MemoryFormat::kPreserve:
      return out << "torch.preserve_format";
  }
  return out << "MemoryFormat(" << static_cast<int>(format) << ")";
}

DimVector contiguous_strides(IntArrayRef sizes, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::kContiguous: {
      DimVector strides(sizes.size());
      BP_CHECK(row_major_strides(sizes, strides.data()), "Stride calculation overflowed");
      return strides;
    }
    case MemoryFormat::kChannelsLast:
      BP_CHECK(sizes.size() == 4, "required rank 4 tensor to use channels_last format");
      return strides_in_order(sizes, kChannelsLastOrder);
    case MemoryFormat::kChannelsLast3d:
      BP_CHECK(sizes.size() == 5, "required rank 5 tensor to use channels_last_3d format");
      return strides_in_order(sizes, kChannelsLast3dOrder);
    case MemoryFormat::kPreserve:
      break;
  }
  BP_CHECK(false, "unsupported memory format ", format);
  return {};
}

bool is_contiguous_strides(IntArrayRef sizes, IntArrayRef strides, MemoryFormat format) {
  BP_INTERNAL_ASSERT(sizes.size() == strides.size());
  switch (format) {
    case MemoryFormat::kContiguous: {
      if (multiply_integers(sizes) == 0) return true;
      int64_t expected = 1;
      for (size_t i = sizes.size(); i-- > 0;) {
        if (sizes[i] == 1) continue;
        if (strides[i] != expected) return false;
        expected *= sizes[i];
      }
      return true;
    }
    case MemoryFormat::kChannelsLast:
      return dense_in_order(sizes, strides, kChannelsLastOrder);
    case MemoryFormat::kChannelsLast3d:
      return dense_in_order(sizes, strides, kChannelsLast3dOrder);
    case MemoryFormat::kPreserve:
      return false;
  }
  return false;
}

bool is_non_overlapping_and_dense_strides(IntArrayRef sizes, IntArrayRef strides) {
  BP_INTERNAL_ASSERT(sizes.size() == strides.size());
  const size_t ndim = sizes.size();
  if (ndim == 1) return sizes[0] < 2 || strides[0] == 1;
  DimVector perm(ndim);
  std::iota(perm.begin(), perm.end(), 0);
  // Densest first; dims of size 0 and 1 go last (they constrain nothing).
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t required = 1;
  for (int64_t d : perm) {
    if (sizes[d] < 2) return true;
    if (strides[d] != required) return false;
    required *= sizes[d];
  }
  return true;
}

namespace {

// PyTorch's is_channels_last_strides_2d_s4 / _3d_s5: dims visited from the channel outwards
// must have non-decreasing strides.
template <size_t N>
bool strides_like(IntArrayRef sizes, IntArrayRef strides, const std::array<int, N>& order) {
  if (sizes.size() != N || strides[1] == 0) return false;
  int64_t min = 0;
  for (int d : order) {
    if (sizes[d] == 0 || strides[d] < min) return false;
    // N111-like tensors are ambiguous: contiguous by default.
    if (d == 0 && min == strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1) min *= sizes[d];
  }
  return true;
}

}  // namespace

MemoryFormat suggest_memory_format(IntArrayRef sizes, IntArrayRef strides) {
  if (sizes.size() == 4 && strides_like(sizes, strides, std::array<int, 4>{1, 3, 2, 0})) {
    return MemoryFormat::kChannelsLast;
  }
  if (sizes.size() == 5 && strides_like(sizes, strides, std::array<int, 5>{1, 4, 3, 2, 0})) {
    return MemoryFormat::kChannelsLast3d;
  }
  return MemoryFormat::kContiguous;
}

DimVector infer_dense_strides(IntArrayRef sizes, IntArrayRef strides) {
  BP_INTERNAL_ASSERT(sizes.size() == strides.size());
  const size_t ndim = sizes.size();
  // perm[0] is the densest dim. Start from row-major (innermost first), then a stable insertion
  // sort that never moves a dim across one of stride 0: TensorIterator orders dims the same way.
  DimVector perm(ndim);
  for (size_t i = 0; i < ndim; ++i) perm[i] = static_cast<int64_t>(ndim - 1 - i);
  // > 0: dim a belongs after dim b; < 0: before; 0: no opinion.
  auto compare = [&](int64_t a, int64_t b) {
    if (strides[a] == 0 || strides[b] == 0) return 0;
    if (strides[a] != strides[b]) return strides[a] < strides[b] ? -1 : 1;
    return sizes[a] > sizes[b] ? 1 : 0;
  };
  for (size_t i = 1; i < ndim; ++i) {
    size_t moving = i;
    for (size_t j = i; j-- > 0;) {
      const int comparison = compare(perm[j], perm[moving]);
      if (comparison > 0) {
        std::swap(perm[j], perm[moving]);
        moving = j;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  DimVector result(ndim);
  int64_t next = 1;
  for (int64_t d : perm) {
    result[d] = next;
    next *= std::max<int64_t>(sizes[d], 1);
  }
  return result;
}

}  // namespace bp
