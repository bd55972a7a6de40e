// The typed model of op declarations: what sdk/ops/*.yaml says, parsed and validated.
//
//   Model model = load_model({"sdk/ops/binary.yaml", "sdk/ops/unary.yaml"});
//   const OpDecl& add = model.op("add.out");
//   add.structured;                  // true
//   add.meta->function;              // "add_op"
//   model.delegates_of(add);         // add.Tensor, add_.Tensor
//
// A `structured_group` entry (one YAML entry for a pointwise op's functional, in-place and out=
// declarations) is expanded here into the three OpDecls it stands for, exactly as if they had
// been written out; the rest of the codegen never sees the difference.
//
// Every declaration keeps the file and line it came from (the three ops of a structured_group
// entry all point at the entry); every error is a CodegenError whose message starts with
// "file:line: ". The format is documented in docs/op_declarations.md.
//
// Thread safety: a Model is immutable once loaded.
#ifndef BACKPLANE_CODEGEN_MODEL_H_
#define BACKPLANE_CODEGEN_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sdk/dispatch/schema.h"

namespace bp::codegen {

// A declaration error; what() is "file:line: message".
class CodegenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SourceLocation {
  std::string file;
  int line = 0;
  std::string str() const { return file + ":" + std::to_string(line); }
};

// A call written in a declaration, e.g. `meta: binary_op(self, other)`: a function name and the
// names of the op arguments passed to it, in order.
struct CallSpec {
  std::string function;
  std::vector<std::string> args;
  // `math:` only. What None means for an optional argument, as a number: `Logit(eps=-1)`.
  std::map<std::string, std::string> if_none;
  // `math:` only. The values a str argument may take: `Gelu(approximate=none|tanh)`; the functor
  // receives the index of the given one (0 for none, 1 for tanh).
  std::map<std::string, std::vector<std::string>> choices;
};

// One alternative of a `math:` list: the functor that computes the op when its conditions hold
// (see docs/op_declarations.md, "Math chosen by the arguments").
//
//   math:
//     - Div when rounding_mode=None
//     - DivTrunc when rounding_mode=trunc dtypes integral, floating
struct MathCase {
  CallSpec call;
  // Argument name -> the value it must have: a str value ("trunc"), or nullopt for None.
  std::vector<std::pair<std::string, std::optional<std::string>>> when;
  uint32_t dtypes = 0;  // the common dtypes this alternative supports; 0: the op's
};

// `reduce: Ops(arg, arg=default)` with `reduce_in` and `reduce_outputs` on a structured reduction's
// out= op: the reduction as data, for backends that run every reduction through one kernel
// template (the CUDA plugin). See docs/op_declarations.md.
enum class ReduceResult { kValue = 0, kIndex = 1 };  // numbers written into generated tables

struct ReduceArg {
  std::string name;                    // an op argument ("correction")
  std::optional<std::string> if_none;  // what None means, as a number ("1"): optional arguments
};

struct ReductionSpec {
  std::string ops;                    // "VarianceOps": bp::math::VarianceOps<T>
  std::vector<ReduceArg> args;        // the op arguments the ops struct takes, in order
  std::string in;                     // "self" or an output: whose dtype elements are reduced in
  std::vector<ReduceResult> outputs;  // what each out= argument receives, in order
};

// How an op relates to its structured group (PyTorch's SchemaKind).
enum class OpKind { kFunctional, kInplace, kOut };

// The dispatch keys a declaration may name under `dispatch:`.
enum class DispatchTarget { kCPU, kMeta, kCompositeExplicit, kCompositeImplicit };
const char* dispatch_target_name(DispatchTarget target);

struct OpDecl {
  SourceLocation loc;
  std::string family;  // the YAML file's stem: "binary" for sdk/ops/binary.yaml
  FunctionSchema schema;
  bool function_variant = true;
  bool method_variant = false;
  bool structured = false;
  std::optional<std::string> structured_delegate;  // "add.out"
  std::optional<std::string> structured_inherits;  // "TensorIteratorBase"
  std::map<DispatchTarget, std::string> dispatch;  // key -> kernel function name
  std::vector<std::string> tags;
  std::optional<CallSpec> meta;  // structured ops: the meta function and its arguments
  std::optional<CallSpec> math;  // pointwise structured ops: the scalar math functor
  // `math:` given as a list of alternatives (the first whose conditions hold and whose optional
  // arguments are given computes the op); `math` is then the first one's call. Empty for the
  // one-functor form.
  std::vector<MathCase> math_cases;
  // `divisor: other`: the tensor input the op divides by. When the common dtype is an integer
  // type, a zero in it raises "ZeroDivisionError" before anything is written, on every backend.
  std::optional<std::string> divisor;
  std::optional<ReductionSpec> reduction;  // structured reductions: `reduce:`
  // Structured ops along one dim (arguments `self` and `dim`; one output, or a scan's values and
  // indices): the scan's reduction ops struct (reference_backend/math/reduction.h, scan.h) or the
  // normalisation's functor (normalization.h).
  std::optional<CallSpec> scan;
  std::optional<CallSpec> normalize;
  uint32_t dtypes = 0;  // bit i: ScalarType code i is supported
  bool device_check = true;
  // `alias_of: acos` (arccos and its in-place and out= ops): the functional op this op's group
  // aliases. Each op of the group has one kernel, CompositeImplicit, calling the target's op of
  // the same kind (alias_target).
  std::optional<std::string> alias_of;
  // `scalar_of: eq.Tensor` (eq.Scalar, and eq_.Scalar and eq.Scalar_out when the entry stands
  // for a group): the functional overload this Scalar overload wraps. The op has one kernel,
  // CompositeImplicit, calling the target's op of the same kind (scalar_target) with each Scalar
  // argument the target takes as a Tensor passed as a wrapped zero-dim tensor (promoting as a
  // number does).
  std::optional<std::string> scalar_of;
  // `cpp_name: make_complex`: the C++ API's name for the op where its own would clash with a
  // name of namespace bp (`complex`, the op, against the element type bp::complex<T>). The
  // in-place and out= ops of the entry follow it (make_complex_, make_complex_out). Nothing
  // else changes: the dispatcher, the C ABI and case files use the op's name.
  std::optional<std::string> cpp_name;

