// The one check of a tensor geometry given as data (case files, repro files, the C ABI's sizes
// and strides): every value in range and every sum and product free of int64 overflow, so that
// nothing built from it can read or write outside its storage.
//
//   const TensorGeometry g = check_tensor_geometry(sizes, strides, /*storage_offset=*/1,
//                                                  /*itemsize=*/4, /*storage_numel=*/5);
//   // g.numel: the elements; g.storage_numel: the storage elements the tensor reaches
//   // (storage_offset + 1 + sum((size - 1) * stride), 0 without elements); g.storage_nbytes.
//
// Rules: as many strides as sizes; sizes, strides and the storage offset non-negative (negative
// strides are not supported, as in PyTorch); numel (check_tensor_sizes), the reached extent and
// its byte count within int64; and, when `storage_numel` is given, the reach within it. A tensor
// without elements reaches no storage, whatever its strides and offset. Errors (bp::Error,
// kInvalidArgument) name the first rule broken and the value, prefixed with `context` when it is
// not empty:
//   "strides[1] is -4: strides must be non-negative"
//   "sizes and strides overflow int64 at dimension 0: (size - 1) * stride is (3 - 1) * 2^62"
//   "sizes, strides and storage_offset reach storage element 11, but the storage holds 5"
// Messages quote single values only, never whole lists, so they stay short for any input.
//
// Thread safety: a pure function.
#ifndef BACKPLANE_SDK_CORE_GEOMETRY_CHECK_H_
#define BACKPLANE_SDK_CORE_GEOMETRY_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "sdk/core/int_array_ref.h"

namespace bp {

// What a checked geometry spans.
struct TensorGeometry {
  int64_t numel = 0;           // product of the sizes
  int64_t storage_numel = 0;   // storage elements reached: 0 when numel is 0
  int64_t storage_nbytes = 0;  // storage_numel * itemsize
};

// Checks that every size is non-negative and that their product fits int64, counting 0 as 1 (as
// native::empty does, so that the contiguous strides of a tensor without elements fit too);
// returns the number of elements. The part of check_tensor_geometry that needs no strides.
int64_t check_tensor_sizes(IntArrayRef sizes, std::string_view context = {});

// Checks sizes, strides, storage offset and (when given) the storage's element count as
// described above. `context` (e.g. "bp_api.tensor_wrap") starts every message as "context: ".
TensorGeometry check_tensor_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                                     size_t itemsize,
                                     std::optional<int64_t> storage_numel = std::nullopt,
                                     std::string_view context = {});

}  // namespace bp

#endif  // BACKPLANE_SDK_CORE_GEOMETRY_CHECK_H_
