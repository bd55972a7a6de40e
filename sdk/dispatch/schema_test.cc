#include "sdk/dispatch/schema.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

using ::testing::HasSubstr;

std::string parse_error(std::string_view text) {
  try {
    parse_schema(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    return e.message();
  }
  ADD_FAILURE() << "no error for " << text;
  return "";
}

TEST(Schema, ParsesNameOverloadArgumentsAndReturn) {
  FunctionSchema s =
      parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(s.name, "add");
  EXPECT_EQ(s.overload_name, "Tensor");
  EXPECT_EQ(s.operator_name(), "add.Tensor");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[0].name, "self");
  EXPECT_EQ(s.arguments[0].type.kind, TypeKind::kTensor);
  EXPECT_FALSE(s.arguments[1].kwarg_only);
  EXPECT_TRUE(s.arguments[2].kwarg_only);
  EXPECT_EQ(s.arguments[2].type.kind, TypeKind::kScalar);
  ASSERT_TRUE(s.arguments[2].default_value.has_value());
  EXPECT_EQ(std::get<int64_t>(*s.arguments[2].default_value), 1);
  ASSERT_EQ(s.returns.size(), 1u);
  EXPECT_EQ(s.returns[0].name, "");
  EXPECT_FALSE(s.is_mutable());
}

TEST(Schema, ParsesNamespaceAndNoOverload) {
  FunctionSchema s = parse_schema("bp::relu(Tensor self) -> Tensor");
  EXPECT_EQ(s.name, "bp::relu");
  EXPECT_EQ(s.overload_name, "");
  EXPECT_EQ(to_string(s), "bp::relu(Tensor self) -> Tensor");
}

TEST(Schema, ParsesOptionalListAndSizedListTypes) {
  FunctionSchema s = parse_schema(
      "f(Tensor? a, Tensor[] b, Tensor?[] c, int[] d, int[2] e, int[1]? f, SymInt[] g, SymInt h, "
      "bool[3] i, float? j, str? k) -> ()");
  const auto& a = s.arguments;
  EXPECT_TRUE(a[0].type.optional);
  EXPECT_FALSE(a[0].type.is_list);
  EXPECT_TRUE(a[1].type.is_list);
  EXPECT_FALSE(a[1].type.optional);
  EXPECT_TRUE(a[2].type.is_list);
  EXPECT_TRUE(a[2].type.element_optional);
  EXPECT_FALSE(a[2].type.optional);
  EXPECT_EQ(a[3].type.kind, TypeKind::kInt);
  EXPECT_FALSE(a[3].type.list_size.has_value());
  EXPECT_EQ(a[4].type.list_size, 2);
  EXPECT_EQ(a[5].type.list_size, 1);
  EXPECT_TRUE(a[5].type.optional);
  EXPECT_EQ(a[6].type.kind, TypeKind::kInt);
  EXPECT_TRUE(a[6].type.symbolic);
  EXPECT_TRUE(a[6].type.is_list);
  EXPECT_EQ(a[7].type.kind, TypeKind::kInt);
  EXPECT_EQ(a[8].type.kind, TypeKind::kBool);
  EXPECT_EQ(a[8].type.list_size, 3);
  EXPECT_EQ(a[9].type.kind, TypeKind::kFloat);
  EXPECT_TRUE(a[10].type.optional);
  EXPECT_TRUE(s.returns.empty());
}

TEST(Schema, ParsesEveryBaseType) {
  FunctionSchema s = parse_schema(
      "f(Scalar a, Scalar? b, ScalarType? c, Device? d, Layout? e, MemoryFormat? f, Generator? g, "
      "ScalarType h) -> ()");
  std::vector<TypeKind> kinds;
  for (const Argument& a : s.arguments) kinds.push_back(a.type.kind);
  EXPECT_EQ(kinds,
            (std::vector<TypeKind>{TypeKind::kScalar, TypeKind::kScalar, TypeKind::kScalarType,
                                   TypeKind::kDevice, TypeKind::kLayout, TypeKind::kMemoryFormat,
                                   TypeKind::kGenerator, TypeKind::kScalarType}));
}

TEST(Schema, ParsesAliasAnnotations) {
  FunctionSchema s = parse_schema("f(Tensor(a) x, Tensor(b!) y, Tensor(c!)[] z) -> Tensor(a)");
  ASSERT_TRUE(s.arguments[0].alias.has_value());
  EXPECT_EQ(s.arguments[0].alias->set, "a");
  EXPECT_FALSE(s.arguments[0].alias->is_write);
  EXPECT_EQ(s.arguments[1].alias->set, "b");
  EXPECT_TRUE(s.arguments[1].alias->is_write);
  EXPECT_TRUE(s.arguments[2].type.is_list);
  EXPECT_TRUE(s.arguments[2].alias->is_write);
  EXPECT_EQ(s.returns[0].alias->set, "a");
  EXPECT_TRUE(s.is_mutable());
  EXPECT_EQ(to_string(s.arguments[2]), "Tensor(c!)[] z");
}

