#include "codegen/cpp.h"

#include <sstream>
#include <variant>

namespace bp::codegen {
namespace {

[[noreturn]] void unsupported(const Argument& arg) {
  throw CodegenError("argument '" + arg.name + "': type " + to_string(arg.type) +
                     " has no C++ mapping in Backplane");
}

// The C++ type of one value of `kind` (not a list, not optional).
std::string base_type(TypeKind kind, const Argument& arg) {
  switch (kind) {
    case TypeKind::kTensor:
      return "Tensor";
    case TypeKind::kInt:
      return "int64_t";
    case TypeKind::kFloat:
      return "double";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kStr:
      return "std::string_view";
    case TypeKind::kScalar:
      return "Scalar";
    case TypeKind::kScalarType:
      return "ScalarType";
    case TypeKind::kDevice:
      return "Device";
    case TypeKind::kMemoryFormat:
      return "MemoryFormat";
    case TypeKind::kLayout:
    case TypeKind::kGenerator:
      break;
  }
  unsupported(arg);
}

std::string number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  std::string s = out.str();
  if (s.find_first_of(".eE") == std::string::npos && s.find_first_of("ni") == std::string::npos) {
    s += ".0";
  }
  return s;
}

}  // namespace

std::string argument_type(const Argument& arg) {
  const Type& t = arg.type;
  const bool written = arg.alias && arg.alias->is_write;
  if (t.kind == TypeKind::kTensor && !t.is_list) {
    if (t.optional) return "const std::optional<Tensor>&";
    return written ? "Tensor&" : "const Tensor&";
  }
  if (t.is_list) {
    if (t.element_optional) unsupported(arg);
    std::string list;
    switch (t.kind) {
      case TypeKind::kTensor:
        list = "absl::Span<const Tensor>";
        break;
      case TypeKind::kInt:
        list = "IntArrayRef";
        break;
      default:
        unsupported(arg);
    }
    return t.optional ? "std::optional<" + list + ">" : list;
  }
  std::string base = base_type(t.kind, arg);
  if (t.kind == TypeKind::kScalar) {
    return t.optional ? "const std::optional<Scalar>&" : "const Scalar&";
  }
  return t.optional ? "std::optional<" + base + ">" : base;
}

std::string return_type(const FunctionSchema& schema) {
  std::vector<std::string> types;
  for (const Argument& r : schema.returns) {
    if (r.type.kind == TypeKind::kTensor && !r.type.is_list && !r.type.optional) {
      types.push_back(r.alias && r.alias->is_write ? "Tensor&" : "Tensor");
    } else if (r.type.kind == TypeKind::kTensor && r.type.is_list) {
      types.push_back("std::vector<Tensor>");
    } else if (!r.type.is_list && !r.type.optional) {
      types.push_back(base_type(r.type.kind, r));
    } else {
      unsupported(r);
    }
  }
  if (types.empty()) return "void";
  if (types.size() == 1) return types[0];
  std::string tuple = "std::tuple<";
  for (size_t i = 0; i < types.size(); ++i) tuple += (i ? ", " : "") + types[i];
  return tuple + ">";
}

std::string default_value(const Argument& arg) {
  if (!arg.default_value) return "";
  return std::visit(
      [&](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, NoneLiteral>) {
          return "std::nullopt";
        } else if constexpr (std::is_same_v<V, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<V, int64_t>) {
          if (arg.type.kind == TypeKind::kFloat && !arg.type.is_list) return number(double(v));
          return std::to_string(v);
        } else if constexpr (std::is_same_v<V, double>) {
          return number(v);
        } else if constexpr (std::is_same_v<V, StringLiteral>) {
          return quoted(v.value);
        } else if constexpr (std::is_same_v<V, Identifier>) {
          static const std::pair<const char*, const char*> kKnown[] = {
              {"contiguous_format", "MemoryFormat::kContiguous"},
              {"channels_last", "MemoryFormat::kChannelsLast"},
              {"preserve_format", "MemoryFormat::kPreserve"},
              {"long", "ScalarType::kInt64"},
              {"float", "ScalarType::kFloat32"},
          };
          for (const auto& [name, cpp] : kKnown) {
            if (v.name == name) return cpp;
          }
          throw CodegenError("argument '" + arg.name + "': unknown default '" + v.name + "'");
        } else {
          std::string list = "{";
          for (size_t i = 0; i < v.size(); ++i) {
            if (i) list += ", ";
            if constexpr (std::is_same_v<V, std::vector<double>>) {
              list += number(v[i]);
            } else if constexpr (std::is_same_v<V, std::vector<bool>>) {
              list += v[i] ? "true" : "false";
            } else {
              list += std::to_string(v[i]);
            }
          }
          return list + "}";
        }
      },
      *arg.default_value);
}

std::vector<const Argument*> all_arguments(const OpDecl& op) {
  std::vector<const Argument*> args;
  for (const Argument& a : op.schema.arguments) args.push_back(&a);
  return args;
}

std::string dispatcher_signature(const OpDecl& op) {
  std::string sig = return_type(op.schema) + "(";
  for (size_t i = 0; i < op.schema.arguments.size(); ++i) {
    sig += (i ? ", " : "") + argument_type(op.schema.arguments[i]);
  }
  return sig + ")";
}

std::string parameter_list(const std::vector<const Argument*>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    out += (i ? ", " : "") + argument_type(*args[i]) + " " + args[i]->name;
  }
  return out;
}

std::string argument_names(const std::vector<const Argument*>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i]->name;
  return out;
}

std::string api_name(const OpDecl& op) {
  if (!op.cpp_name) return op.kind() == OpKind::kOut ? op.schema.name + "_out" : op.schema.name;
  switch (op.kind()) {
    case OpKind::kFunctional:
      return *op.cpp_name;
    case OpKind::kInplace:
      return *op.cpp_name + "_";
    case OpKind::kOut:
      return *op.cpp_name + "_out";
  }
  return *op.cpp_name;
}

std::string unique_name(const OpDecl& op) {
  if (op.schema.overload_name.empty()) return op.schema.name;
  return op.schema.name + "_" + op.schema.overload_name;
}

std::string structured_class(const OpDecl& op) { return "structured_" + unique_name(op); }

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace bp::codegen
