// converted_operand: a CPU operand of another dtype for a meta function's TensorIterator, as
// PyTorch's meta functions write `self.to(dtype)` before building their iterator.
//
//   // where(cond, int_tensor, float_tensor) on the CPU: the iterator runs over self as float32.
//   TensorIteratorConfig config;
//   config.add_output(out).add_owned_input(converted_operand(self, ScalarType::kFloat32));
//
// For CPU tensors only: the CPU kernels read one dtype per operand. On other devices a meta
// function adds the tensor itself and declares the dtype to compute in
// (TensorIteratorConfig::declare_common_dtype): the Common key hands the meta function's iterator
// to the backend's kernel (api->kernel_call_iter), which casts while loading, so every operand of
// that iterator must hold the call's values.
//
// Thread safety: as the tensors involved (reads `t`; the result is new).
#ifndef BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_
#define BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_

#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::meta {

// `t` itself when it has `dtype`; else a new CPU tensor of `dtype` with t's sizes (and t's strides
// when t is non-overlapping and dense, else dense strides in t's order of dimensions, as
// PyTorch's empty_like keeps them) holding t's values converted with PyTorch's rules. `t` must be
// on the CPU (an internal error otherwise).
Tensor converted_operand(const Tensor& t, ScalarType dtype);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_
