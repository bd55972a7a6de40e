// Ops through the C ABI: bp_op (an interned operator with its argument conversions), boxed calls
// and meta calls.
//
//   const bp_op& add = find_op("add.Tensor");          // throws "operator 'bp::x' is not defined"
//   run_op(add, args, 2, results, 1, &n, /*meta=*/false);
//
// A bp_op is created once per operator and never freed, so the pointers the ABI hands out stay
// valid for the life of the process (an op that is undefined and redefined gets a new bp_op).
//
// Thread safety: everything here may be called from any thread.
#ifndef BACKPLANE_SDK_C_API_OPS_H_
#define BACKPLANE_SDK_C_API_OPS_H_

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backplane/backplane.h"
#include "sdk/c_api/values.h"
#include "sdk/dispatch/operator_handle.h"
#include "sdk/dispatch/value.h"

// The definition behind the C ABI's opaque bp_op.
struct bp_op {
  bp_op(bp::OperatorHandle h, std::vector<bp::c_api::ArgSpec> a);

  bp::OperatorHandle handle;
  std::string name;    // "bp::add.Tensor"
  std::string label;   // "add.Tensor", "fused_add_relu": how messages name the op
  std::string schema;  // canonical schema text
  std::vector<bp::c_api::ArgSpec> args;
  size_t num_returns;
  // Set when an op defined from C is undefined (op_definitions.cc): calls through this handle
  // then fail instead of reaching the dispatcher's forgotten entry.
  std::atomic<bool> retired{false};
};

namespace bp::c_api {

// The bp_op of a dispatcher op (created on first use; a new one after the op was retired).
const bp_op& intern_op(const OperatorHandle& handle);
// The bp_op named "add.Tensor" or "bp::add.Tensor". Errors: "operator 'bp::x' is not defined".
const bp_op& find_op(std::string_view name);

// What a call's arguments say about where it goes, gathered while converting them.
struct CallRoute {
  DispatchKeySet keys;           // as OperatorHandle::call_boxed would compute them
  std::optional<Device> device;  // the first tensor's device other than CPU and Meta
};

// Marks `op` retired: op_call and op_call_meta through it fail with "operator 'npu::x' is no
// longer defined ...", and the next intern_op of its name makes a new bp_op.
void retire_op(const bp_op& op);

// Converts `nargs` C arguments of `op` into `stack` (appending), filling defaults. Errors
// (kTypeError): too many arguments, a missing argument without default, a wrong type.
CallRoute push_arguments(const bp_op& op, const bp_value* args, size_t nargs, Stack& stack);

// op_call / op_call_meta: runs `op` on `args` and stores its results. Errors carry the op's
// label as context ("[add.Tensor] ..."). `keys` (may be null; not with `meta`): run these keys
// instead of the arguments' (kernel_redispatch).
void run_op(const bp_op& op, const bp_value* args, size_t nargs, bp_value* results,
            size_t max_results, size_t* nresults, bool meta, const DispatchKeySet* keys = nullptr);

// A Stack from a per-thread pool, cleared and returned on destruction, so boxed calls allocate
// nothing once warm. Leases nest (a kernel calling an op takes the next stack); past the pool's
// depth a lease allocates its own.
class StackLease {
 public:
  StackLease();
  ~StackLease();
  StackLease(const StackLease&) = delete;
  StackLease& operator=(const StackLease&) = delete;
  Stack& get() { return *stack_; }

 private:
  Stack* stack_;
  bool owned_;
};

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_OPS_H_
