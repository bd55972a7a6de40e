// Entries that stand for several ops: a `structured_group` (functional, in-place and out= ops)
// and an `alias_of` / `scalar_of` group, expanded into the declarations they stand for.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "codegen/model.h"
#include "codegen/model_internal.h"

namespace bp::codegen {

using model_internal::check_decl;
using model_internal::expand_alias;
using model_internal::expand_structured_group;
using model_internal::fail;
using model_internal::is_identifier;
using model_internal::is_tensor;
using model_internal::location_of;
using model_internal::parse_variants;
using model_internal::split_op_name;
using model_internal::trim;

namespace {

// `Tensor(a!)`: the written self of an in-place op, the out argument and return of an out= op.
AliasInfo written() { return AliasInfo{"a", true}; }

bool is_true(const std::string& v) { return v == "True" || v == "true"; }

bool is_false(const std::string& v) { return v == "False" || v == "false"; }

std::vector<std::string> without_core(std::vector<std::string> tags) {
  tags.erase(std::remove(tags.begin(), tags.end(), "core"), tags.end());
  return tags;
}

// The out= op `name` of functional op `spec`: `*, Tensor(a!) out` after its arguments, returning
// it; a function, not a method; no `core` tag.
OpDecl out_variant(const OpDecl& spec, const std::string& name) {
  OpDecl out = spec;
  std::tie(out.schema.name, out.schema.overload_name) = split_op_name(name);
  Argument out_arg;
  out_arg.name = "out";
  out_arg.kwarg_only = true;
  out_arg.alias = written();
  out.schema.arguments.push_back(out_arg);
  out.schema.returns[0].alias = written();
  out.function_variant = true;
  out.method_variant = false;
  out.tags = without_core(spec.tags);
  return out;
}

}  // namespace

namespace model_internal {

// `structured_group: True` on a functional op's entry: the entry stands for the group's three
// declarations, written out as in PyTorch (docs/op_declarations.md):
//   hypot(Tensor self, Tensor other) -> Tensor                         structured_delegate
//   hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)                structured_delegate
//   hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)   structured
// `spec` holds what the entry says, read as if it declared the functional op.
std::vector<OpDecl> expand_structured_group(const YAML::Node& node, const std::string& path,
                                            OpDecl spec) {
  const auto at = [&](const char* key) { return location_of(path, node[key]); };
  for (const char* key : {"structured", "structured_delegate", "structured_inherits"}) {
    if (node[key]) {
      fail(at(key), std::string("'") + key +
                        "' is implied by 'structured_group' (the out= op is structured, and "
                        "inherits TensorIteratorBase unless it has 'scan' or 'normalize'; the "
                        "others delegate to it)");
    }
  }
  const FunctionSchema& f = spec.schema;
  const std::string name = spec.name();
  if (spec.kind() != OpKind::kFunctional) {
    fail(spec.loc, "structured_group: " + name +
                       " is not a functional op; declare the group by its functional schema, "
                       "e.g. 'hypot(Tensor self, Tensor other) -> Tensor'");
  }
  for (const Argument& a : f.arguments) {
    if (a.alias) {
      fail(spec.loc, "structured_group: argument '" + a.name + "' of " + name +
                         " has an alias annotation; a functional op takes none");
    }
    if (a.name == "out") {
      fail(spec.loc, "structured_group: " + name +
                         " has an argument named 'out', the name of the out= op's output");
    }
  }
  if (f.is_vararg || f.is_varret || f.returns.size() != 1 || !is_tensor(f.returns[0]) ||
      f.returns[0].type.optional || f.returns[0].alias) {
    fail(spec.loc, "structured_group: " + name + " must return one Tensor");
  }

  // The out= op's name: PyTorch's rule, or the name given where PyTorch departs from it
  // (add.Tensor's out= op is add.out).
  const std::string rule_out =
      f.name + "." + (f.overload_name.empty() ? "out" : f.overload_name + "_out");
  std::string out_name = rule_out;
  {
    const std::string v = trim(node["structured_group"].as<std::string>());
    if (!is_true(v)) {
      const auto [base, overload] = split_op_name(v);
      if (base != f.name || !is_identifier(overload)) {
        fail(at("structured_group"), "structured_group: expected True or the out= op's name (" +
                                         f.name + ".<overload>), got '" + v + "'");
      }
      if (v == rule_out) {
        fail(at("structured_group"),
             "structured_group: " + v + " is the name True gives; write 'structured_group: True'");
      }
      out_name = v;
    }
  }

  // The in-place op: its variants, or none.
  if (!node["inplace"]) {
    fail(spec.loc, "structured_group: say which variants " + f.name +
                       "_ has ('inplace: method', 'inplace: function, method') or "
                       "'inplace: False' when there is no in-place op");
  }
  bool has_inplace = true;
  bool inplace_function = false, inplace_method = false;
  if (node["inplace"].IsScalar() && is_false(trim(node["inplace"].as<std::string>()))) {
    has_inplace = false;
  } else {
    std::tie(inplace_function, inplace_method) =
        parse_variants(at("inplace"), "inplace variant", node["inplace"]);
    if (!inplace_function && !inplace_method) {
      fail(at("inplace"), "inplace: expected function, method or False");
    }
  }
  const std::string rule_inplace =
      f.name + "_" + (f.overload_name.empty() ? "" : "." + f.overload_name);
  std::string inplace_name = rule_inplace;
  if (node["inplace_name"]) {
    const std::string v = trim(node["inplace_name"].as<std::string>());
    if (!has_inplace)
      fail(at("inplace_name"), "inplace_name: there is no in-place op (inplace: False)");
    const auto [base, overload] = split_op_name(v);
    if (base != f.name + "_" || (v.find('.') != std::string::npos && !is_identifier(overload))) {
      fail(at("inplace_name"),
           "inplace_name: expected " + f.name + "_.<overload>, got '" + v + "'");
    }
    if (v == rule_inplace) {
      fail(at("inplace_name"),
           "inplace_name: " + v + " is the name the rule gives; remove the key");
    }
    inplace_name = v;
  }
  if (has_inplace && (f.arguments.empty() || f.arguments[0].name != "self" ||
                      !is_tensor(f.arguments[0]) || f.arguments[0].type.optional)) {
    fail(at("inplace"),
         "an in-place op needs a first argument 'Tensor self' (or 'inplace: False')");
  }

  // The functional and in-place ops delegate; the kernels, meta function and dtypes are the
  // out= op's.
  OpDecl functional = spec;
  functional.structured_delegate = out_name;
  functional.meta.reset();
  functional.math.reset();
  functional.math_cases.clear();
  functional.divisor.reset();
  functional.scan.reset();
  functional.normalize.reset();
  functional.reduction.reset();
  functional.dispatch.clear();
  functional.dtypes = parse_dtype_set("all");  // what a declaration without `dtypes` gets

  OpDecl out = out_variant(spec, out_name);
  out.structured = true;
  // Ops along a dim do not run over a TensorIterator.
  if (!spec.scan && !spec.normalize) out.structured_inherits = "TensorIteratorBase";

  std::vector<OpDecl> ops = {functional};
  if (has_inplace) {
    OpDecl inplace = functional;
    std::tie(inplace.schema.name, inplace.schema.overload_name) = split_op_name(inplace_name);
    inplace.schema.arguments[0].alias = written();
    inplace.schema.returns[0].alias = written();
    inplace.function_variant = inplace_function;
    inplace.method_variant = inplace_method;
    inplace.tags = without_core(spec.tags);
    ops.push_back(std::move(inplace));
  }
  ops.push_back(std::move(out));
  for (OpDecl& op : ops) check_decl(op);
  return ops;
}

// `alias_of: acos` on a functional op's entry (arccos), or `scalar_of: eq.Tensor` on one with
// `inplace:` (eq.Scalar): the functional op, its in-place op (`inplace:` as for a structured
// group) and its out= op, named by the structured_group rule; each calls the target's op of the
// same kind (alias_target / scalar_target, checked by validate).
std::vector<OpDecl> expand_alias(const YAML::Node& node, const std::string& path, OpDecl spec) {
  const auto at = [&](const char* key) { return location_of(path, node[key]); };
  const FunctionSchema& f = spec.schema;
  const std::string key = spec.alias_of ? "alias_of" : "scalar_of";
  if (spec.kind() != OpKind::kFunctional || f.returns.size() != 1 || !is_tensor(f.returns[0])) {
    fail(spec.loc, key + ": " + spec.name() + " is not a functional op returning one Tensor");
  }
  if (!node["inplace"]) {
    fail(spec.loc,
         key + ": say which variants " + f.name +
             "_ has ('inplace: method', 'inplace: function, method') or 'inplace: False'");
  }
  if (node["inplace_name"])
    fail(at("inplace_name"), "inplace_name: " + key + " groups follow the rule");
  std::vector<OpDecl> ops = {spec};
  if (!(node["inplace"].IsScalar() && is_false(trim(node["inplace"].as<std::string>())))) {
    // As for a structured group: the in-place op writes its first argument.
    if (f.arguments.empty() || f.arguments[0].name != "self" || !is_tensor(f.arguments[0]) ||
        f.arguments[0].type.optional) {
      fail(at("inplace"),
           "an in-place op needs a first argument 'Tensor self' (or 'inplace: False')");
    }
    OpDecl inplace = spec;
    std::tie(inplace.function_variant, inplace.method_variant) =
        parse_variants(at("inplace"), "inplace variant", node["inplace"]);
    inplace.schema.name = f.name + "_";
    inplace.schema.arguments[0].alias = written();
    inplace.schema.returns[0].alias = written();
    inplace.tags = without_core(spec.tags);
    ops.push_back(std::move(inplace));
  }
  ops.push_back(out_variant(
      spec, f.name + "." + (f.overload_name.empty() ? "out" : f.overload_name + "_out")));
  for (OpDecl& op : ops) check_decl(op);
  return ops;
}

}  // namespace model_internal

}  // namespace bp::codegen
