// converted_operand: an operand of another dtype for a meta function's TensorIterator, as
// PyTorch's meta functions write `self.to(dtype)` before building their iterator.
//
//   // clamp(int_tensor, 0.5): the iterator runs over self converted to float32.
//   TensorIteratorConfig config;
//   config.add_output(out).add_owned_input(converted_operand(self, ScalarType::kFloat32));
//
// Only the CPU backend's kernels read a meta function's iterator: other backends' kernels get
// the op's own arguments (through the Common key) and cast as they load. So the values are
// copied only for CPU tensors; on other devices the result is a tensor of the same geometry
// whose elements are not written (on Meta it has no data at all).
//
// Thread safety: as the tensors involved (reads `t`; the result is new).
#ifndef BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_
#define BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_

#include "sdk/core/scalar_type.h"
#include "sdk/core/tensor.h"

namespace bp::meta {

// `t` itself when it has `dtype`; else a new tensor of `dtype` with t's sizes (and t's strides
// when t is non-overlapping and dense, else contiguous), holding t's values converted with
// PyTorch's rules when t is on the CPU.
Tensor converted_operand(const Tensor& t, ScalarType dtype);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_CONVERTED_OPERAND_H_
