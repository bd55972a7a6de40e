// Meta functions of the matrix products (sdk/ops/linalg.yaml): mm, bmm, addmm and baddbmm. Each
// checks what PyTorch 1.13 checks, in its order and with its messages, and declares one contiguous
// output of the product's shape in the operands' dtype (a given out must have that dtype:
// "Expected out tensor to have dtype float32, but got float64 instead").
//
//   # sdk/ops/linalg.yaml
//   - func: mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
//     structured: True
//     meta: mm_op(self, mat2)
//
// Every operand must be on one device ("Expected all tensors to be on the same device, but found
// at least two devices, cpu and meta!").
//
// Thread safety: as the MetaBase they write to (one call, one thread).
#ifndef BACKPLANE_SDK_STRUCTURED_MATMUL_META_H_
#define BACKPLANE_SDK_STRUCTURED_MATMUL_META_H_

#include "sdk/core/scalar.h"
#include "sdk/core/tensor.h"
#include "sdk/structured/meta_base.h"

namespace bp::meta {

// self [n, m] @ mat2 [m, p] -> [n, p]. Errors: "self must be a matrix", "mat2 must be a matrix",
// "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)", then (after a given out's checks)
// "expected scalar type float32 but found float64" (mat2's dtype against self's).
void mm_op(MetaBase& meta, const Tensor& self, const Tensor& mat2);

// self [b, n, m] @ mat2 [b, m, p] -> [b, n, p]. Errors: "batch1 must be a 3D tensor", "batch2
// must be a 3D tensor", "Expected size for first two dimensions of batch2 tensor to be: [2, 3]
// but got: [2, 4].", then mm_op's dtype error.
void bmm_op(MetaBase& meta, const Tensor& self, const Tensor& mat2);

// beta * self + alpha * (mat1 @ mat2), self broadcast to [n, p]. Errors: "self and mat2 must
// have the same dtype", "mat1 and mat2 must have the same dtype", "mat1 must be a matrix, got
// 1-D tensor" (and mat2), mm_op's shape error, a given out's or in-place self's checks (self
// must have the product's shape: "Bad in-place call: input tensor size [2, 1] and output tensor
// size [2, 2] should match"), then expand's for self ("The expanded size of the tensor (2) must
// match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 2].  Tensor
// sizes: [2, 3]"). beta and alpha are checked by the kernel, which converts them to the dtype.
void addmm_op(MetaBase& meta, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
              const Scalar& beta, const Scalar& alpha);

// beta * self + alpha * (batch1 @ batch2), self broadcast to [b, n, p] and converted to the
// product's dtype, which is batch2's: bmm_op's checks on the batches, expand's on self, then
// (after a given out's or in-place self's checks) "expected scalar type float32 but found
// float64" for batch2's dtype against batch1's.
void baddbmm_op(MetaBase& meta, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                const Scalar& beta, const Scalar& alpha);

}  // namespace bp::meta

#endif  // BACKPLANE_SDK_STRUCTURED_MATMUL_META_H_
