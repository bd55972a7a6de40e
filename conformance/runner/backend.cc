#include "conformance/runner/backend.h"

#include "sdk/core/allocator.h"
#include "sdk/core/storage.h"
#include "sdk/core/tensor_impl.h"

namespace bp::conformance {

Tensor copy_to_device(const Tensor& t, Device device) {
  const size_t nbytes = t.storage().nbytes();
  Storage storage = Storage::allocate(nbytes, get_allocator(device.type));
  if (nbytes != 0 && device.type != DeviceType::kMeta && t.device().type != DeviceType::kMeta) {
    copy_bytes(storage.data(), storage.device(), t.storage().data(), t.storage().device(), nbytes);
  }
  Tensor out(IntrusivePtr<TensorImpl>::make(std::move(storage), t.dtype(), t.sizes(), t.strides(),
                                            t.storage_offset()));
  out.impl()->set_wrapped_number(t.is_wrapped_number());
  return out;
}

}  // namespace bp::conformance