  // "add.out", "add_.Tensor", "empty.memory_format".
  std::string name() const { return schema.operator_name(); }
  OpKind kind() const;
  bool has_tag(const std::string& tag) const;
  // The arguments annotated `(a!)` that are kwarg-only: the outputs of an out= op.
  std::vector<const Argument*> out_arguments() const;
  // The arguments other than out_arguments(), in order.
  std::vector<const Argument*> non_out_arguments() const;
};

class Model;
// The op an alias (`alias_of`) calls: the target's functional, in-place or out= op, as `op` is.
// Throws CodegenError (file:line) when the target has no such op.
const OpDecl& alias_target(const Model& model, const OpDecl& op);
// The op a Scalar overload (`scalar_of`) calls: the target's op of the same kind. Throws
// CodegenError (file:line) when the target has no such op.
const OpDecl& scalar_target(const Model& model, const OpDecl& op);
// For a Scalar overload: whether its argument `name` is a Scalar the target takes as a Tensor.
bool wraps_scalar(const OpDecl& op, const OpDecl& target, const std::string& name);

// The tensor inputs of a `math:` functor (`math` is the op's or one of its alternatives): the
// Tensor arguments its meta function receives, in that order (the order it adds them to the
// TensorIterator): the plain ones and the optional ones `math` names (it runs when they are
// given). Names of op arguments.
std::vector<std::string> math_tensor_inputs(const OpDecl& op, const CallSpec& math);
// Bit i set: tensor input i of math_tensor_inputs is named `name=bool`, read as bool whatever the
// common dtype (non-zero); functors receive it as 0 / 1 of their compute type.
uint32_t math_bool_inputs(const OpDecl& op, const CallSpec& math);

class Model {
 public:
  // `families`: the YAML files' stems, in order (a family may have no ops yet).
  Model(std::vector<OpDecl> ops, std::vector<std::string> families);

  const std::vector<OpDecl>& ops() const { return ops_; }
  // The op named "name.overload". Throws CodegenError when absent.
  const OpDecl& op(const std::string& name) const;
  const OpDecl* find(const std::string& name) const;
  // For a structured op: its delegates (functional and in-place variants, in declaration
  // order); for others: empty.
  std::vector<const OpDecl*> delegates_of(const OpDecl& structured_op) const;
  // The YAML families, in the order of the files given to load_model.
  const std::vector<std::string>& families() const { return families_; }

 private:
  std::vector<OpDecl> ops_;
  std::map<std::string, size_t> by_name_;
  std::vector<std::string> families_;
};

// Parses and validates the declaration files (see docs/op_declarations.md for the rules).
// Throws CodegenError naming file:line for the first problem found.
Model load_model(const std::vector<std::string>& yaml_paths);

// Parses the text of one declaration file; `path` names it in errors and gives the family.
std::vector<OpDecl> parse_declarations(const std::string& text, const std::string& path);

// Checks the rules that involve several declarations (delegates, duplicates, kernels).
void validate(const Model& model);

// The mask of a `dtypes:` value: comma-separated dtype names ("float32") and groups ("all",
// "floating", "integral", "complex", "bool", "reduced_floating"). Throws std::invalid_argument
// naming the unknown word.
uint32_t parse_dtype_set(const std::string& text);

}  // namespace bp::codegen

#endif  // BACKPLANE_CODEGEN_MODEL_H_
