// CPU kernels of the logical reductions all and any, for every input dtype: elements are read as
// bool (non-zero, NaN included, is true) and the result is written as bool or uint8 (0 / 1).
#include "reference_backend/cpu/cpu_kernels.h"
#include "reference_backend/cpu/reductions.h"
#include "reference_backend/math/reduction.h"

namespace bp::cpu {
namespace {

template <typename Ops>
void logical_reduction(std::string_view name, const Tensor& self, int64_t dim, bool keepdim,
                       const Tensor& out) {
  TensorIterator iter =
      reduction_iterator(name, out, self, IntArrayRef(&dim, 1), keepdim, self.dtype());
  const Ops ops{};
  reduce_elementwise(iter, ops, ops.identity());
}

}  // namespace

void all_out(structured_all_out&, const Tensor& self, int64_t dim, bool keepdim,
             const Tensor& out) {
  logical_reduction<math::AllOps<bool>>("all", self, dim, keepdim, out);
}

void any_out(structured_any_out&, const Tensor& self, int64_t dim, bool keepdim,
             const Tensor& out) {
  logical_reduction<math::AnyOps<bool>>("any", self, dim, keepdim, out);
}

}  // namespace bp::cpu
