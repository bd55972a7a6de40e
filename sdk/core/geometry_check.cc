#include "sdk/core/geometry_check.h"

#include <string>

#include "sdk/core/error.h"

namespace bp {
namespace {

constexpr int64_t kMax = INT64_MAX;

std::string prefix_of(std::string_view context) {
  return context.empty() ? std::string() : std::string(context) + ": ";
}

}  // namespace

int64_t check_tensor_sizes(IntArrayRef sizes, std::string_view context) {
  for (size_t d = 0; d < sizes.size(); ++d) {
    BP_CHECK(sizes[d] >= 0, prefix_of(context), "sizes[", d, "] is ", sizes[d],
             ": sizes must be non-negative");
  }
  // Zero counts as one, as in native::empty's row-major strides: a tensor without elements may
  // not have sizes whose other products (its contiguous strides) overflow.
  int64_t product = 1;
  bool empty = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    empty |= sizes[d] == 0;
    BP_CHECK(!__builtin_mul_overflow(product, sizes[d] > 1 ? sizes[d] : 1, &product),
             prefix_of(context), "sizes overflow int64: the number of elements overflows at sizes[",
             d, "] (", sizes[d], ")");
  }
  return empty ? 0 : product;
}

TensorGeometry check_tensor_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                     size_t itemsize, std::optional<int64_t> storage_numel,
                                     std::string_view context) {
  BP_CHECK(sizes.size() == strides.size(), prefix_of(context),
           "sizes and strides differ in length (", sizes.size(), " sizes, ", strides.size(),
           " strides)");
  TensorGeometry g;
  g.numel = check_tensor_sizes(sizes, context);
  for (size_t d = 0; d < strides.size(); ++d) {
    BP_CHECK(strides[d] >= 0, prefix_of(context), "strides[", d, "] is ", strides[d],
             ": strides must be non-negative");
  }
  BP_CHECK(storage_offset >= 0, prefix_of(context), "storage_offset is ", storage_offset,
           ": it must be non-negative");
  BP_CHECK(!storage_numel || *storage_numel >= 0, prefix_of(context), "the storage size is ",
           storage_numel.value_or(0), ": it must be non-negative");
  if (g.numel == 0) return g;  // no elements: reaches no storage

  // The last element reached: storage_offset + sum((size - 1) * stride), every term >= 0.
  int64_t last = storage_offset;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t extent = 0;
    BP_CHECK(!__builtin_mul_overflow(sizes[d] - 1, strides[d], &extent), prefix_of(context),
             "sizes and strides overflow int64 at dimension ", d, ": (size - 1) * stride is (",
             sizes[d], " - 1) * ", strides[d]);
    BP_CHECK(!__builtin_add_overflow(last, extent, &last), prefix_of(context),
             "sizes, strides and storage_offset overflow int64: storage_offset + sum((size - 1) "
             "* stride) exceeds ",
             kMax, " at dimension ", d);
  }
  BP_CHECK(last < kMax, prefix_of(context),
           "sizes, strides and storage_offset overflow int64: they reach storage element ", last);
  g.storage_numel = last + 1;
  BP_CHECK(itemsize <= static_cast<size_t>(kMax) &&
               !__builtin_mul_overflow(g.storage_numel, static_cast<int64_t>(itemsize),
                                       &g.storage_nbytes),
           prefix_of(context),
           "sizes, strides and storage_offset overflow int64 in bytes: ", g.storage_numel,
           " storage elements of ", itemsize, " bytes");
  BP_CHECK(!storage_numel || g.storage_numel <= *storage_numel, prefix_of(context),
           "sizes, strides and storage_offset need a storage of ", g.storage_numel,
           " elements, but it holds ", storage_numel.value_or(0));
  return g;
}

}  // namespace bp
