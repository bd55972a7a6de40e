// Helpers the model library's files share (model.cc, model_text.cc, model_checks.cc,
// model_validate.cc, model_groups.cc); not part of its interface (model.h), and not for the
// emitters. Errors: every function that rejects a declaration throws CodegenError ("file:line:
// message", through fail).
#ifndef BACKPLANE_CODEGEN_MODEL_INTERNAL_H_
#define BACKPLANE_CODEGEN_MODEL_INTERNAL_H_

#include <string>
#include <utility>
#include <vector>

#include "codegen/model.h"
#include "yaml-cpp/yaml.h"

namespace bp::codegen::model_internal {

// Throws CodegenError("file:line: message").
[[noreturn]] void fail(const SourceLocation& loc, const std::string& message);

// ---- The small languages inside values (model_text.cc) --------------------------------------

// `s` without leading and trailing white space.
std::string trim(std::string s);
// "a, b ,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> split_list(const std::string& text);
bool is_identifier(const std::string& s);
// What None may stand for besides a number: the largest or lowest finite value of the op's
// dtype (its real part type for complex dtypes; nan_to_num's defaults).
bool is_dtype_limit(const std::string& text);
// "binary_op(self, other)" or "Neg", the value of `key`.
CallSpec parse_call(const SourceLocation& loc, const std::string& key, const std::string& text);
// `math: Functor(arg, arg=number, arg=word|word)`: parse_call, where an argument may say what
// None means (a number) or, for a str argument, the values it may take.
CallSpec parse_math_call(const SourceLocation& loc, const std::string& text);
// One item of a `math:` list: `Functor(args) [when name=value, ...] [dtypes list]`.
MathCase parse_math_case(const SourceLocation& loc, const std::string& text);
// "VarianceOps(correction=1)": the ops struct and its arguments, each optionally `name=number`.
ReductionSpec parse_reduce_call(const SourceLocation& loc, const std::string& text);
// "name.overload" -> {"name", "overload"}.
std::pair<std::string, std::string> split_op_name(const std::string& name);

// ---- YAML nodes (model.cc) ------------------------------------------------------------------

// Where `node` is: `file` and its line.
SourceLocation location_of(const std::string& file, const YAML::Node& node);
// A scalar or a sequence of scalars, as a list of words.
std::vector<std::string> words_of(const YAML::Node& node);
// `variants: function, method` (or a list): whether the op is a function and a method.
std::pair<bool, bool> parse_variants(const SourceLocation& loc, const std::string& key,
                                     const YAML::Node& node);

// ---- Rules (model_checks.cc) ----------------------------------------------------------------

// The argument of `op` named `name`, or null.
const Argument* find_argument(const OpDecl& op, const std::string& name);
// Whether `a` is a Tensor (not a list of them).
bool is_tensor(const Argument& a);
// The rules about one declaration.
void check_decl(OpDecl& op);

// ---- Entries that stand for several ops (model_groups.cc) ----------------------------------

// `structured_group: True` on a functional op's entry: the entry stands for the group's three
// declarations, written out as in PyTorch (docs/op_declarations.md):
//   hypot(Tensor self, Tensor other) -> Tensor                         structured_delegate
//   hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)                structured_delegate
//   hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)   structured
// `spec` holds what the entry says, read as if it declared the functional op.
std::vector<OpDecl> expand_structured_group(const YAML::Node& node, const std::string& path,
                                            OpDecl spec);
// `alias_of: acos` on a functional op's entry (arccos), or `scalar_of: eq.Tensor` on one with
// `inplace:` (eq.Scalar): the functional op, its in-place op (`inplace:` as for a structured
// group) and its out= op, named by the structured_group rule; each calls the target's op of the
// same kind (alias_target / scalar_target, checked by validate).
std::vector<OpDecl> expand_alias(const YAML::Node& node, const std::string& path, OpDecl spec);

}  // namespace bp::codegen::model_internal

#endif  // BACKPLANE_CODEGEN_MODEL_INTERNAL_H_
