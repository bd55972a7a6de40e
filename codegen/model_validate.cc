// The rules across declarations (validate): delegates, aliases and Scalar overloads name declared
// ops with matching arguments, and every declaration of a reduction's ops struct agrees; and the
// emitters' questions about them (alias_target, math_tensor_inputs, ...).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "codegen/model.h"
#include "codegen/model_internal.h"

namespace bp::codegen {

using model_internal::fail;
using model_internal::find_argument;

namespace {

// An ops struct is one aggregate: every declaration naming it passes the same number of
// arguments (backends name its kernels after the struct alone).
void check_reductions_agree(const Model& model) {
  std::map<std::string, const OpDecl*> first;
  for (const OpDecl& op : model.ops()) {
    if (!op.reduction) continue;
    const auto [it, inserted] = first.emplace(op.reduction->ops, &op);
    const ReductionSpec& earlier = *it->second->reduction;
    if (!inserted && earlier.args.size() != op.reduction->args.size()) {
      fail(op.loc, "reduce: " + op.reduction->ops + " takes " +
                       std::to_string(earlier.args.size()) + " arguments at " +
                       it->second->loc.str() + ", " + std::to_string(op.reduction->args.size()) +
                       " here");
    }
  }
}

// The op of `op`'s kind in the group of functional op `of` (named by `key`).
const OpDecl& same_kind_target(const Model& model, const OpDecl& op, const std::string& of,
                               const std::string& key) {
  const OpDecl* functional = model.find(of);
  if (functional == nullptr || functional->kind() != OpKind::kFunctional) {
    fail(op.loc, key + ": " + of + " is not a declared functional op");
  }
  const FunctionSchema& t = functional->schema;
  std::string name = functional->name();
  if (op.kind() == OpKind::kInplace) {
    name = t.name + "_" + (t.overload_name.empty() ? "" : "." + t.overload_name);
  } else if (op.kind() == OpKind::kOut) {
    name = functional->structured_delegate.value_or(
        t.name + "." + (t.overload_name.empty() ? "out" : t.overload_name + "_out"));
  }
  const OpDecl* target = model.find(name);
  if (target == nullptr) {
    fail(op.loc, key + ": " + op.name() + " would call " + name + ", which is not declared");
  }
  return *target;
}

const Argument* argument_named(const FunctionSchema& schema, const std::string& name) {
  for (const Argument& a : schema.arguments) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

bool is_scalar_type(const Argument& a) {
  return a.type.kind == TypeKind::kScalar && !a.type.optional && !a.type.is_list;
}

// A Scalar overload takes its target's arguments by name (in any order), each of the same type
// or a Scalar for a Tensor; at least one is such a Scalar.
void check_scalar_overload(const Model& model, const OpDecl& op) {
  const OpDecl& target = scalar_target(model, op);
  const std::vector<Argument>& a = op.schema.arguments;
  const std::vector<Argument>& b = target.schema.arguments;
  bool wraps = false;
  bool same = a.size() == b.size();
  for (const Argument& arg : b) {
    const Argument* mine = argument_named(op.schema, arg.name);
    if (mine == nullptr) {
      same = false;
      break;
    }
    if (wraps_scalar(op, target, arg.name)) {
      wraps = true;
    } else if (!(mine->type == arg.type)) {
      same = false;
    }
  }
  if (!same || !wraps) {
    fail(op.loc, "scalar_of: the arguments of " + op.name() + " must be those of " + target.name() +
                     " (by name), with at least one Scalar for a Tensor");
  }
}

}  // namespace

const OpDecl& alias_target(const Model& model, const OpDecl& op) {
  return same_kind_target(model, op, *op.alias_of, "alias_of");
}

const OpDecl& scalar_target(const Model& model, const OpDecl& op) {
  return same_kind_target(model, op, *op.scalar_of, "scalar_of");
}

bool wraps_scalar(const OpDecl& op, const OpDecl& target, const std::string& name) {
  const Argument* mine = argument_named(op.schema, name);
  const Argument* theirs = argument_named(target.schema, name);
  return mine != nullptr && theirs != nullptr && is_scalar_type(*mine) &&
         theirs->type.kind == TypeKind::kTensor && !theirs->type.optional && !theirs->type.is_list;
}

std::vector<std::string> math_tensor_inputs(const OpDecl& op, const CallSpec& math) {
  std::vector<std::string> inputs;
  if (!op.meta) return inputs;
  for (const std::string& name : op.meta->args) {
    const Argument* a = find_argument(op, name);
    if (a == nullptr || a->type.kind != TypeKind::kTensor || a->type.is_list) continue;
    const bool named = std::find(math.args.begin(), math.args.end(), name) != math.args.end();
    if (!a->type.optional || named) inputs.push_back(name);
  }
  return inputs;
}

uint32_t math_bool_inputs(const OpDecl& op, const CallSpec& math) {
  uint32_t bits = 0;
  const std::vector<std::string> inputs = math_tensor_inputs(op, math);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (math.choices.count(inputs[i]) != 0) bits |= 1u << i;  // `name=bool`
  }
  return bits;
}

void validate(const Model& model) {
  check_reductions_agree(model);
  for (const OpDecl& op : model.ops()) {
    if (op.scalar_of) check_scalar_overload(model, op);
    if (!op.alias_of) continue;
    // The alias passes its arguments on as they are: the same names and types, in order.
    const OpDecl& target = alias_target(model, op);
    const std::vector<Argument>& a = op.schema.arguments;
    const std::vector<Argument>& b = target.schema.arguments;
    bool same = a.size() == b.size();
    for (size_t i = 0; same && i < a.size(); ++i)
      same = a[i].name == b[i].name && a[i].type == b[i].type;
    if (!same) fail(op.loc, "the arguments of " + op.name() + " must be those of " + target.name());
  }
  for (const OpDecl& op : model.ops()) {
    if (!op.structured_delegate) continue;
    const OpDecl* target = model.find(*op.structured_delegate);
    if (target == nullptr) {
      fail(op.loc, "structured_delegate " + *op.structured_delegate + " is not declared");
    }
    if (!target->structured) {
      fail(op.loc, "structured_delegate " + *op.structured_delegate + " is not structured");
    }
    // The delegate's meta and impl take the structured op's non-out arguments.
    std::vector<const Argument*> expected = target->non_out_arguments();
    const std::vector<Argument>& got = op.schema.arguments;
    bool same = expected.size() == got.size();
    for (size_t i = 0; same && i < got.size(); ++i) {
      same = expected[i]->name == got[i].name && expected[i]->type == got[i].type;
    }
    if (!same) {
      fail(op.loc, "the arguments of " + op.name() + " must be those of " + target->name() +
                       " without its outputs");
    }
  }
}

}  // namespace bp::codegen
