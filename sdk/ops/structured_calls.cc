#include "sdk/ops/structured_calls.h"

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/resize.h"
#include "sdk/ops/copies.h"

namespace bp::structured_detail {

Tensor allocate_output(IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options) {
  if (!strides.empty()) return native::empty_strided(sizes, strides, options.dtype, options.device);
  return native::empty(sizes, options.dtype, options.device,
                       options.memory_format.value_or(MemoryFormat::kContiguous));
}

bool check_and_resize_out(const Tensor& out, IntArrayRef sizes, IntArrayRef strides,
                          const TensorOptions& options) {
  BP_CHECK_TYPE(out.dtype() == options.dtype, "Expected out tensor to have dtype ", options.dtype,
                ", but got ", out.dtype(), " instead");
  BP_CHECK(out.device() == options.device, "Expected out tensor to have device ", options.device,
           ", but got ", out.device(), " instead");
  // Only a resized out takes the meta function's (advisory) layout; an out of the right size
  // keeps its own strides.
  if (!strides.empty()) return resize_output(*out.impl(), sizes, strides);
  return resize_output(*out.impl(), sizes, std::nullopt,
                       options.memory_format.value_or(MemoryFormat::kContiguous));
}

void check_inplace(const Tensor& self, IntArrayRef sizes, const TensorOptions& options) {
  BP_CHECK_TYPE(self.dtype() == options.dtype, "Bad in-place call: input tensor dtype ",
                self.dtype(), " and output tensor dtype ", options.dtype, " should match");
  BP_CHECK(self.device() == options.device, "Bad in-place call: input tensor device ",
           self.device(), " and output tensor device ", options.device, " should match");
  BP_CHECK(self.sizes() == sizes, "Bad in-place call: input tensor size ",
           int_list_string(self.sizes()), " and output tensor size ", int_list_string(sizes),
           " should match");
}

Tensor maybe_proxy(const Tensor& out, IntArrayRef sizes, IntArrayRef strides,
                   const TensorOptions& options) {
  if (strides.empty() || out.strides() == strides) return Tensor();
  return allocate_output(sizes, strides, options);
}

void finish_outputs(Tensor* const* outputs, Tensor* proxies, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    Tensor& out = *outputs[i];
    if (proxies[i].defined()) {
      copy_(out, proxies[i]);
      proxies[i] = Tensor();
    } else {
      out.bump_version();  // copy_ bumps it when there was a proxy
    }
  }
}

}  // namespace bp::structured_detail
