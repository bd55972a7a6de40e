// Boxed values across the C ABI: bp_value (C, tagged) <-> bp::Value (C++), guided by the op's
// schema.
//
//   ArgSpec spec = make_arg_spec(schema.arguments[1]);      // type + default, converted once
//   push_argument(stack, args[1], spec, 2);                  // TypeError on a mismatch
//   store_result(stack[0], &results[0]);                     // new reference / host memory
//   release_value(&results[0]);                              // what value_release does
//   store_tensor_list(handles, n, &results[0]);               // api->value_set_tensor_list
//
//   BorrowedValues view(stack_tail);                          // for a plugin kernel's args
//   kernel(..., view.data(), view.size(), ...);
//
// Argument conversions follow the schema (api.h op_call): Scalar takes BOOL, INT, DOUBLE or
// COMPLEX; float takes INT or DOUBLE; int[N] takes one INT for all N; optional types take NONE;
// Tensor takes a non-NULL TENSOR, Tensor? also a NULL one; Tensor?[] a TENSOR_LIST with NULLs.
//
// Host-allocated TENSOR_LIST arrays (store_result's and store_tensor_list's) are tracked, so
// that release_value frees only those and a plugin kernel's list result can be told from a
// pointer into the plugin's memory (is_host_tensor_list).
//
// Thread safety: any function may be called from any thread (the set of host-allocated list
// arrays is guarded by a mutex, taken for list values only); a BorrowedValues is used by one
// call.
#ifndef BACKPLANE_SDK_C_API_VALUES_H_
#define BACKPLANE_SDK_C_API_VALUES_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "backplane/types.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp::c_api {

// How one schema argument is read: its name, type and default (converted once).
struct ArgSpec {
  std::string name;
  Type type;
  std::optional<Value> default_value;
};

// Errors (kInternal): a default this code cannot convert (a schema the ABI does not support).
ArgSpec make_arg_spec(const Argument& argument);

// "Tensor", "int", "int[]", "None", ... for messages; "tag 42" for an unknown tag.
std::string tag_name(int32_t tag);

// The Value of `v` as the schema type `type`. Errors (kTypeError): "must be Tensor, not int";
// (kInvalidArgument): NULL list data, unknown dtype / device / memory format codes.
Value to_value(const bp_value& v, const Type& type);

// Appends the Value of argument `spec` (1-based `position`, for messages) to `stack`. Errors
// (kTypeError): "argument 'other' (position 2) must be Tensor, not int" (and to_value's).
void push_argument(Stack& stack, const bp_value& v, const ArgSpec& spec, size_t position);

// Writes `value` as a result: tensors as new references (moved out of `value`), lists and
// strings copied to host memory (malloc) that release_value frees; tensor list arrays are
// tracked (is_host_tensor_list). Errors: out of memory (nothing is left allocated).
void store_result(Value&& value, bp_value* out);

// api->value_set_tensor_list: writes a TENSOR_LIST whose array is a new, tracked host copy of
// `handles` (NULL entries stay NULL: undefined tensors); the value takes over the references the
// non-NULL handles carry. Even an empty list gets an array of its own. Errors: out of memory
// (then nothing is taken and *out is unchanged).
void store_tensor_list(bp_tensor* const* handles, size_t size, bp_value* out);

// Whether `v` is a TENSOR_LIST whose array the host allocated (store_result, store_tensor_list)
// and has not freed yet.
bool is_host_tensor_list(const bp_value& v);

// Releases what a value written by store_result or store_tensor_list holds and sets it to NONE.
void release_value(bp_value* v) noexcept;

// Releases what a plugin kernel's result holds: its tensor references (TENSOR, TENSOR_LIST
// entries) and its list array when the host allocated it (is_host_tensor_list). Memory the
// plugin owns (an untracked list array, strings, other lists) is left alone. Costs no lock for
// values other than TENSOR_LIST.
void release_kernel_result(bp_value* v) noexcept;

// Borrowed bp_values viewing a run of Values (a kernel's arguments): tensors as handles without
// references, lists pointing into the Values or into scratch arrays owned here. Valid while
// this object and the Values live.
class BorrowedValues {
 public:
  explicit BorrowedValues(absl::Span<const Value> values);
  BorrowedValues(const BorrowedValues&) = delete;
  BorrowedValues& operator=(const BorrowedValues&) = delete;

  const bp_value* data() const { return values_.data(); }
  size_t size() const { return values_.size(); }

 private:
  bp_value view(const Value& v);

  absl::InlinedVector<bp_value, 8> values_;
  std::vector<std::unique_ptr<bp_tensor*[]>> tensor_arrays_;
  std::vector<std::unique_ptr<bool[]>> bool_arrays_;
};

}  // namespace bp::c_api

#endif  // BACKPLANE_SDK_C_API_VALUES_H_
