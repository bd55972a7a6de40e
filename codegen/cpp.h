// How op declarations are spelled in C++: argument and return types, default values, and the
// names of generated functions and classes.
//
//   argument_type(arg("Tensor(a!) out"))   // "Tensor&"
//   argument_type(arg("int[1]? dim"))      // "std::optional<IntArrayRef>"
//   return_type(add_out.schema)            // "Tensor&"
//   api_name(add_out)                      // "add_out"
//   unique_name(add_out)                   // "add_out"; "add__Tensor" for add_.Tensor
//   dispatcher_signature(add_out)          // "Tensor&(const Tensor&, const Tensor&, const
//                                          //  Scalar&, Tensor&)"
//
// The mapping (docs/op_declarations.md): Tensor -> const Tensor& (Tensor& when written),
// Tensor? -> const std::optional<Tensor>&, Tensor[] -> absl::Span<const Tensor>, int -> int64_t,
// int[] -> IntArrayRef, float -> double, str -> std::string_view, Scalar -> const Scalar&,
// T? -> std::optional<T> (by value for small types).
#ifndef BACKPLANE_CODEGEN_CPP_H_
#define BACKPLANE_CODEGEN_CPP_H_

#include <string>
#include <vector>

#include "codegen/model.h"
#include "sdk/dispatch/schema.h"

namespace bp::codegen {

// The C++ parameter type of an argument. Throws CodegenError for unsupported types.
std::string argument_type(const Argument& arg);
// The C++ type of a schema's result(s): "Tensor", "Tensor&", "void", "std::tuple<...>".
std::string return_type(const FunctionSchema& schema);
// A C++ expression for the argument's default value, or "" when it has none.
std::string default_value(const Argument& arg);

// Ret(Args...) of the op as the dispatcher calls it (arguments in schema order).
std::string dispatcher_signature(const OpDecl& op);
// "type name" per argument, in schema order (no defaults).
std::string parameter_list(const std::vector<const Argument*>& args);
// The argument names joined by ", ".
std::string argument_names(const std::vector<const Argument*>& args);
// Every argument of the op, in schema order.
std::vector<const Argument*> all_arguments(const OpDecl& op);

// The C++ API name: "add", "add_", "add_out"; from `cpp_name` where the entry gives one
// ("make_complex_out" for complex.out).
std::string api_name(const OpDecl& op);
// A name unique per op: "add_Tensor", "add__Tensor", "add_out", "empty_memory_format".
std::string unique_name(const OpDecl& op);
// The structured class of a structured op: "structured_add_out".
std::string structured_class(const OpDecl& op);
// The C++ literal of a string.
std::string quoted(const std::string& text);

}  // namespace bp::codegen

#endif  // BACKPLANE_CODEGEN_CPP_H_
