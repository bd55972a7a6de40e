#include "sdk/core/copy_rules.h"

#include <atomic>

#include "sdk/core/broadcast.h"
#include "sdk/core/error.h"
#include "sdk/core/warning.h"

namespace bp {

void check_copy_shape(const Tensor& self, const Tensor& src) {
  const DimVector shape = infer_size(self.sizes(), src.sizes());
  BP_CHECK(IntArrayRef(shape) == self.sizes(), "output with shape ", int_list_string(self.sizes()),
           " doesn't match the broadcast shape ", int_list_string(shape));
}

bool copy_is_noop(const Tensor& self, const Tensor& src) {
  if (self.is_same(src)) return true;
  return self.is_alias_of(src) && self.storage_offset() == src.storage_offset() &&
         self.sizes() == src.sizes() && self.strides() == src.strides() &&
         self.dtype() == src.dtype();
}

void warn_if_copy_discards_imaginary(const Tensor& self, const Tensor& src) {
  // A cast to bool reads both parts (true when either is non-zero), so it discards nothing.
  if (is_complex(self.dtype()) || self.dtype() == ScalarType::kBool || !is_complex(src.dtype())) {
    return;
  }
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) warn("Casting complex values to real discards the imaginary part");
}

}  // namespace bp
