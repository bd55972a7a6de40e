// Composite kernels of the special family (sdk/ops/special.yaml).
#include "sdk/ops/native_kernels.h"
#include "sdk/ops/ops.h"

namespace bp::native {

// polygamma_(self, n): PyTorch's argument order differs from polygamma.out's (n, self), so it is
// the out= op into self rather than a structured delegate.
Tensor& polygamma_(Tensor& self, int64_t n) { return bp::polygamma_out(self, n, self); }

}  // namespace bp::native
