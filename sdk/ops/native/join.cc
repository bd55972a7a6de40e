// cat and stack: the tensors copied side by side into slices of one result, so every device
// with copy_ has them. The checks and messages are PyTorch 1.13's (cat's meta function,
// check_cat_shape_except_dim, stack's check_stack_inputs).
#include <cstdint>
#include <vector>

#include "sdk/core/error.h"
#include "sdk/core/overlap.h"
#include "sdk/core/promotion.h"
#include "sdk/core/resize.h"
#include "sdk/core/result_type.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// PyTorch's legacy rule: a 1-D tensor of size 0 takes no part in cat (any shape goes with it).
bool skipped(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

// What cat produces: the wrapped dim, the result's sizes, dtype and device.
struct CatPlan {
  int64_t dim = 0;
  std::vector<int64_t> sizes;
  ScalarType dtype;
  Device device;
};

CatPlan plan_cat(absl::Span<const Tensor> tensors, int64_t dim) {
  BP_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    BP_CHECK(tensors[i].dim() != 0, "zero-dimensional tensor (at position ", i,
             ") cannot be concatenated");
  }
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!skipped(t)) {
      ref = &t;
      break;
    }
  }
  CatPlan plan{dim, {0}, promoted_dtype(tensors), tensors[0].device()};
  for (const Tensor& t : tensors) {
    BP_CHECK(t.device() == plan.device,
             "Expected all tensors to be on the same device, but found at least two devices, ",
             plan.device, " and ", t.device(), "!");
  }
  if (ref == nullptr) return plan;
  plan.dim = wrap_dim(dim, ref->dim());
  plan.sizes.assign(ref->sizes().begin(), ref->sizes().end());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped(t)) continue;
    BP_CHECK(t.dim() == ref->dim(), "Tensors must have same number of dimensions: got ", ref->dim(),
             " and ", t.dim());
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d == plan.dim) continue;
      BP_CHECK(t.size(d) == ref->size(d), "Sizes of tensors must match except in dimension ",
               plan.dim, ". Expected size ", ref->size(d), " but got size ", t.size(d),
               " for tensor number ", i, " in the list.");
    }
    total += t.size(plan.dim);
  }
  plan.sizes[static_cast<size_t>(plan.dim)] = total;
  return plan;
}

// Copies each tensor into its slice of `out` (of the plan's sizes).
Tensor& fill(absl::Span<const Tensor> tensors, const CatPlan& plan, Tensor& out) {
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (skipped(t)) continue;
    Tensor slice = out.narrow(plan.dim, offset, t.size(plan.dim));
    bp::copy_(slice, t);
    offset += t.size(plan.dim);
  }
  return out;
}

// stack's inputs: each tensor with a new dim of size 1 at `dim`, after PyTorch's checks.
std::vector<Tensor> stack_inputs(absl::Span<const Tensor> tensors, int64_t dim) {
  BP_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t wrapped = wrap_dim(dim, tensors[0].dim() + 1);
  std::vector<Tensor> out;
  for (size_t i = 0; i < tensors.size(); ++i) {
    BP_CHECK(tensors[i].sizes() == tensors[0].sizes(),
             "stack expects each tensor to be equal size, but got ",
             int_list_string(tensors[0].sizes()), " at entry 0 and ",
             int_list_string(tensors[i].sizes()), " at entry ", i);
    out.push_back(bp::unsqueeze(tensors[i], wrapped));
  }
  return out;
}

}  // namespace

Tensor cat(absl::Span<const Tensor> tensors, int64_t dim) {
  const CatPlan plan = plan_cat(tensors, dim);
  Tensor out = bp::empty(plan.sizes, plan.dtype, plan.device);
  return fill(tensors, plan, out);
}

Tensor& cat_out(absl::Span<const Tensor> tensors, int64_t dim, Tensor& out) {
  const CatPlan plan = plan_cat(tensors, dim);
  BP_CHECK(out.device() == plan.device,
           "Expected all tensors to be on the same device, but found at least two devices, ",
           plan.device, " and ", out.device(), "!");
  BP_CHECK(can_cast(plan.dtype, out.dtype()),
           "torch.cat(): input types can't be cast to the desired output type ", out.dtype());
  // The inputs are read while out is written.
  for (const Tensor& t : tensors) {
    if (!skipped(t)) assert_no_overlap(out, t);
  }
  resize_output(*out.impl(), plan.sizes);
  return fill(tensors, plan, out);
}

Tensor stack(absl::Span<const Tensor> tensors, int64_t dim) {
  const std::vector<Tensor> inputs = stack_inputs(tensors, dim);
  return bp::cat(inputs, wrap_dim(dim, tensors[0].dim() + 1));
}

Tensor& stack_out(absl::Span<const Tensor> tensors, int64_t dim, Tensor& out) {
  const std::vector<Tensor> inputs = stack_inputs(tensors, dim);
  return bp::cat_out(out, inputs, wrap_dim(dim, tensors[0].dim() + 1));
}

}  // namespace bp::native
