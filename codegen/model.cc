// Reading the YAML declarations into OpDecls (each entry's keys), the Model, and load_model.
#include "codegen/model.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "codegen/model_internal.h"
#include "sdk/core/error.h"

namespace bp::codegen {

using model_internal::check_decl;
using model_internal::expand_alias;
using model_internal::expand_structured_group;
using model_internal::fail;
using model_internal::is_identifier;
using model_internal::location_of;
using model_internal::parse_call;
using model_internal::parse_math_call;
using model_internal::parse_math_case;
using model_internal::parse_reduce_call;
using model_internal::parse_variants;
using model_internal::split_list;
using model_internal::split_op_name;
using model_internal::trim;
using model_internal::words_of;

namespace model_internal {

SourceLocation location_of(const std::string& file, const YAML::Node& node) {
  return {file, node.Mark().line + 1};
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

}  // namespace model_internal

namespace {

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

}  // namespace

namespace model_internal {

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

}  // namespace model_internal

namespace {

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
