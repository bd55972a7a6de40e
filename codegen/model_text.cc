// The small languages inside declaration values: calls (`meta: binary_op(self, other)`), math
// calls and alternatives (`math: Gelu(approximate=none|tanh)`), reduction calls
// (`reduce: VarianceOps(correction=1)`), op names and dtype sets.
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "codegen/model.h"
#include "codegen/model_internal.h"

namespace bp::codegen {

using model_internal::fail;
using model_internal::is_dtype_limit;
using model_internal::is_identifier;
using model_internal::parse_call;
using model_internal::parse_math_call;
using model_internal::parse_math_case;
using model_internal::parse_reduce_call;
using model_internal::split_list;
using model_internal::split_op_name;
using model_internal::trim;

namespace model_internal {

[[noreturn]] void fail(const SourceLocation& loc, const std::string& message) {
  throw CodegenError(loc.str() + ": " + message);
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

}  // namespace model_internal

namespace {

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

}  // namespace

namespace model_internal {

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

// "name.overload" -> {"name", "overload"}.
std::pair<std::string, std::string> split_op_name(const std::string& name) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return {name, ""};
  return {name.substr(0, dot), name.substr(dot + 1)};
}

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

}  // namespace model_internal

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

}  // namespace bp::codegen
