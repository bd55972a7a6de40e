#include "reference_backend/cpu/reductions.h"

namespace bp::cpu {

TensorIterator reduction_iterator(std::string_view name, const Tensor& out, const Tensor& self,
                                  IntArrayRef dims, bool keepdim, ScalarType in_dtype) {
  // make_reduction takes the result by reference to allocate or resize it; `out` already has the
  // reduced shape and dtype, so it is used as it is.
  Tensor result = out;
  return make_reduction(name, result, self, dims, keepdim, in_dtype, out.dtype());
}

}  // namespace bp::cpu