TEST(Schema, ParsesEveryKindOfDefault) {
  FunctionSchema s = parse_schema(
      "f(int a=-3, float b=1e-05, float c=0.5, Tensor? d=None, bool e=True, bool f=False, "
      "int[] g=[0, 1], int[] h=[], str i=\"floor\", str j='trunc', "
      "MemoryFormat k=contiguous_format, float[] l=[1.5, 2.], bool[2] m=[True, False]) -> ()");
  const auto& a = s.arguments;
  EXPECT_EQ(std::get<int64_t>(*a[0].default_value), -3);
  EXPECT_DOUBLE_EQ(std::get<double>(*a[1].default_value), 1e-05);
  EXPECT_DOUBLE_EQ(std::get<double>(*a[2].default_value), 0.5);
  EXPECT_TRUE(std::holds_alternative<NoneLiteral>(*a[3].default_value));
  EXPECT_EQ(std::get<bool>(*a[4].default_value), true);
  EXPECT_EQ(std::get<bool>(*a[5].default_value), false);
  EXPECT_EQ(std::get<std::vector<int64_t>>(*a[6].default_value), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(std::get<std::vector<int64_t>>(*a[7].default_value).empty());
  EXPECT_EQ(std::get<StringLiteral>(*a[8].default_value), (StringLiteral{"floor", '"'}));
  EXPECT_EQ(std::get<StringLiteral>(*a[9].default_value), (StringLiteral{"trunc", '\''}));
  EXPECT_EQ(std::get<Identifier>(*a[10].default_value).name, "contiguous_format");
  EXPECT_EQ(std::get<std::vector<double>>(*a[11].default_value), (std::vector<double>{1.5, 2.0}));
  EXPECT_EQ(std::get<std::vector<bool>>(*a[12].default_value), (std::vector<bool>{true, false}));
  EXPECT_EQ(
      to_string(s),
      "f(int a=-3, float b=1e-05, float c=0.5, Tensor? d=None, bool e=True, bool f=False, "
      "int[] g=[0, 1], int[] h=[], str i=\"floor\", str j='trunc', "
      "MemoryFormat k=contiguous_format, float[] l=[1.5, 2.], bool[2] m=[True, False]) -> ()");
}

TEST(Schema, ParsesNamedAndMultipleAndEmptyAndListReturns) {
  FunctionSchema s = parse_schema(
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  ASSERT_EQ(s.returns.size(), 2u);
  EXPECT_EQ(s.returns[0].name, "values");
  EXPECT_EQ(s.returns[1].name, "indices");
  EXPECT_TRUE(parse_schema("f(Tensor a) -> ()").returns.empty());
  FunctionSchema l = parse_schema("unbind.int(Tensor self, int dim=0) -> Tensor[]");
  EXPECT_TRUE(l.returns[0].type.is_list);
  FunctionSchema w = parse_schema("f(Tensor(a!) x) -> Tensor(a!)");
  EXPECT_TRUE(w.returns[0].alias->is_write);
}

TEST(Schema, ParsesVarargs) {
  FunctionSchema s = parse_schema("print(...) -> ...");
  EXPECT_TRUE(s.is_vararg);
  EXPECT_TRUE(s.is_varret);
  EXPECT_EQ(to_string(s), "print(...) -> ...");
}

TEST(Schema, ToleratesExtraWhitespaceAndPrintsCanonically) {
  FunctionSchema s =
      parse_schema("  add.Tensor ( Tensor self ,Tensor  other , * , Scalar alpha = 1 )->Tensor ");
  EXPECT_EQ(to_string(s), "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
}

// Real schemas from PyTorch's native_functions.yaml: each prints back exactly as written.
TEST(Schema, RoundTripsRealPyTorchSchemas) {
  const char* schemas[] = {
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
      "Tensor",
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
      "max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool "
      "keepdim=False) -> Tensor",
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor",
      "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
      "where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
      "gelu(Tensor self, *, str approximate='none') -> Tensor",
      "cat(Tensor[] tensors, int dim=0) -> Tensor",
      "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
      "view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
      "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
      "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] "
      "padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
      "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] "
      "dilation=1, bool ceil_mode=False) -> Tensor",
      "native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor "
      "mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, "
      "Tensor)",
      "randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=None, Device? "
      "device=None, bool? pin_memory=None) -> Tensor",
      "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)",
      "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
      "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
      "MemoryFormat? memory_format=None) -> Tensor(a)",
      "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
      "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool "
      "include_self=True) -> Tensor",
      "topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor "
      "values, Tensor indices)",
      "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool "
      "keepdim=False) -> (Tensor, Tensor)",
      "upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> "
      "Tensor",
      "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt "
      "ignore_index=-100) -> Tensor",
      "to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool "
      "copy=False, MemoryFormat? memory_format=None) -> Tensor(a)",
  };
  for (const char* text : schemas) {
    FunctionSchema s = parse_schema(text);
    EXPECT_EQ(to_string(s), text);
    EXPECT_EQ(parse_schema(to_string(s)), s) << text;
  }
}

TEST(Schema, ErrorNamesColumnAndExpectedToken) {
  EXPECT_EQ(
      parse_error("add.Tensor(Tensor self"),
      "schema 'add.Tensor(Tensor self' at column 23: expected ',' or ')' but reached the end");
  EXPECT_EQ(parse_error("add(Tensor self) Tensor"),
            "schema 'add(Tensor self) Tensor' at column 18: expected '->' but found 'T'");
  EXPECT_THAT(parse_error("add(Tensour self) -> Tensor"),
              HasSubstr("at column 5: expected a type (Tensor, int"));
  EXPECT_THAT(parse_error("add(Tensour self) -> Tensor"), HasSubstr("not 'Tensour'"));
}

TEST(Schema, ParsesWildcardAliasOfListResults) {
  FunctionSchema s =
      parse_schema("split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]");
  ASSERT_TRUE(s.arguments[0].alias.has_value());
  EXPECT_EQ(s.arguments[0].alias->set, "a");
  EXPECT_TRUE(s.arguments[0].alias->into_wildcard);
  EXPECT_FALSE(s.arguments[0].alias->is_write);
  EXPECT_TRUE(s.returns[0].type.is_list);
  EXPECT_EQ(s.returns[0].alias->set, "a");
  EXPECT_FALSE(s.is_mutable());
  EXPECT_EQ(to_string(s),
            "split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_THAT(parse_error("f(Tensor(a -> b) x) -> ()"),
              HasSubstr("expected '*' (only the wildcard set follows '->')"));
}

TEST(Schema, RejectsMalformedInputWithColumn) {
  EXPECT_THAT(parse_error("f(int(a) x) -> ()"),
              HasSubstr("at column 6: expected an argument name (only Tensor takes an alias)"));
  EXPECT_THAT(parse_error("f(Tensor a, *, *, int b) -> ()"),
              HasSubstr("at column 16: expected one '*' only"));
  EXPECT_THAT(parse_error("f(Tensor a=) -> ()"),
              HasSubstr("at column 12: expected a default value"));
  EXPECT_THAT(parse_error("f(int[3 x) -> ()"),
              HasSubstr("at column 9: expected ']' or a list size"));
  EXPECT_THAT(parse_error("f(str s='abc) -> ()"), HasSubstr("expected a closing '"));
  EXPECT_THAT(parse_error("f(int[] a=[1, True]) -> ()"),
              HasSubstr("expected list elements of one type"));
  EXPECT_THAT(parse_error("f(int a=99999999999999999999) -> ()"),
              HasSubstr("at column 9: expected an integer that fits in 64 bits"));
  EXPECT_THAT(parse_error("f(Tensor) -> ()"), HasSubstr("at column 9: expected an argument name"));
  EXPECT_THAT(parse_error("f(Tensor a) -> Tensor b c"),
              HasSubstr("at column 25: expected the end of the schema"));
  EXPECT_THAT(parse_error("(Tensor a) -> ()"), HasSubstr("at column 1: expected an operator name"));
  EXPECT_THAT(parse_error("f(Tensor(a x) -> ()"),
              HasSubstr("at column 12: expected '!', '->' or ')'"));
}

// Found while writing schema_fuzzer (its 1 KB inputs stay short of the stack limit): each '['
// recursed before the nesting was refused, so a default of a few hundred thousand '[' overflowed
// the stack.
TEST(Schema, RefusesNestedListDefaultsWithoutRecursing) {
  EXPECT_THAT(parse_error("f(int[] a=[[1]]) -> ()"),
              HasSubstr("at column 12: expected a list of numbers or booleans"));
  const std::string deep = "f(int[] a=" + std::string(1'000'000, '[') + ") -> ()";
  EXPECT_THAT(parse_error(deep), HasSubstr("at column 12: expected a list of numbers or booleans"));
}

}  // namespace
}  // namespace bp
