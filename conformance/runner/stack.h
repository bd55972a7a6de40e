// Building an op's boxed arguments from a case's named arguments and the op's schema.
//
//   PreparedCall call = prepare_call(schema, c.args, backend.device());
//   op.call_boxed(&call.stack);
//   call.tensors["self"];      // the device copy of `self` the op saw
//
// Tensor arguments are copied to `device` (geometry and bytes; `keep_on_host` ones to a fresh
// CPU tensor; each storage once, so arguments sharing a storage share its copy: StorageCopies),
// DeviceUnderTest becomes `device`, numbers are converted to the schema's type (an int where a
// float goes, an int where an int list goes), and arguments the case leaves out take the schema's
// default (None for optional ones).
//
// Errors: std::invalid_argument naming the argument when the case has an argument the schema
// lacks, or lacks one the schema requires.
// Thread safety: pure apart from the copies it makes.
#ifndef BACKPLANE_CONFORMANCE_RUNNER_STACK_H_
#define BACKPLANE_CONFORMANCE_RUNNER_STACK_H_

#include <map>
#include <string>
#include <vector>

#include "conformance/framework/sample.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp::conformance {

struct PreparedCall {
  Stack stack;
  std::map<std::string, Tensor> tensors;  // the tensor arguments as passed, by name
};

PreparedCall prepare_call(const FunctionSchema& schema, const std::vector<SampleArg>& args,
                          Device device);

// The value of a schema default for an argument of type `type`.
Value default_value(const Type& type, const DefaultValue& d);

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_RUNNER_STACK_H_
