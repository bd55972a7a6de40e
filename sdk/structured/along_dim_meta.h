// Meta functions of the ops that run along one dim and keep the input's shape: scans (cumsum,
// cumprod, ...) and normalisations (softmax, log_softmax). Each wraps `dim` as PyTorch does
// (IndexError "Dimension out of range (expected to be in range of [-2, 1], but got 2)"; a 0-dim
// tensor accepts 0 and -1), rejects a given output whose elements overlap ("unsupported
// operation: more than one element of the written-to tensor refers to a single memory location":
// lines are written in turn), and declares one contiguous output of the input's shape.
//
//   # sdk/ops/scans.yaml
//   - func: cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
//     structured_group: True
//     meta: cumulative_op(self, dim, dtype)
//     scan: Sum
//
// Thread safety: as the MetaBase they write to (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_ALONG_DIM_META_H_
#define BACKPLANE_SDK_STRUCTURED_ALONG_DIM_META_H_

#include <cstdint>
#include <optional>

#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/structured/meta_base.h"

namespace bp::meta {

// cumsum / cumprod: `dtype` if given, else the out's dtype (in-place: self's), else int64 for
// integral and bool inputs and the input's dtype otherwise (PyTorch's cum_meta_func). The input
// is converted to that dtype before the scan.
void cumulative_op(MetaBase& meta, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype);

// cummax / cummin: values of the input's dtype and int64 indices.
void cumulative_extreme_op(MetaBase& meta, const Tensor& self, int64_t dim);

// logcumsumexp: the input's dtype; an out= tensor must have exactly that dtype.
void logcumsumexp_op(MetaBase& meta, const Tensor& self, int64_t dim);

// softmax / log_softmax: `dtype` if given (the input is converted to it first), else the
// input's dtype. An out= tensor must have exactly that dtype.
void softmax_op(MetaBase& meta, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_ALONG_DIM_META_H_
