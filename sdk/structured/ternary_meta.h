// Meta functions of ternary and masked pointwise ops (where, clamp, lerp, addcmul): each builds
// the op's TensorIterator and checks what PyTorch checks. Conventions as pointwise_meta.h.
//
//   # sdk/ops/ternary.yaml: the meta function of addcmul.out (and of addcmul, addcmul_)
//   - func: addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor
//     structured_group: True
//     meta: ternary_op(self, tensor1, tensor2)
//
// Thread safety: as the iterator they build (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_TERNARY_META_H_
#define BACKPLANE_SDK_STRUCTURED_TERNARY_META_H_

#include <optional>

#include "sdk/core/scalar.h"
#include "sdk/core/tensor.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::meta {

// Three inputs promoted to their common dtype, which the output takes or is cast to (PyTorch's
// build_ternary_op).
void ternary_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& a, const Tensor& b);

// where(condition, self, other): self and other promoted to promoted_dtype(self, other), which is
// the output's dtype (a given out must have it: "Expected out type to be float32 but got
// int64"); the condition stays bool. A uint8 condition is accepted with PyTorch's deprecation
// warning; other dtypes are "where expected condition to be a boolean tensor.". On the CPU the
// iterator's inputs are converted (condition to bool, self and other to the result type); on
// other devices they are the arguments themselves, with the result type as the common dtype.
void where_op(TensorIteratorBase& iter, const Tensor& condition, const Tensor& self,
              const Tensor& other);

// clamp with Scalar bounds: unary_op_in_dtype over self in result_type(self, min, max), which for
// floating self is self's dtype. Errors: "torch.clamp: At least one of 'min' or 'max' must not
// be None"; "clamp is not supported for complex types" (for self or the bounds); an in-place
// call that would change self's dtype: "result type float32 can't be cast to the desired output
// type int64".
void clamp_op(TensorIteratorBase& iter, const Tensor& self, const std::optional<Scalar>& min,
              const std::optional<Scalar>& max);
// clamp with Tensor bounds: self and the given bounds promoted to their common dtype, which the
// output takes or is cast to. Errors: as clamp_op for missing bounds and complex self.
void clamp_tensor_op(TensorIteratorBase& iter, const Tensor& self, const std::optional<Tensor>& min,
                     const std::optional<Tensor>& max);

// lerp with a Scalar weight: self and end must have the same dtype ("expected dtype float32 for
// `end` but got dtype float64"), which the output takes or is cast to, as for binary_op ("result
// type float32 can't be cast to the desired output type int64").
void lerp_scalar_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& end);

// clamp_min / clamp_max with a Scalar bound: clamp_op with that bound only; a complex bound is
// "clamp is not supported for complex types" whatever self's dtype.
void clamp_min_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& min);
void clamp_max_op(TensorIteratorBase& iter, const Tensor& self, const Scalar& max);

// lerp with a Tensor weight: self, end and weight must have one dtype ("expected dtype float32
// for `weight` but got dtype float64"), which the output must have too ("Found dtype float64 but
// expected float32"), as PyTorch's default TensorIterator.
void lerp_tensor_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& end,
                    const Tensor& weight);

// addcdiv: ternary_op; integral (or bool) tensor1 and tensor2 together are refused with
// PyTorch 1.13's "Integer division with addcdiv is no longer supported, ...".
void addcdiv_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& tensor1,
                const Tensor& tensor2);

// masked_fill(self, mask, value): self's dtype, the shape self and mask broadcast to (in place:
// self's, "output with shape [3] doesn't match the broadcast shape [3, 3]"); an out of another
// dtype takes the result when it can be cast to. The mask must be bool ("masked_fill_ only
// supports boolean masks, but got mask with dtype uint8") and keeps its dtype in the iterator
// (add_input_in_own_dtype); the value must fit self's dtype ("value cannot be converted to type
// at::Half without overflow").
void masked_fill_op(TensorIteratorBase& iter, const Tensor& self, const Tensor& mask,
                    const Scalar& value);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_TERNARY_META_H_
