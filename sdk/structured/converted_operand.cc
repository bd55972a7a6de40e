#include "sdk/structured/converted_operand.h"

#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/memory_format.h"
#include "sdk/iter/cast_copy.h"

namespace bp::meta {

Tensor converted_operand(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  BP_INTERNAL_ASSERT(t.device().is_cpu(), "converted_operand of a tensor on ", t.device());
  // As PyTorch's `self.to(dtype)` (empty_like, preserve format): a non-dense operand's copy keeps
  // its order of dimensions, so the iterator lays the output out as it would for `t` itself (and
  // as the Meta key does, which converts nothing).
  Tensor result = native::empty_strided(t.sizes(),
                                        t.is_non_overlapping_and_dense()
                                            ? DimVector(t.strides().begin(), t.strides().end())
                                            : infer_dense_strides(t.sizes(), t.strides()),
                                        dtype, t.device());
  cast_copy(result, t);
  return result;
}

}  // namespace bp::meta
