// What a reference says an op returns for a sample: the outputs (values, dtype, sizes, and where
// PyTorch fixes them, strides and aliasing), or an error.
//
//   Expected e = Expected::of(result);                  // one output, values checked
//   e.outputs[0].strides = Sizes{1, 3};                 // a view: exact strides
//   e.outputs[0].aliases = "self";                      // ... over self's storage
//   Expected::of_plain(Value(ScalarType::kFloat32));    // result_type: a ScalarType
//
// An op returning `Tensor[]` has one output per element of the list, in order, each checked as
// any tensor output (values, geometry, aliasing); the list's length is the number of outputs.
//   throw RefError{"ZeroDivisionError"};                // PyTorch raises; text is a substring
//
// Thread safety: value types.
#ifndef BACKPLANE_CONFORMANCE_FRAMEWORK_EXPECTED_H_
#define BACKPLANE_CONFORMANCE_FRAMEWORK_EXPECTED_H_

#include <optional>
#include <string>
#include <vector>

#include "conformance/framework/ref_tensor.h"
#include "sdk/dispatch/schema.h"
#include "sdk/dispatch/value.h"

namespace bp::conformance {

struct ExpectedOutput {
  RefTensor value;
  // empty() and friends: only dtype, sizes (and strides when given) are checked.
  bool values_unspecified = false;
  // Exact geometry, where PyTorch defines it (views, factories, layout-preserving copies).
  std::optional<Sizes> strides;
  std::optional<int64_t> storage_offset;
  // The argument this output must be a view of (share storage with), e.g. "self"; empty: the
  // output must not share storage with any input, unless `may_alias`.
  std::string aliases;
  // The output may be an input itself (contiguous() of a contiguous tensor, to() a no-op).
  bool may_alias = false;
  // Every element of the output's whole storage after the call (in its dtype, storage order),
  // elements outside its view included: what an in-place op on a strided view must leave
  // around it. Checked with the output's tolerance; its length must be the storage's.
  std::optional<std::vector<Wide>> storage;
  // Set for a result that is not a tensor (result_type's ScalarType): the value it must equal;
  // the fields above are then unused.
  std::optional<Value> plain;
};

struct Expected {
  std::vector<ExpectedOutput> outputs;

  static ExpectedOutput output(RefTensor value) {
    ExpectedOutput o;
    o.value = std::move(value);
    return o;
  }
  static Expected of(RefTensor value) {
    Expected e;
    e.outputs.push_back(output(std::move(value)));
    return e;
  }
  static Expected of_plain(Value v) {
    ExpectedOutput o;
    o.plain = std::move(v);
    Expected e;
    e.outputs.push_back(std::move(o));
    return e;
  }
  static Expected of(RefTensor a, RefTensor b) {
    Expected e = of(std::move(a));
    e.outputs.push_back(output(std::move(b)));
    return e;
  }
};

// Thrown by a reference when PyTorch raises for the sample; `message` is a substring of the
// error the op must raise.
struct RefError {
  RefError(std::string m) : message(std::move(m)) {}  // NOLINT: throw RefError{"..."}

  std::string message;
  // Set when PyTorch raises only after building the op's output (an argument check that follows
  // TensorIterator's, an error of the kernel itself): the result's sizes and dtype, so that the
  // in-place and out= variants raise their own output errors (shape, cast) first.
  std::optional<Sizes> result_sizes;
  std::optional<ScalarType> result_dtype;
};

// Whether the executor checks a result of schema type `type` that is not a tensor (compared as
// a value: bool, int, float, ScalarType). Results of other types fail a case with "returned a
// value of type ..., which the suite does not check".
inline bool plain_result_checked(const Type& type) {
  if (type.is_list) return false;
  switch (type.kind) {
    case TypeKind::kBool:
    case TypeKind::kInt:
    case TypeKind::kFloat:
    case TypeKind::kScalarType:
      return true;
    default:
      return false;
  }
}

}  // namespace bp::conformance

#endif  // BACKPLANE_CONFORMANCE_FRAMEWORK_EXPECTED_H_
