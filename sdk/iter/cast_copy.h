// cast_copy: copies `src` into `dst` element by element, converting between any two dtypes with
// PyTorch's conversion rules (bp::element_cast). Host-accessible (CPU) tensors only; `src` is
// broadcast to `dst`'s shape.
//
// TensorIterator uses it to materialise inputs promoted to the common dtype and to write outputs
// computed in a temporary back (cast_outputs). The CPU backend's copy_ builds on it.
//
// Errors: shapes that do not broadcast; partial overlap between dst and src; non-CPU tensors.
// Thread safety: writes dst; callers synchronise.
#ifndef BACKPLANE_SDK_ITER_CAST_COPY_H_
#define BACKPLANE_SDK_ITER_CAST_COPY_H_

#include "sdk/core/tensor.h"

namespace bp {

void cast_copy(const Tensor& dst, const Tensor& src);

}  // namespace bp

#endif  // BACKPLANE_SDK_ITER_CAST_COPY_H_
