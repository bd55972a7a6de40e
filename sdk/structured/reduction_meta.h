// Meta functions of reductions over dims (sum, mean, prod, amax, amin, max.dim, min.dim, argmax,
// argmin, nansum, nanmean, count_nonzero, var, std, norm, linalg_vector_norm, all, any, logsumexp):
// each checks its op's arguments as PyTorch does, computes the reduced shape and the result dtype,
// and declares the (contiguous) outputs with set_output_raw_strided.
//
//   # sdk/ops/reductions.yaml
//   - func: sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *,
//                           ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
//     structured: True
//     meta: sum_op(self, dim, keepdim, dtype)
//
// Shapes: `dim` names the reduced dims (negative ones count from the end; none, or an empty list,
// means every dim). A reduced dim stays with size 1 when `keepdim`, and is removed otherwise. A
// 0-dim tensor reduces over its one element and accepts dims 0 and -1.
// Errors shared by every op (PyTorch's texts): IndexError "Dimension out of range (expected to
// be in range of [-2, 1], but got 2)"; "dim 1 appears multiple times in the list of dims".
//
// Result dtypes follow PyTorch: an out= call's given tensor counts (meta.maybe_get_output(i) is
// defined), so where PyTorch takes the out's dtype (sum of float32 into an int32 out computes in
// int32) so does the meta function, and where it does not, the out= wrapper reports "Expected out
// tensor to have dtype float32, but got int64 instead".
//
// Thread safety: as the MetaBase they write to (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_REDUCTION_META_H_
#define BACKPLANE_SDK_STRUCTURED_REDUCTION_META_H_

#include <cstdint>
#include <optional>

#include "sdk/core/int_array_ref.h"
#include "sdk/core/scalar.h"
#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"
#include "sdk/structured/meta_base.h"

namespace bp::meta {

// The shape of reducing `self` over `dims` (see the file comment for the rules and errors).
DimVector reduction_shape(const Tensor& self, IntArrayRef dims, bool keepdim);

// sum: `dtype` if given, else the out's dtype, else int64 for integral and bool inputs and the
// input's dtype otherwise.
void sum_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
            std::optional<ScalarType> dtype);
// prod over one dim: dtypes as sum.
void prod_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim,
             std::optional<ScalarType> dtype);
// mean: dtypes as sum, but the dtype computed in must be floating or complex: "mean(): could not
// infer output dtype. Input dtype must be either a floating point or complex dtype. Got: int64"
// ("Optional dtype ..." for a given `dtype=`); an integral or bool out: "result type float32
// can't be cast to the desired output type int64".
void mean_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
             std::optional<ScalarType> dtype);

// amax: the input's dtype. An out of another dtype: "Expected the dtype for input and out to
// match, but got float32 for input's dtype and int64 for out's dtype." An empty input needs
// named dims of non-zero size: "amax(): Expected reduction dim to be specified for input.numel()
// == 0. Specify the reduction dim with the 'dim' argument.", IndexError "amax(): Expected
// reduction dim 0 to have non-zero size.".
void amax_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim);
// max.dim: values of the input's dtype and int64 indices. IndexError "max(): Expected reduction
// dim 0 to have non-zero size."; "max(): does not support complex input".
void max_dim_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim);
// argmax: int64. Without `dim` it reduces every dim (keepdim: every dim kept as 1); an empty
// input then raises IndexError "argmax(): Expected reduction dim to be specified for
// input.numel() == 0.", and with `dim` "argmax(): Expected reduction dim 1 to have non-zero
// size.".
void argmax_op(MetaBase& meta, const Tensor& self, std::optional<int64_t> dim, bool keepdim);

// amin, min.dim, argmin: as amax, max.dim, argmax, with their names in the messages.
void amin_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim);
void min_dim_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim);
void argmin_op(MetaBase& meta, const Tensor& self, std::optional<int64_t> dim, bool keepdim);

// nansum: dtypes as sum. "nansum does not support complex inputs"; a floating input summed into
// a non-floating dtype (kNotImplemented): "\"nansum\" not implemented for 'int64'".
void nansum_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype);
// nanmean: dtypes as sum, for floating inputs only: "nanmean(): expected input to have floating
// point dtype but got int64"; a non-floating result: "\"nanmean\" not implemented for 'int64'".
void nanmean_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype);
// count_nonzero over `dim` (empty: every dim), keepdim false: int64, or the out's dtype (the
// count converted to it, as PyTorch's out= copies its result).
void count_nonzero_op(MetaBase& meta, const Tensor& self, IntArrayRef dim);

// var: the out's dtype, else the input's real dtype (float32 for complex64). "std and var only
// support floating point and complex dtypes"; an out the (real) input dtype cannot be cast to:
// "result type float32 can't be cast to the desired output type int64".
void var_op(MetaBase& meta, const Tensor& self, std::optional<IntArrayRef> dim,
            const std::optional<Scalar>& correction, bool keepdim);

// norm (p-norm over `dim`, p = 2 when absent): the input's real dtype. "norm(): input dtype
// should be either floating point or complex. Got int64 instead."; on an empty input, p < 0 and
// p = inf need named non-empty dims: "linalg.vector_norm cannot compute the inf norm on an empty
// tensor because the operation does not have an identity".
void norm_op(MetaBase& meta, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
             bool keepdim);
// norm computed in `dtype`: its real dtype. "norm(): the desired output dtype should be either
// floating point or complex. Got int64 instead."; "linalg.vector_norm: Expected a floating point
// or complex tensor as input. Got int64"; "linalg.vector_norm: dtype should be real for real
// inputs, but got complex64"; "linalg.vector_norm: the dtype of the input (float64) should be
// convertible without narrowing to the specified dtype (float32)".
void norm_dtype_op(MetaBase& meta, const Tensor& self, const std::optional<Scalar>& p,
                   IntArrayRef dim, bool keepdim, ScalarType dtype);

// linalg_vector_norm (the ord-norm over `dim`, every dim when None), computed in `dtype` when
// given: the real dtype of `dtype`, else of the input; norm.dtype's errors.
void linalg_vector_norm_op(MetaBase& meta, const Tensor& self, const Scalar& ord,
                           std::optional<IntArrayRef> dim, bool keepdim,
                           std::optional<ScalarType> dtype);

// all / any over one dim: bool (uint8 for uint8 inputs), or the out's dtype, which must be bool or
// uint8: "all only supports bool tensor for result, got: float32".
void all_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim);
void any_op(MetaBase& meta, const Tensor& self, int64_t dim, bool keepdim);

// logsumexp: the out's dtype, else float32 for integral and bool inputs and the input's dtype
// otherwise. A non-floating out: "logsumexp(): Expected floating point type for result tensor,
// but got: int64". Complex inputs and outs are accepted, as PyTorch since pytorch#133187 (1.13
// raised that error for them: "... but got: ComplexFloat").
void logsumexp_op(MetaBase& meta, const Tensor& self, IntArrayRef dim, bool keepdim);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_REDUCTION_META_H_
