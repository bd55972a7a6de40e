// A typed model of PyTorch's function schema language, with a parser and a printer.
//
//   FunctionSchema s = parse_schema(
//       "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
//   s.name;                             // "add"
//   s.overload_name;                    // "out"
//   s.arguments[2].kwarg_only;          // true
//   s.arguments[3].alias->is_write;     // true
//   to_string(s);                       // the text above, canonically spaced
//
// The grammar is PyTorch's (torchgen/model.py, torch/csrc/jit/frontend/function_schema_parser.cpp)
// restricted to what operator declarations use: optional types `T?`, lists `T[]` / `T[N]`,
// optional lists `T[]?`, lists of optionals `Tensor?[]`, alias annotations `Tensor(a)` /
// `Tensor(a!)`, kwarg-only marker `*`, defaults (integers, floats, None, True/False, lists,
// strings in either quote, bare identifiers such as `contiguous_format`), and returns `-> T`,
// `-> (T name, T name)`, `-> ()`. `SymInt` is parsed as `int` (remembered for printing).
//
// Thread safety: the model is a plain value; the functions are pure.
#ifndef BACKPLANE_SDK_DISPATCH_SCHEMA_H_
#define BACKPLANE_SDK_DISPATCH_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bp {

// The base kinds of schema types.
enum class TypeKind : uint8_t {
  kTensor,
  kInt,  // `int` and `SymInt`
  kFloat,
  kBool,
  kStr,
  kScalar,
  kScalarType,
  kDevice,
  kLayout,
  kMemoryFormat,
  kGenerator,  // Parsed and carried; a Generator argument is always None in Backplane.
};

// A schema type: a base kind, possibly a list of it, possibly optional.
struct Type {
  TypeKind kind = TypeKind::kTensor;
  bool symbolic = false;             // spelled `SymInt` (printing only; means the same as int)
  bool element_optional = false;     // `Tensor?[]`: the list's elements may be None
  bool is_list = false;              // `T[]` or `T[N]`
  std::optional<int64_t> list_size;  // N of `T[N]`
  bool optional = false;             // `T?` or `T[]?`: the value may be None

  friend bool operator==(const Type&, const Type&) = default;
};

// Alias annotation of a Tensor: `(a)` reads set a, `(a!)` writes it, `(a -> *)` says that the
// results may alias it through a container: split's `Tensor(a -> *) self` returns `Tensor(a)[]`,
// a list of views of self (PyTorch's "after set" wildcard).
struct AliasInfo {
  std::string set;
  bool is_write = false;
  bool into_wildcard = false;  // `-> *`

  friend bool operator==(const AliasInfo&, const AliasInfo&) = default;
};

// A bare identifier used as a default, such as `contiguous_format` or `long`.
struct Identifier {
  std::string name;
  friend bool operator==(const Identifier&, const Identifier&) = default;
};

// A string default; `quote` remembers the spelling ('"' or '\'') so printing round-trips.
struct StringLiteral {
  std::string value;
  char quote = '"';
  friend bool operator==(const StringLiteral&, const StringLiteral&) = default;
};

// `None`.
struct NoneLiteral {
  friend bool operator==(const NoneLiteral&, const NoneLiteral&) = default;
};

// A default value as written. Integers stay integers even for `float` arguments (as in PyTorch,
// where `Scalar alpha=1` is an int); a list holds ints, floats or bools.
using DefaultValue = std::variant<NoneLiteral, bool, int64_t, double, StringLiteral, Identifier,
                                  std::vector<int64_t>, std::vector<double>, std::vector<bool>>;

struct Argument {
  std::string name;  // empty for unnamed returns
  Type type;
  std::optional<DefaultValue> default_value;
  bool kwarg_only = false;
  std::optional<AliasInfo> alias;

  friend bool operator==(const Argument&, const Argument&) = default;
};

struct FunctionSchema {
  std::string name;           // "add", or "bp::add" when a namespace was written
  std::string overload_name;  // "Tensor"; empty for the default overload
  std::vector<Argument> arguments;
  std::vector<Argument> returns;
  bool is_vararg = false;  // arguments end in `...`
  bool is_varret = false;  // returns are `...`

  // "add.Tensor" (or "add" without an overload).
  std::string operator_name() const;
  // True when an argument is written (alias annotation with `!`), e.g. in-place and out= ops.
  bool is_mutable() const;

  friend bool operator==(const FunctionSchema&, const FunctionSchema&) = default;
};

// Parses a schema. Throws bp::Error (kInvalidArgument) naming the text, the 1-based column and
// what was expected, e.g. "schema 'add.Tensor(Tensor self' at column 23: expected ',' or ')' but
// reached the end".
FunctionSchema parse_schema(std::string_view text);

// Canonical text: single spaces after commas, `*` before the first kwarg-only argument.
// parse_schema(to_string(s)) == s for every s.
std::string to_string(const FunctionSchema& schema);
std::string to_string(const Type& type);
std::string to_string(const Argument& argument);
std::string to_string(const DefaultValue& value);

std::ostream& operator<<(std::ostream& out, const FunctionSchema& schema);

}  // namespace bp

#endif  // BACKPLANE_SDK_DISPATCH_SCHEMA_H_
