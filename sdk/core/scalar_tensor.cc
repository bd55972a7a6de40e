#include "sdk/core/scalar_tensor.h"

#include "sdk/core/empty.h"

namespace bp {

Tensor scalar_tensor(const Scalar& value, ScalarType dtype) {
  Tensor t = native::empty({}, dtype, Device(DeviceType::kCPU));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(t.data_ptr()) = value.to_unchecked<T>();
  });
  return t;
}

Tensor wrapped_scalar_tensor(const Scalar& value) {
  Tensor t = scalar_tensor(value, value.type());
  t.impl()->set_wrapped_number(true);
  return t;
}

}  // namespace bp
