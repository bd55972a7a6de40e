#include "codegen/model.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "sdk/core/error.h"
#include "yaml-cpp/yaml.h"

namespace bp::codegen {
namespace {

[[noreturn]] void fail(const SourceLocation& loc, const std::string& message) {
  throw CodegenError(loc.str() + ": " + message);
}

SourceLocation location_of(const std::string& file, const YAML::Node& node) {
  return {file, node.Mark().line + 1};
}

std::string trim(std::string s) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

// "a, b ,c" -> {"a", "b", "c"} (empty items dropped).
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// A scalar or a sequence of scalars, as a list of words.
std::vector<std::string> words_of(const YAML::Node& node) {
  if (node.IsSequence()) {
    std::vector<std::string> words;
    for (const YAML::Node& item : node) words.push_back(trim(item.as<std::string>()));
    return words;
  }
  return split_list(node.as<std::string>());
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// "binary_op(self, other)" or "Neg".
CallSpec parse_call(const SourceLocation& loc, const std::string& key, const std::string& text) {
  CallSpec call;
  const size_t open = text.find('(');
  call.function = trim(text.substr(0, open));
  if (open != std::string::npos) {
    const size_t close = text.rfind(')');
    if (close == std::string::npos || close < open || !trim(text.substr(close + 1)).empty()) {
      fail(loc, key + ": expected 'name(arg, ...)' but got '" + text + "'");
    }
    call.args = split_list(text.substr(open + 1, close - open - 1));
  }
  if (!is_identifier(call.function)) {
    fail(loc, key + ": '" + call.function + "' is not a C++ identifier");
  }
  for (const std::string& arg : call.args) {
    if (!is_identifier(arg)) fail(loc, key + ": '" + arg + "' is not an argument name");
  }
  return call;
}

// Whether `text` is a whole number literal ("1", "-0.5", "inf").
bool is_number(const std::string& text) {
  size_t used = 0;
  try {
    (void)std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  return !text.empty() && used == text.size();
}

// What None may stand for besides a number: the largest or lowest finite value of the op's
// dtype (its real part type for complex dtypes; nan_to_num's defaults).
bool is_dtype_limit(const std::string& text) { return text == "max" || text == "lowest"; }

// `math: Functor(arg, arg=number, arg=word|word)`: parse_call, where an argument may say what
// None means (a number) or, for a str argument, the values it may take.
CallSpec parse_math_call(const SourceLocation& loc, const std::string& text) {
  const size_t open = text.find('(');
  const size_t close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return parse_call(loc, "math", text);
  }
  std::vector<std::string> names;
  std::map<std::string, std::string> values;
  for (const std::string& item : split_list(text.substr(open + 1, close - open - 1))) {
    const size_t eq = item.find('=');
    names.push_back(trim(item.substr(0, eq)));
    if (eq != std::string::npos) values[names.back()] = trim(item.substr(eq + 1));
  }
  std::string plain = text.substr(0, open + 1);
  for (size_t i = 0; i < names.size(); ++i) plain += (i ? ", " : "") + names[i];
  CallSpec call = parse_call(loc, "math", plain + text.substr(close));
  for (const auto& [name, value] : values) {
    if (is_number(value) || is_dtype_limit(value)) {
      call.if_none[name] = value;
      continue;
    }
    std::vector<std::string> choices;
    size_t start = 0;
    while (true) {
      const size_t bar = value.find('|', start);
      choices.push_back(trim(value.substr(start, bar - start)));
      if (!is_identifier(choices.back())) {
        fail(loc, "math: '" + value + "' (after " + name +
                      "=) is neither a number (what None means) nor values a|b (of a str)");
      }
      if (bar == std::string::npos) break;
      start = bar + 1;
    }
    call.choices[name] = std::move(choices);
  }
  return call;
}

// One item of a `math:` list: `Functor(args) [when name=value, ...] [dtypes list]`.
MathCase parse_math_case(const SourceLocation& loc, const std::string& text) {
  MathCase c;
  std::string rest = text;
  if (const size_t at = rest.find(" dtypes "); at != std::string::npos) {
    try {
      c.dtypes = parse_dtype_set(rest.substr(at + 8));
    } catch (const std::invalid_argument& e) {
      fail(loc, std::string("math: ") + e.what());
    }
    rest = rest.substr(0, at);
  }
  if (const size_t at = rest.find(" when "); at != std::string::npos) {
    for (const std::string& cond : split_list(rest.substr(at + 6))) {
      const size_t eq = cond.find('=');
      const std::string name = trim(cond.substr(0, eq));
      const std::string value = eq == std::string::npos ? "" : trim(cond.substr(eq + 1));
      if (!is_identifier(name) || !is_identifier(value)) {
        fail(loc,
             "math: expected 'when argument=value' (a str value or None) but got '" + cond + "'");
      }
      c.when.emplace_back(name, value == "None" ? std::nullopt : std::optional(value));
    }
    rest = rest.substr(0, at);
  }
  c.call = parse_math_call(loc, trim(rest));
  return c;
}

const std::set<std::string>& known_tags() {
  static const std::set<std::string> tags = {
      "pointwise",    "reduction", "scan", "normalization",           "view",
      "inplace_view", "factory",   "core", "nondeterministic_seeded",
  };
  return tags;
}

const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> keys = {
      "func",
      "variants",
      "structured",
      "structured_delegate",
      "structured_inherits",
      "dispatch",
      "tags",
      "meta",
      "math",
      "scan",
      "normalize",
      "dtypes",
      "device_check",
      "structured_group",
      "alias_of",
      "scalar_of",
      "inplace",
      "inplace_name",
      "reduce",
      "reduce_in",
      "reduce_outputs",
      "divisor",
      "cpp_name",
  };
  return keys;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

const Argument* find_argument(const OpDecl& op, const std::string& name) {
  for (const Argument& a : op.schema.arguments) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

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

// "name.overload" -> {"name", "overload"}.
std::pair<std::string, std::string> split_op_name(const std::string& name) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return {name, ""};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

bool is_tensor(const Argument& a) { return a.type.kind == TypeKind::kTensor && !a.type.is_list; }

// `variants: function, method` (or a list): whether the op is a function and a method.
std::pair<bool, bool> parse_variants(const SourceLocation& loc, const std::string& key,
                                     const YAML::Node& node) {
  bool function = false, method = false;
  for (const std::string& v : words_of(node)) {
    if (v == "function") {
      function = true;
    } else if (v == "method") {
      method = true;
    } else {
      fail(loc, "unknown " + key + " '" + v + "' (expected function, method)");
    }
  }
  return {function, method};
}

// ---- Reductions: `reduce`, `reduce_in`, `reduce_outputs` ----------------------------------------

// "VarianceOps(correction=1)": the ops struct and its arguments, each optionally `name=number`.
ReductionSpec parse_reduce_call(const SourceLocation& loc, const std::string& text) {
  ReductionSpec spec;
  const size_t open = text.find('(');
  spec.ops = trim(text.substr(0, open));
  if (!is_identifier(spec.ops)) fail(loc, "reduce: '" + spec.ops + "' is not a C++ identifier");
  if (open == std::string::npos) return spec;
  const size_t close = text.rfind(')');
  if (close == std::string::npos || close < open || !trim(text.substr(close + 1)).empty()) {
    fail(loc, "reduce: expected 'Ops(arg, arg=number, ...)' but got '" + text + "'");
  }
  for (const std::string& item : split_list(text.substr(open + 1, close - open - 1))) {
    ReduceArg arg;
    const size_t eq = item.find('=');
    arg.name = trim(item.substr(0, eq));
    if (!is_identifier(arg.name)) fail(loc, "reduce: '" + arg.name + "' is not an argument name");
    if (eq != std::string::npos) {
      const std::string value = trim(item.substr(eq + 1));
      if (!is_number(value)) {
        fail(loc,
             "reduce: '" + value + "' (the value of " + arg.name + " when None) is not a number");
      }
      arg.if_none = value;
    }
    spec.args.push_back(std::move(arg));
  }
  return spec;
}

// The reduction keys of one entry, read into op.reduction (check_reduction applies the rules).
void read_reduction(const YAML::Node& node, const std::string& path, OpDecl& op) {
  const auto at = [&](const char* key) { return location_of(path, node[key]); };
  if (!node["reduce"]) {
    for (const char* key : {"reduce_in", "reduce_outputs"}) {
      if (node[key]) fail(at(key), std::string("'") + key + "' needs 'reduce: Ops(...)'");
    }
    return;
  }
  ReductionSpec spec = parse_reduce_call(at("reduce"), node["reduce"].as<std::string>());
  if (!node["reduce_in"]) {
    fail(at("reduce"),
         "reduce: say whose dtype the elements are reduced in ('reduce_in: self', an output or "
         "a ScalarType argument)");
  }
  spec.in = trim(node["reduce_in"].as<std::string>());
  if (node["reduce_outputs"]) {
    for (const std::string& word : words_of(node["reduce_outputs"])) {
      if (word == "value") {
        spec.outputs.push_back(ReduceResult::kValue);
      } else if (word == "index") {
        spec.outputs.push_back(ReduceResult::kIndex);
      } else {
        fail(at("reduce_outputs"), "reduce_outputs: unknown result '" + word +
                                       "' (expected value or index, one per output)");
      }
    }
  }
  op.reduction = std::move(spec);
}

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

// What one YAML entry says, read into an OpDecl; check_decl applies the rules.
OpDecl read_entry(const YAML::Node& node, const std::string& path, const std::string& family) {
  OpDecl op;
  op.loc = location_of(path, node);
  op.family = family;
  if (!node.IsMap()) fail(op.loc, "expected a mapping with a 'func' key");
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(known_keys().begin(), known_keys().end(), key) == known_keys().end()) {
      fail(location_of(path, entry.first),
           "unknown key '" + key + "' (known keys: " + joined(known_keys()) + ")");
    }
  }
  if (!node["func"]) fail(op.loc, "missing 'func'");
  try {
    op.schema = parse_schema(node["func"].as<std::string>());
  } catch (const Error& e) {
    fail(op.loc, std::string("schema parse error: ") + e.what());
  }
  const auto at = [&](const char* key) { return location_of(path, node[key]); };

  if (node["variants"]) {
    std::tie(op.function_variant, op.method_variant) =
        parse_variants(at("variants"), "variant", node["variants"]);
  }
  if (node["structured"]) op.structured = node["structured"].as<bool>();
  if (node["structured_delegate"]) {
    op.structured_delegate = trim(node["structured_delegate"].as<std::string>());
  }
  if (node["structured_inherits"]) {
    op.structured_inherits = trim(node["structured_inherits"].as<std::string>());
    if (*op.structured_inherits != "TensorIteratorBase") {
      fail(at("structured_inherits"),
           "structured_inherits must be TensorIteratorBase, got '" + *op.structured_inherits + "'");
    }
  }
  if (node["dispatch"]) {
    if (!node["dispatch"].IsMap()) fail(at("dispatch"), "dispatch: expected a mapping");
    for (const auto& entry : node["dispatch"]) {
      const std::string kernel = trim(entry.second.as<std::string>());
      for (const std::string& key : split_list(entry.first.as<std::string>())) {
        DispatchTarget target;
        if (key == "CPU") {
          target = DispatchTarget::kCPU;
        } else if (key == "Meta") {
          target = DispatchTarget::kMeta;
        } else if (key == "CompositeExplicit") {
          target = DispatchTarget::kCompositeExplicit;
        } else if (key == "CompositeImplicit") {
          target = DispatchTarget::kCompositeImplicit;
        } else {
          fail(location_of(path, entry.first),
               "dispatch to an undeclared backend '" + key +
                   "' (known: CPU, Meta, CompositeExplicit, CompositeImplicit; device plugins such "
                   "as "
                   "CUDA register their kernels at run time through the C ABI)");
        }
        if (!is_identifier(kernel)) {
          fail(location_of(path, entry.second), "'" + kernel + "' is not a C++ identifier");
        }
        op.dispatch[target] = kernel;
      }
    }
  }
  if (node["tags"]) {
    for (const std::string& tag : words_of(node["tags"])) {
      if (!known_tags().count(tag)) fail(at("tags"), "unknown tag '" + tag + "'");
      op.tags.push_back(tag);
    }
  }
  if (node["meta"]) op.meta = parse_call(at("meta"), "meta", node["meta"].as<std::string>());
  if (node["math"] && node["math"].IsSequence()) {
    for (const YAML::Node& item : node["math"]) {
      op.math_cases.push_back(parse_math_case(location_of(path, item), item.as<std::string>()));
    }
    if (op.math_cases.empty()) fail(at("math"), "math: an empty list");
    op.math = op.math_cases.front().call;
  } else if (node["math"]) {
    op.math = parse_math_call(at("math"), node["math"].as<std::string>());
  }
  if (node["divisor"]) op.divisor = trim(node["divisor"].as<std::string>());
  if (node["scan"]) op.scan = parse_call(at("scan"), "scan", node["scan"].as<std::string>());
  if (node["normalize"]) {
    op.normalize = parse_call(at("normalize"), "normalize", node["normalize"].as<std::string>());
  }
  read_reduction(node, path, op);
  if (node["dtypes"]) {
    try {
      op.dtypes = parse_dtype_set(node["dtypes"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      fail(at("dtypes"), e.what());
    }
  } else {
    op.dtypes = parse_dtype_set("all");
  }
  if (node["device_check"]) {
    const std::string v = trim(node["device_check"].as<std::string>());
    if (v != "NoCheck" && v != "ExactSame")
      fail(at("device_check"), "expected NoCheck or ExactSame");
    op.device_check = v == "ExactSame";
  }
  for (const char* key : {"alias_of", "scalar_of"}) {
    if (!node[key]) continue;
    const std::string target = trim(node[key].as<std::string>());
    const auto [base, overload] = split_op_name(target);
    if (!is_identifier(base) ||
        (target.find('.') != std::string::npos && !is_identifier(overload))) {
      fail(at(key), std::string(key) + ": '" + target + "' is not an op name");
    }
    (std::string(key) == "alias_of" ? op.alias_of : op.scalar_of) = target;
  }
  if (node["cpp_name"]) {
    const std::string v = trim(node["cpp_name"].as<std::string>());
    if (!is_identifier(v)) fail(at("cpp_name"), "cpp_name: '" + v + "' is not a C++ identifier");
    if (v == op.schema.name) {
      fail(at("cpp_name"), "cpp_name: " + v + " is the op's own name; remove the key");
    }
    op.cpp_name = v;
  }
  return op;
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

// One YAML entry: one op, or the three ops of a `structured_group` entry.
std::vector<OpDecl> parse_entry(const YAML::Node& node, const std::string& path,
                                const std::string& family) {
  OpDecl op = read_entry(node, path, family);
  if (node["structured_group"]) return expand_structured_group(node, path, std::move(op));
  // A Scalar overload's entry stands for a group when it says which in-place variants it has.
  if (node["alias_of"] || (node["scalar_of"] && node["inplace"])) {
    return expand_alias(node, path, std::move(op));
  }
  for (const char* key : {"inplace", "inplace_name"}) {
    if (node[key]) {
      fail(location_of(path, node[key]),
           std::string("'") + key + "' belongs to a 'structured_group' entry");
    }
  }
  check_decl(op);
  return {std::move(op)};
}

}  // namespace

const char* dispatch_target_name(DispatchTarget target) {
  switch (target) {
    case DispatchTarget::kCPU:
      return "CPU";
    case DispatchTarget::kMeta:
      return "Meta";
    case DispatchTarget::kCompositeExplicit:
      return "CompositeExplicit";
    case DispatchTarget::kCompositeImplicit:
      return "CompositeImplicit";
  }
  return "?";
}

OpKind OpDecl::kind() const {
  if (!out_arguments().empty()) return OpKind::kOut;
  const std::string& base = schema.name;
  const bool trailing_underscore = !base.empty() && base.back() == '_';
  if (trailing_underscore && !schema.arguments.empty() && schema.arguments[0].alias &&
      schema.arguments[0].alias->is_write) {
    return OpKind::kInplace;
  }
  return OpKind::kFunctional;
}

bool OpDecl::has_tag(const std::string& tag) const {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

std::vector<const Argument*> OpDecl::out_arguments() const {
  std::vector<const Argument*> outs;
  for (const Argument& a : schema.arguments) {
    // A written Tensor list (`*, Tensor(a!)[] out` of an op returning `()`) is one output
    // holding a tensor per result.
    if (a.kwarg_only && a.alias && a.alias->is_write && a.type.kind == TypeKind::kTensor &&
        !a.type.optional && !a.type.element_optional) {
      outs.push_back(&a);
    }
  }
  return outs;
}

std::vector<const Argument*> OpDecl::non_out_arguments() const {
  std::vector<const Argument*> args;
  const std::vector<const Argument*> outs = out_arguments();
  for (const Argument& a : schema.arguments) {
    if (std::find(outs.begin(), outs.end(), &a) == outs.end()) args.push_back(&a);
  }
  return args;
}

Model::Model(std::vector<OpDecl> ops, std::vector<std::string> families)
    : ops_(std::move(ops)), families_(std::move(families)) {
  for (size_t i = 0; i < ops_.size(); ++i) {
    const OpDecl& op = ops_[i];
    auto [it, inserted] = by_name_.emplace(op.name(), i);
    if (!inserted) {
      fail(op.loc,
           "duplicate op " + op.name() + " (first declared at " + ops_[it->second].loc.str() + ")");
    }
    if (std::find(families_.begin(), families_.end(), op.family) == families_.end()) {
      fail(op.loc, "family '" + op.family + "' is not among the declaration files");
    }
  }
}

const OpDecl* Model::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &ops_[it->second];
}

const OpDecl& Model::op(const std::string& name) const {
  const OpDecl* op = find(name);
  if (op == nullptr) throw CodegenError("no op named " + name);
  return *op;
}

std::vector<const OpDecl*> Model::delegates_of(const OpDecl& structured_op) const {
  std::vector<const OpDecl*> delegates;
  for (const OpDecl& op : ops_) {
    if (op.structured_delegate == structured_op.name()) delegates.push_back(&op);
  }
  return delegates;
}

uint32_t parse_dtype_set(const std::string& text) {
  // Codes as in sdk/core/scalar_type.h.
  static const std::map<std::string, uint32_t> kWords = {
      {"bool", 1u << 0},       {"uint8", 1u << 1},
      {"int8", 1u << 2},       {"int16", 1u << 3},
      {"int32", 1u << 4},      {"int64", 1u << 5},
      {"float16", 1u << 6},    {"bfloat16", 1u << 7},
      {"float32", 1u << 8},    {"float64", 1u << 9},
      {"complex64", 1u << 10}, {"complex128", 1u << 11},
      {"integral", 0x3Eu},     {"reduced_floating", 0xC0u},
      {"floating", 0x3C0u},    {"complex", 0xC00u},
      {"all", 0xFFFu},
  };
  uint32_t mask = 0;
  for (const std::string& word : split_list(text)) {
    auto it = kWords.find(word);
    if (it == kWords.end()) {
      throw std::invalid_argument("unknown dtype or dtype group '" + word +
                                  "' (groups: all, integral, floating, reduced_floating, complex)");
    }
    mask |= it->second;
  }
  if (mask == 0) throw std::invalid_argument("empty dtype set");
  return mask;
}

std::vector<OpDecl> parse_declarations(const std::string& text, const std::string& path) {
  const std::string family = std::filesystem::path(path).stem().string();
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw CodegenError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsSequence()) throw CodegenError(path + ":1: expected a list of declarations");
  std::vector<OpDecl> ops;
  for (const YAML::Node& node : root) {
    try {
      for (OpDecl& op : parse_entry(node, path, family)) ops.push_back(std::move(op));
    } catch (const YAML::Exception& e) {
      throw CodegenError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
  }
  return ops;
}

namespace {

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

Model load_model(const std::vector<std::string>& yaml_paths) {
  std::vector<OpDecl> all;
  std::vector<std::string> families;
  for (const std::string& path : yaml_paths) {
    families.push_back(std::filesystem::path(path).stem().string());
    std::ifstream in(path);
    if (!in) throw CodegenError(path + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    std::vector<OpDecl> ops = parse_declarations(text.str(), path);
    all.insert(all.end(), std::make_move_iterator(ops.begin()), std::make_move_iterator(ops.end()));
  }
  Model model(std::move(all), std::move(families));
  validate(model);
  return model;
}

}  // namespace bp::codegen
