#include "reference_backend/cpu/along_dim.h"

#include "sdk/structured/converted_operand.h"

namespace bp::cpu::along_dim_detail {

Tensor input_as(const Tensor& self, ScalarType dtype) {
  return self.dtype() == dtype ? self : meta::converted_operand(self, dtype);
}

}  // namespace bp::cpu::along_dim_detail
