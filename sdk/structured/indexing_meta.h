// Meta functions of the ops that index by a tensor of indices (sdk/ops/indexing.yaml):
// index_select, gather, scatter (src, value, reduce) and scatter_add. Each checks what PyTorch
// 1.13 checks, in its order and with its messages, and declares one contiguous output. Whether
// each index is in range depends on the indices' values: the kernels check it, before writing.
//
//   # sdk/ops/indexing.yaml
//   - func: gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!)
//   out) -> Tensor(a!)
//     structured: True
//     meta: gather_op(self, dim, index)
//
// Every operand must be on self's device ("Expected all tensors to be on the same device, but
// found at least two devices, cpu and meta!"); `dim` is wrapped as PyTorch's maybe_wrap_dim (a
// 0-dim self takes 0 and -1).
//
// Thread safety: as the MetaBase they write to (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_INDEXING_META_H_
#define BACKPLANE_SDK_STRUCTURED_INDEXING_META_H_

#include <cstdint>
#include <string_view>

#include "sdk/core/scalar.h"
#include "sdk/core/tensor.h"
#include "sdk/structured/meta_base.h"

namespace bp::meta {

// self's sizes with dim's replaced by index.numel(), self's dtype (an out= of another dtype:
// "index_select(): self and result must have the same scalar type"). Errors, in order:
// "index_select(): Index is supposed to be a vector" (IndexError, index of 2 or more dims),
// "index_select(): Expected dtype int32 or int64 for index", "index_select(): Index to scalar can
// have only 1 value, got 2 value(s)" (a 0-dim self), and, for a self of 2 or more dims with no
// elements and a non-empty index, "index_select(): self indexing axis dim should be positive".
void index_select_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index);

// index's sizes, self's dtype. Errors, after a given out's checks (its dtype must be self's, and it
// may not overlap self or, partially, index): "gather(): Expected dtype int64 for index" (a
// non-empty index), "Index tensor must have the same number of dimensions as input tensor", "Size
// does not match at dimension 0 expected index [3, 4] to be smaller than self [2, 3] apart from
// dimension 1".
void gather_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index);

// scatter / scatter_add with a src tensor: self's sizes and dtype. Errors (checked only for a
// non-empty index but the dtypes): "scatter(): Expected dtype int64 for index", "scatter():
// Expected self.dtype to be equal to src.dtype", "Index tensor must have the same number of
// dimensions as self tensor" (and "as src tensor"), "Expected index [2, 1] to be smaller than self
// [2, 3] apart from dimension 1 and to be smaller size than src [1, 1]"; then a given out may not
// overlap index or src.
void scatter_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                const Tensor& src);

// scatter of one value: scatter_op's checks without src's.
void scatter_value_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                      const Scalar& value);

// scatter_op's, then `reduce` must be "add" or "multiply" ("reduce argument must be either add or
// multiply.").
void scatter_reduce_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                       const Tensor& src, std::string_view reduce);

// scatter_value_op's, then scatter_reduce_op's check of `reduce`.
void scatter_value_reduce_op(MetaBase& meta, const Tensor& self, int64_t dim, const Tensor& index,
                             const Scalar& value, std::string_view reduce);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_INDEXING_META_H_
