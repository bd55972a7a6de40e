// masked_select and embedding: composites over index_select, so every device with index_select
// has them. The checks and messages are PyTorch 1.13's.
#include <cstdint>
#include <vector>

#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/core/overlap.h"
#include "sdk/core/warning.h"
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {
namespace {

// The elements masked_select picks: self flattened after broadcasting with mask, and the int64
// positions (on self's device) where the broadcast mask is true. The mask's size-dependent
// result needs its values, so they are read on the host.
struct Selection {
  Tensor flat;
  Tensor positions;
};

Selection select_where(const Tensor& self, const Tensor& mask) {
  BP_CHECK(mask.device() == self.device(),
           "Expected all tensors to be on the same device, but found at least two devices, ",
           self.device(), " and ", mask.device(), "!");
  BP_CHECK_NOT_IMPLEMENTED(mask.device().type != DeviceType::kMeta,
                           "masked_select: the result's size depends on the mask's values, "
                           "which a meta tensor does not have");
  // mask first, as PyTorch's expand_outplace(mask, self): its sizes are "tensor a" in the error.
  const DimVector shape = infer_size(mask.sizes(), self.sizes());
  const Tensor host_mask = bp::_to_copy(mask.expand(shape), ScalarType::kBool,
                                        Device(DeviceType::kCPU), false, std::nullopt)
                               .contiguous();
  const bool* m = host_mask.data_ptr<bool>();
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < host_mask.numel(); ++i) {
    if (m[i]) positions.push_back(i);
  }
  Tensor host_positions = bp::empty({static_cast<int64_t>(positions.size())}, ScalarType::kInt64);
  std::copy(positions.begin(), positions.end(), host_positions.data_ptr<int64_t>());
  return {bp::reshape(self.expand(shape), {-1}),
          bp::_to_copy(host_positions, std::nullopt, self.device(), false, std::nullopt)};
}

void check_mask(const Tensor& mask) {
  BP_CHECK(mask.dtype() == ScalarType::kBool || mask.dtype() == ScalarType::kUInt8,
           "masked_select: expected BoolTensor or ByteTensor for mask");
}

void warn_if_byte_mask(const Tensor& mask) {
  if (mask.dtype() != ScalarType::kUInt8) return;
  warn(
      "masked_select received a mask with dtype torch.uint8, this behavior is now deprecated,"
      "please use a mask with dtype torch.bool instead.");
}

}  // namespace

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  check_mask(mask);
  warn_if_byte_mask(mask);
  const Selection s = select_where(self, mask);
  return bp::index_select(s.flat, 0, s.positions);
}

Tensor& masked_select_out(const Tensor& self, const Tensor& mask, Tensor& out) {
  check_mask(mask);
  BP_CHECK(self.dtype() == out.dtype(),
           "masked_select(): self and result must have the same scalar type");
  // The inputs are read while out is written.
  assert_no_internal_overlap(out);
  assert_no_overlap(out, self);
  assert_no_overlap(out, mask);
  warn_if_byte_mask(mask);
  const Selection s = select_where(self, mask);
  return bp::index_select_out(out, s.flat, 0, s.positions);
}

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool scale_grad_by_freq, bool sparse) {
  // Only gradients read these.
  (void)padding_idx, (void)scale_grad_by_freq, (void)sparse;
  BP_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  BP_CHECK(indices.dtype() == ScalarType::kInt64 || indices.dtype() == ScalarType::kInt32,
           "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
           "Long, Int; but got ",
           // The dtype is what is wrong: named as on the CPU, so every device words it alike.
           legacy_type_name(indices.dtype()), " instead (while checking arguments for embedding)");
  if (indices.dim() == 1) return bp::index_select(weight, 0, indices);
  std::vector<int64_t> sizes(indices.sizes().begin(), indices.sizes().end());
  sizes.push_back(weight.size(1));
  return bp::index_select(weight, 0, bp::reshape(indices, {-1})).view(sizes);
}

}  // namespace bp::native
