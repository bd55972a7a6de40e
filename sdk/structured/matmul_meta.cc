#include "sdk/structured/matmul_meta.h"

#include <cstdint>
#include <initializer_list>

#include "sdk/core/error.h"
#include "sdk/core/tensor_options.h"
#include "sdk/core/views.h"

namespace bp::meta {
namespace {

void check_same_device(std::initializer_list<const Tensor*> tensors) {
  const Device first = (*tensors.begin())->device();
  for (const Tensor* t : tensors) {
    BP_CHECK(t->device() == first,
             "Expected all tensors to be on the same device, but found at least two devices, ",
             first, " and ", t->device(), "!");
  }
}

// The dtype check PyTorch's CPU kernels make: `found` against `expected`.
void check_dtype(const Tensor& expected, const Tensor& found) {
  BP_CHECK(expected.dtype() == found.dtype(), "expected scalar type ", expected.dtype(),
           " but found ", found.dtype());
}

void check_multipliable(const Tensor& mat1, const Tensor& mat2) {
  BP_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
           mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void check_batches(const Tensor& batch1, const Tensor& batch2) {
  BP_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  BP_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  BP_CHECK(batch2.size(0) == batch1.size(0) && batch2.size(1) == batch1.size(2),
           "Expected size for first two dimensions of batch2 tensor to be: [", batch1.size(0), ", ",
           batch1.size(2), "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
}

void set_product(MetaBase& meta, std::initializer_list<int64_t> sizes, const Tensor& like) {
  meta.set_output_contiguous(0, IntArrayRef(sizes.begin(), sizes.size()),
                             TensorOptions{like.dtype(), like.device(), std::nullopt});
}

}  // namespace

void mm_op(MetaBase& meta, const Tensor& self, const Tensor& mat2) {
  BP_CHECK(self.dim() == 2, "self must be a matrix");
  BP_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  check_multipliable(self, mat2);
  check_same_device({&self, &mat2});
  set_product(meta, {self.size(0), mat2.size(1)}, self);
  check_dtype(self, mat2);  // after the output's checks, as PyTorch's kernel
}

void bmm_op(MetaBase& meta, const Tensor& self, const Tensor& mat2) {
  check_batches(self, mat2);
  check_same_device({&self, &mat2});
  set_product(meta, {self.size(0), self.size(1), mat2.size(2)}, self);
  check_dtype(self, mat2);
}

void addmm_op(MetaBase& meta, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
              const Scalar& beta, const Scalar& alpha) {
  (void)beta, (void)alpha;
  BP_CHECK(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype");
  BP_CHECK(mat1.dtype() == mat2.dtype(), "mat1 and mat2 must have the same dtype");
  BP_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  BP_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_multipliable(mat1, mat2);
  check_same_device({&self, &mat1, &mat2});
  const int64_t sizes[] = {mat1.size(0), mat2.size(1)};
  set_product(meta, {sizes[0], sizes[1]}, mat1);
  // Whether self broadcasts to the product: after the output's checks (PyTorch's kernel checks).
  (void)native::expand(self, sizes);
}

void baddbmm_op(MetaBase& meta, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                const Scalar& beta, const Scalar& alpha) {
  (void)beta, (void)alpha;
  // PyTorch sizes the product (wrapping each dim: an IndexError for too few) before the checks.
  const int64_t sizes[] = {batch1.size(0), batch1.size(1), batch2.size(2)};
  check_batches(batch1, batch2);
  check_same_device({&self, &batch1, &batch2});
  (void)native::expand(self, sizes);
  // The product takes batch2's dtype; self's is converted (PyTorch's meta and kernel).
  set_product(meta, {sizes[0], sizes[1], sizes[2]}, batch2);
  check_dtype(batch1, batch2);
}

}  // namespace bp::meta
