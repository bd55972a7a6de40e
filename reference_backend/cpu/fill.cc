// fill_: every element of self set to one value.
#include "reference_backend/cpu/cpu_kernels.h"
#include "sdk/iter/loops.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::cpu {

Tensor& fill_(Tensor& self, const Scalar& value) {
  TensorIterator iter = TensorIteratorConfig()
                            .set_check_mem_overlap(false)
                            .check_all_same_dtype(false)
                            .resize_outputs(false)
                            .add_output(self)
                            .build();
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.to<T>();  // PyTorch checks overflow here: fill_(uint8, 300) is an error
    cpu_kernel(iter, [v]() -> T { return v; });
  });
  self.bump_version();
  return self;
}

}  // namespace bp::cpu
