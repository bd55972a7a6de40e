#include "sdk/core/geometry_check.h"

#include <string>

#include "sdk/core/error.h"

namespace bp {
namespace {

constexpr int64_t kMax = INT64_MAX;

}  // namespace

TensorGeometry check_tensor_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                     size_t itemsize, std::optional<int64_t> storage_numel,
                                     std::string_view context) {
  const std::string prefix = context.empty() ? std::string() : std::string(context) + ": ";
  BP_CHECK(sizes.size() == strides.size(), prefix, "sizes and strides differ in length (",
           sizes.size(), " sizes, ", strides.size(), " strides)");
  for (size_t d = 0; d < sizes.size(); ++d) {
    BP_CHECK(sizes[d] >= 0, prefix, "sizes[", d, "] is ", sizes[d], ": sizes must be non-negative");
  }
  for (size_t d = 0; d < strides.size(); ++d) {
    BP_CHECK(strides[d] >= 0, prefix, "strides[", d, "] is ", strides[d],
             ": strides must be non-negative");
  }
  BP_CHECK(storage_offset >= 0, prefix, "storage_offset is ", storage_offset,
           ": it must be non-negative");
  BP_CHECK(!storage_numel || *storage_numel >= 0, prefix, "the storage size is ", *storage_numel,
           ": it must be non-negative");

  TensorGeometry g;
  g.numel = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) {
      g.numel = 0;
      break;
    }
  }
  if (g.numel == 0) return g;  // no elements: reaches no storage
  for (size_t d = 0; d < sizes.size(); ++d) {
    BP_CHECK(!__builtin_mul_overflow(g.numel, sizes[d], &g.numel), prefix,
             "sizes overflow int64: the number of elements overflows at sizes[", d, "] (", sizes[d],
             ")");
  }
  // The last element reached: storage_offset + sum((size - 1) * stride), all terms >= 0.
  int64_t last = storage_offset;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t extent = 0;
    BP_CHECK(!__builtin_mul_overflow(sizes[d] - 1, strides[d], &extent), prefix,
             "sizes and strides overflow int64 at dimension ", d, ": (size - 1) * stride is (",
             sizes[d], " - 1) * ", strides[d]);
    BP_CHECK(!__builtin_add_overflow(last, extent, &last), prefix,
             "sizes, strides and storage_offset overflow int64: storage_offset + sum((size - 1) "
             "* stride) exceeds ",
             kMax, " at dimension ", d);
  }
  BP_CHECK(last < kMax, prefix, "sizes, strides and storage_offset overflow int64: they reach ",
           "storage element ", last);
  g.storage_numel = last + 1;
  BP_CHECK(itemsize <= static_cast<size_t>(kMax) &&
               !__builtin_mul_overflow(g.storage_numel, static_cast<int64_t>(itemsize),
                                       &g.storage_nbytes),
           prefix, "sizes, strides and storage_offset overflow int64 in bytes: ", g.storage_numel,
           " storage elements of ", itemsize, " bytes");
  BP_CHECK(!storage_numel || g.storage_numel <= *storage_numel, prefix,
           "sizes, strides and storage_offset need a storage of ", g.storage_numel,
           " elements, but it holds ", storage_numel.value_or(0));
  return g;
}

}  // namespace bp
