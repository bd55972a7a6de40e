// Kernels that plugins register through the C ABI, as the dispatcher sees them: boxed kernels on
// the backend's dispatch key that convert the Stack to bp_values, call the plugin, and turn its
// results (or error) back.
//
//   api->kernel_register(npu, "add.out", npu_add_out, NULL, &reg);  // add.out on npu's key
//   bp::add(a, b);            // Common: meta, allocation on npu, then npu_add_out through here
//
// A plugin error becomes bp::Error "[npu] add.out: <plugin's message>" with the plugin's code. A
// list result must be filled with api->value_set_tensor_list: one pointing into the plugin's
// memory gives "[npu] split: result 0 must be filled with api->value_set_tensor_list (its list
// is not host memory)" (the references in it are dropped, its array is left to the plugin). The
// host releases every result the kernel wrote, also when it returns an error. In debug mode
// (debug_checks.h) every call is checked against the op's meta function.
//
// A call that comes through the Common key brings the TensorIterator the op's meta function
// built (sdk/ops/common_plan.h): the kernel reads it with api->kernel_call_iter(args, ...), which
// finds the call by its argument array among the kernel calls running on the thread.
//
// Thread safety: as the dispatcher's registrations and calls.
#ifndef BACKPLANE_SDK_C_API_KERNELS_H_
#define BACKPLANE_SDK_C_API_KERNELS_H_

#include <string>

#include "backplane/backplane.h"
#include "sdk/c_api/ops.h"
#include "sdk/iter/tensor_iterator.h"

namespace bp::c_api {

// Calls the C kernel `fn` of `op` on the arguments at stack[base...] and replaces them with its
// results, as a registered kernel's call does: its error becomes "[label] op: <message>", its
// results are converted and released, and `plan` (may be null) is what api->kernel_call_iter
// hands it; `key` is the backend key it runs under (kernel_redispatch refuses it). The host's own
// C kernels of ops defined from C (op_definitions.cc) run through here.
void call_c_kernel(bp_kernel_fn fn, void* user_data, const std::string& label, const bp_op& op,
                   DispatchKey key, Stack& stack, size_t base, const TensorIteratorBase* plan);

// api->cpu_fallback: bp::cpu_fallback (sdk/dispatch/cpu_fallback.h) as a bp_kernel_fn.
bp_error* host_cpu_fallback(void* user_data, const bp_op* op, const bp_value* args, size_t nargs,
                            bp_value* results, size_t nresults);

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_KERNELS_H_
