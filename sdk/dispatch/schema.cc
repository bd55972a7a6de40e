#include "sdk/dispatch/schema.h"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

#include "sdk/core/error.h"

namespace bp {
namespace {

struct TypeName {
  std::string_view spelling;
  TypeKind kind;
  bool symbolic;
};

// One table for parsing and printing type names.
constexpr std::array<TypeName, 12> kTypeNames = {{
    {"Tensor", TypeKind::kTensor, false},
    {"int", TypeKind::kInt, false},
    {"SymInt", TypeKind::kInt, true},
    {"float", TypeKind::kFloat, false},
    {"bool", TypeKind::kBool, false},
    {"str", TypeKind::kStr, false},
    {"Scalar", TypeKind::kScalar, false},
    {"ScalarType", TypeKind::kScalarType, false},
    {"Device", TypeKind::kDevice, false},
    {"Layout", TypeKind::kLayout, false},
    {"MemoryFormat", TypeKind::kMemoryFormat, false},
    {"Generator", TypeKind::kGenerator, false},
}};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Recursive-descent parser over the text; `pos_` is the next unread character.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  FunctionSchema parse() {
    FunctionSchema schema;
    std::string qualified = parse_qualified_name();
    schema.name = std::move(qualified);
    if (try_consume('.')) schema.overload_name = parse_identifier("an overload name");
    expect('(', "'('");
    parse_arguments(schema);
    skip_space();
    if (try_consume_text("->")) {
      parse_returns(schema);
    } else {
      fail("'->'");
    }
    skip_space();
    if (pos_ != text_.size()) fail("the end of the schema");
    return schema;
  }

