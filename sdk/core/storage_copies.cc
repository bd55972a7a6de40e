#include "sdk/core/storage_copies.h"

#include "sdk/core/allocator.h"
#include "sdk/core/tensor_impl.h"

namespace bp {

Tensor StorageCopies::copy(const Tensor& t) {
  auto [it, first] = copies_.try_emplace(t.storage().impl());
  if (first) {
    const Storage& src = t.storage();
    it->second = Storage::allocate(src.nbytes(), get_allocator(device_.type));
    if (src.nbytes() != 0 && device_.type != DeviceType::kMeta &&
        t.device().type != DeviceType::kMeta) {
      copy_bytes(it->second.data(), it->second.device(), src.data(), src.device(), src.nbytes());
    }
  }
  Tensor out(IntrusivePtr<TensorImpl>::make(it->second, t.dtype(), t.sizes(), t.strides(),
                                            t.storage_offset()));
  out.impl()->set_wrapped_number(t.is_wrapped_number());
  return out;
}

}  // namespace bp
