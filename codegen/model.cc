#include "codegen/model.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

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

const std::set<std::string>& known_tags() {
  static const std::set<std::string> tags = {
      "pointwise",
      "reduction",
      "view",
      "inplace_view",
      "factory",
      "core",
      "nondeterministic_seeded",
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
      "dtypes",
      "device_check",
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

bool is_tensor(const Argument& a) { return a.type.kind == TypeKind::kTensor && !a.type.is_list; }

OpDecl parse_one(const YAML::Node& node, const std::string& path, const std::string& family) {
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
    op.function_variant = op.method_variant = false;
    for (const std::string& v : words_of(node["variants"])) {
      if (v == "function") {
        op.function_variant = true;
      } else if (v == "method") {
        op.method_variant = true;
      } else {
        fail(at("variants"), "unknown variant '" + v + "' (expected function, method)");
      }
    }
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
  if (node["math"]) op.math = parse_call(at("math"), "math", node["math"].as<std::string>());
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

  // Rules about one declaration.
  for (const Argument& a : op.schema.arguments) {
    if (a.type.kind == TypeKind::kLayout || a.type.kind == TypeKind::kGenerator) {
      fail(op.loc, "argument '" + a.name + "': " + to_string(a.type) +
                       " is not supported (Backplane tensors are strided and ops take no "
                       "generators)");
    }
  }
  if (op.method_variant) {
    if (op.schema.arguments.empty() || op.schema.arguments[0].name != "self" ||
        !is_tensor(op.schema.arguments[0])) {
      fail(op.loc, "a method variant needs a first argument 'Tensor self'");
    }
  }
  if (op.structured) {
    if (op.kind() != OpKind::kOut) fail(op.loc, "a structured op must be an out= variant");
    if (!op.meta) fail(op.loc, "a structured op needs 'meta: function(args...)'");
    if (!op.math && !op.dispatch.count(DispatchTarget::kCPU)) {
      fail(op.loc, "a structured op needs a CPU kernel: 'math: Functor(...)' or 'dispatch: CPU'");
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
    if (op.dispatch.count(DispatchTarget::kCPU)) {
      fail(op.loc, "'math' and 'dispatch: CPU' both give the CPU kernel; keep one");
    }
    check_call_args(op, "math", *op.math);
  }
  if (op.structured_delegate) {
    if (op.kind() == OpKind::kOut) fail(op.loc, "an out= op cannot have a structured_delegate");
    if (!op.dispatch.empty() || op.structured || op.math) {
      fail(op.loc,
           "an op with a structured_delegate takes its kernels from the delegate; remove "
           "dispatch/structured/math");
    }
  }
  if (!op.structured && !op.structured_delegate && op.dispatch.empty()) {
    fail(op.loc, op.name() +
                     " has no kernel: declare 'structured', 'structured_delegate' or "
                     "'dispatch'");
  }
  return op;
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
    if (a.kwarg_only && a.alias && a.alias->is_write && is_tensor(a)) outs.push_back(&a);
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
      ops.push_back(parse_one(node, path, family));
    } catch (const YAML::Exception& e) {
      throw CodegenError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
    }
  }
  return ops;
}

void validate(const Model& model) {
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
