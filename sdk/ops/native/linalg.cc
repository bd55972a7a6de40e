// matmul and linear: composites over mm, bmm and addmm (and views), so every backend that has
// those gets them. The cases and their messages are PyTorch 1.13's (_matmul_impl, dot, mv,
// linear): 1-D operands become a row (first) or a column (second) and the dim goes away again;
// matrices after a batch fold into one mm; batches broadcast and run as one bmm.
#include <cstdint>
#include <optional>
#include <vector>

#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/structured_calls.h"

namespace bp::native {
namespace {

// PyTorch's dot: two 1-D tensors of one dtype and length.
Tensor dot(const Tensor& self, const Tensor& other) {
  BP_CHECK(self.dtype() == other.dtype(),
           "dot : expected both vectors to have same dtype, but found ", self.dtype(), " and ",
           other.dtype());
  BP_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [",
           self.numel(), "] and src [", other.numel(),
           "] to have the same number of elements, but got ", self.numel(), " and ", other.numel(),
           " elements respectively");
  return bp::mm(bp::unsqueeze(self, 0), bp::unsqueeze(other, 1)).view({});
}

// PyTorch's mv: a matrix [n, k] times a vector [k].
Tensor mv(const Tensor& mat, const Tensor& vec) {
  BP_CHECK(mat.size(1) == vec.size(0), "size mismatch, got ", mat.size(0), ", ", mat.size(0), "x",
           mat.size(1), ",", vec.size(0));
  return bp::mm(mat, bp::unsqueeze(vec, 1)).view({mat.size(0)});
}

// self's sizes without its last `drop` dims.
std::vector<int64_t> leading_sizes(const Tensor& t, int64_t drop) {
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end() - drop);
}

}  // namespace

Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t dim1 = self.dim(), dim2 = other.dim();
  BP_CHECK(dim1 != 0 && dim2 != 0, "both arguments to matmul need to be at least 1D, but they are ",
           dim1, "D and ", dim2, "D");
  if (dim1 == 1 && dim2 == 1) return dot(self, other);
  if (dim1 == 2 && dim2 == 1) return mv(self, other);
  if (dim1 == 1 && dim2 == 2) return bp::mm(bp::unsqueeze(self, 0), other).view({other.size(1)});
  if (dim1 == 2 && dim2 == 2) return bp::mm(self, other);
  if (dim1 >= 3 && (dim2 == 1 || dim2 == 2)) {
    // [..., n, k] @ [k(, p)]: the batch folds into the rows of one product.
    std::vector<int64_t> sizes = leading_sizes(self, 1);
    // The row count spelled out: -1 cannot be inferred when k is 0 ([0, 3, 0] @ [0, 2]).
    int64_t rows = 1;
    for (int64_t s : sizes) rows *= s;
    const Tensor folded = bp::reshape(self, {rows, self.size(-1)});
    if (dim2 == 1) return mv(folded, other).view(sizes);
    sizes.push_back(other.size(1));
    return bp::mm(folded, other).view(sizes);
  }
  // Batched: the operands' batch dims broadcast; 1-D operands become a row or a column.
  const Tensor a = dim1 == 1 ? bp::unsqueeze(self, 0) : self;
  const Tensor b = dim2 == 1 ? bp::unsqueeze(other, 1) : other;
  const int64_t n = a.size(-2), k = a.size(-1), k2 = b.size(-2), p = b.size(-1);
  const std::vector<int64_t> a_batch = leading_sizes(a, 2), b_batch = leading_sizes(b, 2);
  const DimVector broadcast = infer_size(a_batch, b_batch);
  const std::vector<int64_t> batch(broadcast.begin(), broadcast.end());
  int64_t batches = 1;
  for (int64_t s : batch) batches *= s;
  std::vector<int64_t> a_sizes = batch, b_sizes = batch;
  a_sizes.insert(a_sizes.end(), {n, k});
  b_sizes.insert(b_sizes.end(), {k2, p});
  const Tensor product = bp::bmm(bp::reshape(a.expand(a_sizes), {batches, n, k}),
                                 bp::reshape(b.expand(b_sizes), {batches, k2, p}));
  std::vector<int64_t> sizes = batch;
  if (dim1 > 1) sizes.push_back(n);
  if (dim2 > 1) sizes.push_back(p);
  return product.view(sizes);
}

// PyTorch's out= rules for matmul's products: out takes the result's dtype exactly and is
// resized to its sizes (for a dot product too, where PyTorch words it "result dtype float64 does
// not match input dtype float32").
Tensor& matmul_out(const Tensor& self, const Tensor& other, Tensor& out) {
  const Tensor result = bp::matmul(self, other);
  structured_detail::check_and_resize_out(
      out, result.sizes(), {}, TensorOptions{result.dtype(), result.device(), std::nullopt});
  return bp::copy_(out, result);
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  const Tensor weight_t = bp::t(weight);
  if (bias && input.dim() == 2) return bp::addmm(*bias, input, weight_t);
  Tensor output = bp::matmul(input, weight_t);
  if (bias) output.add_(*bias);
  return output;
}

Tensor& linear_out(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                   Tensor& out) {
  const Tensor weight_t = bp::t(weight);
  if (bias && input.dim() == 2) return bp::addmm_out(out, *bias, input, weight_t);
  bp::matmul_out(out, input, weight_t);
  if (bias) out.add_(*bias);
  return out;
}

}  // namespace bp::native