 private:
  [[noreturn]] void fail(std::string_view expected) const {
    std::string found = pos_ < text_.size() ? detail::str_cat("found '", text_[pos_], "'")
                                            : std::string("reached the end");
    detail::throw_error(ErrorCode::kInvalidArgument,
                        detail::str_cat("schema '", text_, "' at column ", pos_ + 1, ": expected ",
                                        expected, " but ", found));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool peek(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool try_consume(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool try_consume_text(std::string_view s) {
    skip_space();
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  void expect(char c, std::string_view expected) {
    if (!try_consume(c)) fail(expected);
  }

  std::string parse_identifier(std::string_view what) {
    skip_space();
    if (pos_ >= text_.size() || !is_ident_start(text_[pos_])) fail(what);
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // `name` or `ns::name`.
  std::string parse_qualified_name() {
    std::string name = parse_identifier("an operator name");
    if (text_.substr(pos_, 2) == "::") {
      pos_ += 2;
      name += "::" + parse_identifier("an operator name after '::'");
    }
    return name;
  }

  void parse_arguments(FunctionSchema& schema) {
    bool kwarg_only = false;
    if (try_consume(')')) return;
    while (true) {
      if (try_consume_text("...")) {
        schema.is_vararg = true;
        expect(')', "')' after '...'");
        return;
      }
      if (peek('*')) {
        if (kwarg_only) fail("one '*' only");
        ++pos_;
        kwarg_only = true;
      } else {
        Argument arg = parse_argument(/*is_return=*/false);
        arg.kwarg_only = kwarg_only;
        schema.arguments.push_back(std::move(arg));
      }
      if (try_consume(')')) return;
      expect(',', "',' or ')'");
    }
  }

  void parse_returns(FunctionSchema& schema) {
    if (try_consume_text("...")) {
      schema.is_varret = true;
      return;
    }
    if (!try_consume('(')) {
      schema.returns.push_back(parse_argument(/*is_return=*/true));
      return;
    }
    if (try_consume(')')) return;
    while (true) {
      schema.returns.push_back(parse_argument(/*is_return=*/true));
      if (try_consume(')')) return;
      expect(',', "',' or ')'");
    }
  }

  Argument parse_argument(bool is_return) {
    Argument arg;
    arg.type = parse_type(arg.alias);
    skip_space();
    if (pos_ < text_.size() && is_ident_start(text_[pos_])) {
      arg.name = parse_identifier("an argument name");
    } else if (!is_return) {
      fail("an argument name");
    }
    if (!is_return && try_consume('=')) arg.default_value = parse_default();
    return arg;
  }

  Type parse_type(std::optional<AliasInfo>& alias) {
    size_t start = pos_;
    std::string name = parse_identifier("a type");
    Type type;
    bool known = false;
    for (const TypeName& t : kTypeNames) {
      if (t.spelling == name) {
        type.kind = t.kind;
        type.symbolic = t.symbolic;
        known = true;
      }
    }
    if (!known) {
      pos_ = start;
      skip_space();
      fail(
          detail::str_cat("a type (Tensor, int, SymInt, float, bool, str, Scalar, ScalarType, "
                          "Device, Layout, MemoryFormat, Generator), not '",
                          name, "'"));
    }
    if (peek('(')) {
      if (type.kind != TypeKind::kTensor) fail("an argument name (only Tensor takes an alias)");
      ++pos_;
      alias = AliasInfo{parse_identifier("an alias set name"), false};
      if (try_consume('!')) alias->is_write = true;
      skip_space();
      if (try_consume_text("->")) {
        skip_space();
        expect('*', "'*' (only the wildcard set follows '->')");
        alias->into_wildcard = true;
      }
      expect(')', "'!', '->' or ')'");
    }
    if (try_consume('?')) type.optional = true;
    if (try_consume('[')) {
      type.is_list = true;
      type.element_optional = std::exchange(type.optional, false);
      skip_space();
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        type.list_size = parse_integer();
      }
      expect(']', "']' or a list size");
      if (try_consume('?')) type.optional = true;
    }
    return type;
  }

  int64_t parse_integer() {
    const char* first = text_.data() + pos_;
    int64_t value = 0;
    auto [end, ec] = std::from_chars(first, text_.data() + text_.size(), value);
    if (ec != std::errc()) fail("an integer");
    pos_ += end - first;
    return value;
  }

  // An int or a float; returns the variant alternative matching the spelling.
  DefaultValue parse_number() {
    skip_space();
    size_t start = pos_;
    size_t end = pos_;
    if (end < text_.size() && (text_[end] == '-' || text_[end] == '+')) ++end;
    bool is_float = false;
    while (end < text_.size()) {
      char c = text_[end];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++end;
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        ++end;
        if ((c == 'e' || c == 'E') && end < text_.size() &&
            (text_[end] == '-' || text_[end] == '+')) {
          ++end;
        }
      } else {
        break;
      }
    }
    std::string spelled(text_.substr(start, end - start));
    if (spelled.empty() || spelled == "-" || spelled == "+") fail("a default value");
    const char* first = spelled.data() + (spelled[0] == '+' ? 1 : 0);
    const char* last = spelled.data() + spelled.size();
    if (is_float) {
      double value = 0;
      auto [p, ec] = std::from_chars(first, last, value);
      if (ec != std::errc() || p != last) fail("a number");
      pos_ = end;
      return value;
    }
    int64_t value = 0;
    auto [p, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || p != last) fail("an integer that fits in 64 bits");
    pos_ = end;
    return value;
  }

  DefaultValue parse_default() {
    skip_space();
    if (pos_ >= text_.size()) fail("a default value");
    char c = text_[pos_];
    if (c == '[') return parse_list_default();
    if (c == '"' || c == '\'') {
      ++pos_;
      size_t close = text_.find(c, pos_);
      if (close == std::string_view::npos) fail(detail::str_cat("a closing ", c));
      StringLiteral s{std::string(text_.substr(pos_, close - pos_)), c};
      pos_ = close + 1;
      return s;
    }
    if (is_ident_start(c)) {
      std::string name = parse_identifier("a default value");
      if (name == "None") return NoneLiteral{};
      if (name == "True") return true;
      if (name == "False") return false;
      return Identifier{std::move(name)};
    }
    return parse_number();
  }

  DefaultValue parse_list_default() {
    ++pos_;  // '['
    std::vector<DefaultValue> items;
    if (!try_consume(']')) {
      while (true) {
        // Checked before parsing: a nested list would recurse once per '[' (deep enough, off the
        // end of the stack) only to be refused on the way back.
        if (peek('[')) fail("a list of numbers or booleans");
        DefaultValue item = parse_default();
        if (!std::holds_alternative<int64_t>(item) && !std::holds_alternative<double>(item) &&
            !std::holds_alternative<bool>(item)) {
          fail("a list of numbers or booleans");
        }
        if (!items.empty() && item.index() != items.front().index()) {
          fail("list elements of one type");
        }
        items.push_back(std::move(item));
        if (try_consume(']')) break;
        expect(',', "',' or ']'");
      }
    }
    auto collect = [&](auto tag) {
      using T = decltype(tag);
      std::vector<T> out;
      for (const DefaultValue& item : items) out.push_back(std::get<T>(item));
      return DefaultValue(std::move(out));
    };
    if (items.empty() || std::holds_alternative<int64_t>(items[0])) return collect(int64_t{});
    if (std::holds_alternative<double>(items[0])) return collect(double{});
    return collect(bool{});
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string format_double(double v) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  std::string s(buf.data(), end);
  // Keep the float spelling distinct from an int ("1." not "1") so it parses back as a double.
  if (s.find_first_of(".eEn") == std::string::npos) s += '.';
  return s;
}

template <typename T>
void append_list(std::string& out, const std::vector<T>& items) {
  out += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += to_string(DefaultValue(T(items[i])));
  }
  out += ']';
}

struct DefaultPrinter {
  std::string operator()(NoneLiteral) const { return "None"; }
  std::string operator()(bool b) const { return b ? "True" : "False"; }
  std::string operator()(int64_t i) const { return std::to_string(i); }
  std::string operator()(double d) const { return format_double(d); }
  std::string operator()(const StringLiteral& s) const { return s.quote + s.value + s.quote; }
  std::string operator()(const Identifier& id) const { return id.name; }
  template <typename T>
  std::string operator()(const std::vector<T>& items) const {
    std::string out;
    append_list(out, items);
    return out;
  }
};

}  // namespace

FunctionSchema parse_schema(std::string_view text) { return Parser(text).parse(); }

std::string FunctionSchema::operator_name() const {
  return overload_name.empty() ? name : name + "." + overload_name;
}

bool FunctionSchema::is_mutable() const {
  for (const Argument& a : arguments) {
    if (a.alias && a.alias->is_write) return true;
  }
  return false;
}

std::string to_string(const Type& type) {
  std::string out;
  for (const TypeName& t : kTypeNames) {
    if (t.kind == type.kind && t.symbolic == type.symbolic) out = t.spelling;
  }
  if (type.element_optional) out += '?';
  if (type.is_list) {
    out += '[';
    if (type.list_size) out += std::to_string(*type.list_size);
    out += ']';
  }
  if (type.optional) out += '?';
  return out;
}

std::string to_string(const DefaultValue& value) { return std::visit(DefaultPrinter{}, value); }

std::string to_string(const Argument& argument) {
  std::string type = to_string(argument.type);
  if (argument.alias) {
    // The alias annotation sits right after the base name: `Tensor(a!)[]`, `Tensor(a)?`.
    std::string annotation = "(" + argument.alias->set + (argument.alias->is_write ? "!" : "") +
                             (argument.alias->into_wildcard ? " -> *)" : ")");
    type.insert(
        type.find_first_of("?[") == std::string::npos ? type.size() : type.find_first_of("?["),
        annotation);
  }
  std::string out = type;
  if (!argument.name.empty()) out += " " + argument.name;
  if (argument.default_value) out += "=" + to_string(*argument.default_value);
  return out;
}

std::string to_string(const FunctionSchema& schema) {
  std::string out = schema.operator_name();
  out += '(';
  bool first = true;
  bool in_kwargs = false;
  for (const Argument& a : schema.arguments) {
    if (!first) out += ", ";
    first = false;
    if (a.kwarg_only && !in_kwargs) {
      out += "*, ";
      in_kwargs = true;
    }
    out += to_string(a);
  }
  if (schema.is_vararg) out += first ? "..." : ", ...";
  out += ") -> ";
  if (schema.is_varret) {
    out += "...";
  } else if (schema.returns.size() == 1 && schema.returns[0].name.empty()) {
    out += to_string(schema.returns[0]);
  } else {
    out += '(';
    for (size_t i = 0; i < schema.returns.size(); ++i) {
      if (i) out += ", ";
      out += to_string(schema.returns[i]);
    }
    out += ')';
  }
  return out;
}

std::ostream& operator<<(std::ostream& out, const FunctionSchema& schema) {
  return out << to_string(schema);
}

}  // namespace bp
