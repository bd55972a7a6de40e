// The iteration plan the Common key hands to a backend's out= kernel (RFC-0005's Common key).
//
// A structured op whose meta function builds a TensorIterator (`structured_inherits:
// TensorIteratorBase`) has, once its Common kernel ran the meta function, everything a device
// kernel needs in that iterator: broadcast shape, per-operand byte strides and dtypes after
// coalescing, the common dtype, the allocated outputs. The Common kernel publishes it for the
// out= kernel it calls next, which takes it instead of building a second iterator over the same
// operands; plugins get it through the C ABI (api->kernel_call_iter, sdk/c_api/kernels.cc).
//
//   // The generated Common kernel of add.Tensor (codegen/emit_common.cc):
//   FunctionalCall<structured_add_out> call;
//   call.meta(self, other, alpha);
//   {
//     const CommonPlanScope plan(op_handles::add_out(), call);
//     op_handles::add_out().redispatch(below, self, other, alpha, call.output(0));
//   }
//
//   // The backend's boxed kernel for add.out, before anything else:
//   const TensorIteratorBase* plan = take_common_plan(handle);  // nullptr: build your own
//
// A plan is published for one kernel on the calling thread: the first take_common_plan takes it
// whichever op it names, so a kernel further down (an op the out= kernel calls, a copy it makes)
// never sees a plan meant for another call. Scopes nest; each restores what it replaced.
//
// Thread safety: thread-local. The plan belongs to the Common kernel and lives until its scope
// ends, i.e. for the whole out= kernel call.
#ifndef BACKPLANE_SDK_OPS_COMMON_PLAN_H_
#define BACKPLANE_SDK_OPS_COMMON_PLAN_H_

#include "sdk/dispatch/operator_handle.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp {

class CommonPlanScope {
 public:
  // Publishes `plan` for the kernel of `op` (the out= op about to be called) on this thread.
  // `op` and `plan` must outlive the scope.
  CommonPlanScope(const OperatorHandle& op, const TensorIteratorBase& plan) noexcept;
  ~CommonPlanScope();
  CommonPlanScope(const CommonPlanScope&) = delete;
  CommonPlanScope& operator=(const CommonPlanScope&) = delete;

  // What a scope publishes: the op it is for and its plan (both null: nothing).
  struct Published {
    const OperatorHandle* op = nullptr;
    const TensorIteratorBase* plan = nullptr;
  };

 private:
  Published previous_;
};

// The plan published on this thread if it is for `op`, else nullptr (the call did not come
// through Common, or its op's meta function builds no TensorIterator). Either way, nothing is
// published afterwards.
const TensorIteratorBase* take_common_plan(const OperatorHandle& op) noexcept;

}  // namespace bp

#endif  // BACKPLANE_SDK_OPS_COMMON_PLAN_H_
