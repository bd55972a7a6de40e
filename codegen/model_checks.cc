// The rules about one declaration (check_decl): what structured ops, `math`, `scan`,
// `normalize`, `reduce`, delegates, aliases and Scalar overloads may say.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/model.h"
#include "codegen/model_internal.h"

namespace bp::codegen {

using model_internal::check_decl;
using model_internal::fail;
using model_internal::find_argument;
using model_internal::is_dtype_limit;
using model_internal::is_tensor;

namespace model_internal {

const Argument* find_argument(const OpDecl& op, const std::string& name) {
  for (const Argument& a : op.schema.arguments) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace model_internal

namespace {

void check_call_args(const OpDecl& op, const std::string& key, const CallSpec& call) {
  for (const std::string& arg : call.args) {
    if (find_argument(op, arg) == nullptr) {
      fail(op.loc, key + ": '" + arg + "' is not an argument of " + op.name());
    }
  }
}

// The rules of `math:` arguments: numbers (Scalar, int, float, bool) reach the functor in its
// compute type; an optional one says what None means; a str one lists its values. A tensor input
// named `name=bool` is read as bool (where's condition). In an alternative of a `math:` list
// (`in_list`), an optional argument without a None value, and a `Tensor?` (an input), mean that
// the alternative runs only when it is given.
void check_math_args(const OpDecl& op, const CallSpec& math, bool in_list) {
  for (const std::string& name : math.args) {
    const Argument& a = *find_argument(op, name);
    const std::string where = "math: argument '" + name + "' of " + op.name();
    const TypeKind k = a.type.kind;
    if (k == TypeKind::kTensor && !a.type.is_list) {
      const auto values = math.choices.find(name);
      const bool as_bool = values != math.choices.end() && values->second.size() == 1 &&
                           values->second[0] == "bool" && !a.type.optional;
      if (as_bool) continue;
      if (a.type.optional && in_list && math.choices.count(name) == 0 &&
          math.if_none.count(name) == 0) {
        continue;
      }
      fail(op.loc, where + " is a " + to_string(a.type) +
                       "; a functor takes numbers (Scalar, int, float, bool) and str (inputs: " +
                       name + "=bool for a bool input, a Tensor? in an alternative of a list)");
    }
    if (a.type.is_list || !(k == TypeKind::kScalar || k == TypeKind::kInt ||
                            k == TypeKind::kFloat || k == TypeKind::kBool || k == TypeKind::kStr)) {
      fail(op.loc, where + " is a " + to_string(a.type) +
                       "; a functor takes numbers (Scalar, int, float, bool) and str");
    }
    const bool has_none = math.if_none.count(name) != 0;
    if (a.type.optional && !has_none && !in_list) {
      fail(op.loc, where + " may be None: write " + name + "=number, the value None stands for");
    }
    if (!a.type.optional && has_none) {
      fail(op.loc, where + " is not optional: it takes no value for None");
    }
    if ((k == TypeKind::kStr) != (math.choices.count(name) != 0) &&
        !(k == TypeKind::kStr && in_list && a.type.optional && !has_none)) {
      fail(op.loc, k == TypeKind::kStr
                       ? where + " is a str: list its values, " + name + "=first|second"
                       : where + " is not a str: it takes no list of values");
    }
  }
}

// Whether the op's `math:` uses a form only device backends run (a list of alternatives,
// optional tensor inputs, None standing for a dtype's limit): its CPU kernel is then written by
// hand (`dispatch: CPU`), and the declaration describes the op for the devices.
bool math_needs_cpu_kernel(const OpDecl& op) {
  if (!op.math) return false;
  if (!op.math_cases.empty()) return true;
  for (const auto& [name, value] : op.math->if_none) {
    if (is_dtype_limit(value)) return true;
  }
  for (const std::string& name : op.math->args) {
    const Argument* a = find_argument(op, name);
    // A plain `name=bool` input runs on the generic kernel; an optional one selects alternatives.
    if (a != nullptr && a->type.kind == TypeKind::kTensor && a->type.optional) return true;
  }
  return false;
}

void check_math(const OpDecl& op) {
  if (op.math_cases.empty()) {
    check_call_args(op, "math", *op.math);
    check_math_args(op, *op.math, /*in_list=*/false);
  }
  for (const MathCase& c : op.math_cases) {
    check_call_args(op, "math", c.call);
    check_math_args(op, c.call, /*in_list=*/true);
    for (const auto& [name, value] : c.when) {
      const Argument* a = find_argument(op, name);
      if (a == nullptr) fail(op.loc, "math: 'when " + name + "': not an argument of " + op.name());
      if (!value && !a->type.optional) {
        fail(op.loc, "math: 'when " + name + "=None': " + name + " is never None");
      }
      if (value && a->type.kind != TypeKind::kStr) {
        fail(op.loc, "math: 'when " + name + "=" + *value + "': " + name + " is not a str");
      }
    }
    if ((c.dtypes & ~op.dtypes) != 0) {
      fail(op.loc, "math: an alternative's dtypes must be among the op's dtypes");
    }
  }
  if (math_needs_cpu_kernel(op) && op.dispatch.count(DispatchTarget::kCPU) == 0) {
    fail(op.loc,
         "math: a list of alternatives, optional tensor inputs and dtype limits (max, lowest) "
         "are for device backends: name the CPU kernel too ('dispatch: CPU')");
  }
  if (op.divisor) {
    const Argument* d = find_argument(op, *op.divisor);
    const bool input =
        d != nullptr && d->type.kind == TypeKind::kTensor && !d->type.is_list &&
        !d->type.optional &&
        std::find(op.meta->args.begin(), op.meta->args.end(), *op.divisor) != op.meta->args.end();
    if (!input) {
      fail(op.loc, "divisor: '" + *op.divisor + "' is not a tensor input of " + op.name());
    }
  }
}

}  // namespace

namespace model_internal {

bool is_tensor(const Argument& a) { return a.type.kind == TypeKind::kTensor && !a.type.is_list; }

}  // namespace model_internal

namespace {

bool is_number_argument(const Argument& a) {
  if (a.type.is_list) return false;
  const TypeKind k = a.type.kind;
  return k == TypeKind::kScalar || k == TypeKind::kFloat || k == TypeKind::kInt ||
         k == TypeKind::kBool;
}

// What the generic CPU reduction (cpu::reduce, reference_backend/cpu/reductions.h) runs: dims
// from a `dim` argument of type int, int[1] or int[1]? (or none: every dim), and a value output,
// or a value and an index. Other reductions name their CPU kernel (dispatch: CPU).
void check_generic_cpu_reduction(const OpDecl& op) {
  const Argument* dim = find_argument(op, "dim");
  if (dim != nullptr &&
      (dim->type.kind != TypeKind::kInt || (!dim->type.is_list && dim->type.optional))) {
    fail(op.loc,
         "reduce: the generic CPU kernel takes 'int dim', 'int[1] dim' or 'int[1]? dim'; "
         "name a CPU kernel (dispatch: CPU) for " +
             to_string(dim->type));
  }
  const std::vector<ReduceResult>& r = op.reduction->outputs;
  const bool value = r.size() == 1 && r[0] == ReduceResult::kValue;
  const bool value_index =
      r.size() == 2 && r[0] == ReduceResult::kValue && r[1] == ReduceResult::kIndex;
  if (!value && !value_index) {
    fail(op.loc,
         "reduce: the generic CPU kernel writes a value, or a value and an index; name a "
         "CPU kernel (dispatch: CPU) for other outputs");
  }
}

// The rules of `reduce`: a structured out= op over `Tensor self` whose meta function derives from
// MetaBase; arguments that are numbers (an optional one says what None means); `reduce_in` names
// self or an output; one result per output (all values by default).
void check_reduction(OpDecl& op) {
  ReductionSpec& spec = *op.reduction;
  if (!op.structured || op.structured_inherits) {
    fail(op.loc,
         "'reduce' is for structured reductions (structured: True, no "
         "structured_inherits)");
  }
  if (op.scan || op.normalize) {
    fail(op.loc, "'reduce' and 'scan' / 'normalize' each give the CPU kernel; keep one");
  }
  const Argument* self = nullptr;
  for (const Argument& a : op.schema.arguments) {
    if (a.name == "self") self = &a;
  }
  if (self == nullptr || !is_tensor(*self) || self->type.optional) {
    fail(op.loc, "reduce: a reduction needs a 'Tensor self' argument to reduce");
  }
  for (const ReduceArg& arg : spec.args) {
    const Argument* a = nullptr;
    for (const Argument& candidate : op.schema.arguments) {
      if (candidate.name == arg.name) a = &candidate;
    }
    if (a == nullptr) fail(op.loc, "reduce: '" + arg.name + "' is not an argument of " + op.name());
    if (!is_number_argument(*a)) {
      fail(op.loc, "reduce: '" + arg.name + "' is not a number (Scalar, float, int or bool)");
    }
    if (a->type.optional && !arg.if_none) {
      fail(op.loc, "reduce: '" + arg.name + "' may be None; say what None means (" + arg.name +
                       "=<number>)");
    }
    if (!a->type.optional && arg.if_none) {
      fail(op.loc, "reduce: '" + arg.name + "' is never None; remove its '=" + *arg.if_none + "'");
    }
  }
  const std::vector<const Argument*> outs = op.out_arguments();
  bool names_tensor = spec.in == "self";
  for (const Argument* out : outs) names_tensor = names_tensor || out->name == spec.in;
  // Or a ScalarType argument (self's dtype when None): norm(x, dtype=float64) reduces
  // x.to(dtype), whatever its output's dtype (real for a complex dtype).
  const Argument* named = find_argument(op, spec.in);
  const bool names_dtype =
      named != nullptr && named->type.kind == TypeKind::kScalarType && !named->type.is_list;
  if (!names_tensor && !names_dtype) {
    fail(op.loc, "reduce_in: '" + spec.in +
                     "' is neither self, an output nor a ScalarType argument of " + op.name());
  }
  if (spec.outputs.empty()) spec.outputs.assign(outs.size(), ReduceResult::kValue);
  if (spec.outputs.size() != outs.size()) {
    fail(op.loc, "reduce_outputs: " + std::to_string(spec.outputs.size()) + " results for " +
                     std::to_string(outs.size()) + " outputs of " + op.name());
  }
  if (op.dispatch.count(DispatchTarget::kCPU) == 0) check_generic_cpu_reduction(op);
}

// `scan:` and `normalize:` (families along one dim): a structured op that is not a
// TensorIterator op, with arguments `Tensor self` and `int dim` that the family kernel takes.
void check_along_dim(const OpDecl& op, const std::string& key,
                     const std::optional<CallSpec>& call) {
  if (!call) return;
  if (!op.structured) fail(op.loc, "'" + key + "' is only for structured ops");
  if (op.structured_inherits) {
    fail(op.loc, "'" + key +
                     "' ops run along a dim, not over a TensorIterator: remove "
                     "structured_inherits");
  }
  const Argument* self = find_argument(op, "self");
  const Argument* dim = find_argument(op, "dim");
  if (self == nullptr || !is_tensor(*self) || self->type.optional || dim == nullptr ||
      dim->type.kind != TypeKind::kInt || dim->type.is_list || dim->type.optional) {
    fail(op.loc, "'" + key + "' needs arguments 'Tensor self' and 'int dim'");
  }
  const size_t outputs = op.out_arguments().size();
  if (outputs != 1 && !(key == "scan" && outputs == 2)) {
    fail(op.loc, "'" + key + "' ops have one output" +
                     (key == "scan" ? std::string(" (scans: or values and indices)") : ""));
  }
  if (!call->args.empty()) fail(op.loc, "'" + key + "' names a functor without arguments");
}

}  // namespace

namespace model_internal {

// The rules about one declaration.
void check_decl(OpDecl& op) {
  for (const Argument& a : op.schema.arguments) {
    if (a.type.kind == TypeKind::kLayout || a.type.kind == TypeKind::kGenerator) {
      fail(op.loc, "argument '" + a.name + "': " + to_string(a.type) +
                       " is not supported (Backplane tensors are strided and ops take no "
                       "generators)");
    }
  }
  if (op.method_variant) {
    // `self` is the Tensor the method is called on; it need not come first (PyTorch's
    // polygamma(int n, Tensor self) is Tensor.polygamma(n)).
    const Argument* self = find_argument(op, "self");
    if (self == nullptr || !is_tensor(*self) || self->type.optional || self->kwarg_only) {
      fail(op.loc, "a method variant needs a positional argument 'Tensor self'");
    }
  }
  if (op.structured) {
    if (op.kind() != OpKind::kOut) fail(op.loc, "a structured op must be an out= variant");
    for (const Argument* out : op.out_arguments()) {
      if (out->type.is_list) {
        fail(op.loc, "a structured op's outputs are tensors; '" + out->name +
                         "' is a list (declare the op with a dispatch: kernel)");
      }
    }
    if (!op.meta) fail(op.loc, "a structured op needs 'meta: function(args...)'");
    // `reduce` gives the generic CPU kernel unless a hand-written one is named.
    const bool has_cpu = op.dispatch.count(DispatchTarget::kCPU) != 0;
    // `math` beside `dispatch: CPU`: the CPU runs its named kernel, devices the math.
    const int cpu_kernels = (op.math && !has_cpu ? 1 : 0) + (op.scan ? 1 : 0) +
                            (op.normalize ? 1 : 0) + (has_cpu ? 1 : 0);
    if (cpu_kernels == 0 && !op.reduction) {
      fail(op.loc,
           "a structured op needs a CPU kernel: 'math: Functor(...)', 'scan: Ops', "
           "'normalize: Functor', 'reduce: Ops' or 'dispatch: CPU'");
    }
    if (cpu_kernels > 1) {
      fail(op.loc,
           "'math', 'scan', 'normalize' and 'dispatch: CPU' each give the CPU kernel; keep one");
    }
    for (const auto& [target, kernel] : op.dispatch) {
      if (target != DispatchTarget::kCPU) {
        fail(op.loc, std::string("a structured op dispatches to CPU only, not ") +
                         dispatch_target_name(target));
      }
    }
  } else {
    if (op.meta) fail(op.loc, "'meta' is only for structured ops");
    if (op.structured_inherits) fail(op.loc, "'structured_inherits' is only for structured ops");
  }
  if (op.meta) check_call_args(op, "meta", *op.meta);
  if (op.math) {
    if (!op.structured_inherits)
      fail(op.loc, "'math' needs structured_inherits: TensorIteratorBase");
    check_math(op);
  }
  if (op.divisor && !op.math && op.dispatch.count(DispatchTarget::kCPU) == 0) {
    fail(op.loc, "'divisor' is for pointwise structured ops");
  }
  check_along_dim(op, "scan", op.scan);
  check_along_dim(op, "normalize", op.normalize);
  if (op.structured_delegate) {
    if (op.kind() == OpKind::kOut) fail(op.loc, "an out= op cannot have a structured_delegate");
    if (!op.dispatch.empty() || op.structured || op.math || op.scan || op.normalize) {
      fail(op.loc,
           "an op with a structured_delegate takes its kernels from the delegate; remove "
           "dispatch/structured/math/scan/normalize");
    }
  }
  if (op.reduction) check_reduction(op);
  if (op.alias_of && op.scalar_of) fail(op.loc, "an op is an alias_of or a scalar_of, not both");
  for (const auto& [key, target] : {std::pair{"an alias (alias_of)", op.alias_of},
                                    std::pair{"a Scalar overload (scalar_of)", op.scalar_of}}) {
    if (target && (op.structured || op.structured_delegate || !op.dispatch.empty() || op.meta ||
                   op.math || op.reduction || op.scan || op.normalize)) {
      fail(op.loc, std::string(key) + " takes its kernels from " + *target +
                       "; remove structured/dispatch/meta/math/reduce/scan/normalize");
    }
  }
  if (!op.structured && !op.structured_delegate && op.dispatch.empty() && !op.alias_of &&
      !op.scalar_of) {
    fail(op.loc, op.name() +
                     " has no kernel: declare 'structured', 'structured_delegate' or "
                     "'dispatch'");
  }
}

}  // namespace model_internal

}  // namespace bp::codegen
