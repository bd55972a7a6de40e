#include "sdk/structured/converted_operand.h"

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/iter/cast_copy.h"

namespace bp::meta {

Tensor converted_operand(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  BP_INTERNAL_ASSERT(t.device().is_cpu(), "converted_operand of a tensor on ", t.device());
  Tensor result = t.is_non_overlapping_and_dense()
                      ? native::empty_strided(t.sizes(), t.strides(), dtype, t.device())
                      : native::empty(t.sizes(), dtype, t.device());
  cast_copy(result, t);
  return result;
}

}  // namespace bp::meta
