// The definition behind the C ABI's opaque bp_iter (backplane/iter.h), shared by iter.cc (plans
// of api->iter_build and their 32-bit sub-plans) and kernels.cc (the plan the Common key hands a
// plugin kernel, api->kernel_call_iter).
#ifndef BACKPLANE_SDK_C_API_ITER_H_
#define BACKPLANE_SDK_C_API_ITER_H_

#include <memory>

#include "sdk/iter/tensor_iterator.h"

// A plan it owns (iter_build: iter_destroy frees it), or one it borrows (`owned` null: a sub-plan
// for the duration of an iter_split_32bit visit, or the Common key's plan for the duration of a
// kernel call), which iter_destroy leaves alone.
struct bp_iter {
  std::unique_ptr<bp::TensorIterator> owned;
  bp::TensorIteratorBase* plan;
};

#endif  // BACKPLANE_SDK_C_API_ITER_H_
