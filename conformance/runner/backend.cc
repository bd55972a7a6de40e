#include "conformance/runner/backend.h"

#include "sdk/core/allocator.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"

namespace bp::conformance {

Tensor copy_to_device(const Tensor& t, Device device) { return DeviceCopies(device).copy(t); }

Tensor DeviceCopies::copy(const Tensor& t) {
  auto [it, first] = copies_.try_emplace(t.storage().impl());
  if (first) {
    const size_t nbytes = t.storage().nbytes();
    it->second = Storage::allocate(nbytes, get_allocator(device_.type));
    if (nbytes != 0 && device_.type != DeviceType::kMeta && t.device().type != DeviceType::kMeta) {
      copy_bytes(it->second.data(), it->second.device(), t.storage().data(), t.storage().device(),
                 nbytes);
    }
  }
  Tensor out(IntrusivePtr<TensorImpl>::make(it->second, t.dtype(), t.sizes(), t.strides(),
                                            t.storage_offset()));
  out.impl()->set_wrapped_number(t.is_wrapped_number());
  return out;
}

}  // namespace bp::conformance
