#include "conformance/runner/guards.h"

#include <cstring>

#include "sdk/core/empty.h"

namespace bp::conformance {

Tensor guarded_copy(const Tensor& t) {
  const size_t itemsize = t.itemsize();
  const size_t nbytes = t.storage().nbytes();
  const int64_t elements = static_cast<int64_t>(nbytes / itemsize) + 2 * kGuardElements;
  Tensor base = native::empty({elements}, t.dtype(), Device(DeviceType::kCPU));
  auto* p = static_cast<uint8_t*>(base.storage().data());
  std::memset(p, kGuardByte, base.storage().nbytes());
  if (nbytes != 0) std::memcpy(p + kGuardElements * itemsize, t.storage().data(), nbytes);
  Tensor view = strided_view(base, Sizes(t.sizes().begin(), t.sizes().end()),
                             Sizes(t.strides().begin(), t.strides().end()),
                             t.storage_offset() + kGuardElements);
  view.impl()->set_wrapped_number(t.is_wrapped_number());
  return view;
}

Tensor guarded_output(ScalarType dtype, const Sizes& sizes, Layout layout) {
  RefTensor zeros{dtype, sizes, std::vector<Wide>(static_cast<size_t>(numel_of(sizes)))};
  Tensor t = guarded_copy(lay_out(zeros, layout));
  std::memset(t.storage().data(), kGuardByte, t.storage().nbytes());
  return t;
}

}  // namespace bp::conformance
