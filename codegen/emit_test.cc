#include "codegen/emit.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::codegen {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

Model binary_model() {
  Model model(parse_declarations(R"(
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  variants: function, method
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  structured_delegate: add.out
  variants: method
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  meta: add_op(self, other, alpha)
  math: Add(alpha)
- func: sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
  structured: True
  meta: sum_meta(self, dim, keepdim, dtype)
  dispatch:
    CPU: sum_out
)",
                                 "sdk/ops/binary.yaml"),
              {"binary"});
  validate(model);
  return model;
}

TEST(Emit, ApiPutsOutputsFirstAndKeepsTrailingDefaults) {
  Files files = emit_sdk(binary_model());
  const std::string& api = files.at("binary.h");
  EXPECT_THAT(api, HasSubstr("Tensor add(const Tensor& self, const Tensor& other, const Scalar& "
                             "alpha = 1);"));
  EXPECT_THAT(api, HasSubstr("Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& "
                             "other, const Scalar& alpha = 1);"));
  EXPECT_THAT(api, HasSubstr("Tensor& sum_out(Tensor& out, const Tensor& self, "
                             "std::optional<IntArrayRef> dim, bool keepdim = false, "
                             "std::optional<ScalarType> dtype = std::nullopt);"));
  // add_ is a method only.
  EXPECT_THAT(api, Not(HasSubstr("Tensor& add_(")));
  EXPECT_THAT(files.at("tensor_methods.inc"),
              HasSubstr("Tensor& add_(const Tensor& other, const Scalar& alpha = 1) const;"));
}

TEST(Emit, PythonRowsNameEachVariantOfEachOp) {
  const std::string rows = emit_python(binary_model()).at("op_bindings.inc");
  EXPECT_THAT(rows, HasSubstr("DO NOT EDIT"));
  EXPECT_THAT(rows, HasSubstr("{\"add\", \"add.Tensor\", PyRole::kFunction},\n"
                              "    {\"add\", \"add.Tensor\", PyRole::kMethod},\n"
                              "    {\"add_\", \"add_.Tensor\", PyRole::kMethod},\n"
                              "    {\"add\", \"add.out\", PyRole::kOut},\n"
                              "    {\"sum\", \"sum.IntList_out\", PyRole::kOut},\n"));
  // add_ is a method only; out= ops are never methods.
  EXPECT_THAT(rows, Not(HasSubstr("\"add_.Tensor\", PyRole::kFunction")));
  EXPECT_THAT(rows, Not(HasSubstr("\"add.out\", PyRole::kMethod")));
}

TEST(Emit, PythonRowsTryScalarOverloadsAfterTheTensorOnes) {
  Model model(parse_declarations(R"(
- func: eq.Scalar(Tensor self, Scalar other) -> Tensor
  scalar_of: eq.Tensor
  variants: function
- func: eq.Tensor(Tensor self, Tensor other) -> Tensor
  variants: function
  dispatch:
    CPU: eq
)",
                                 "sdk/ops/binary.yaml"),
              {"binary"});
  const std::string rows = emit_python(model).at("op_bindings.inc");
  EXPECT_LT(rows.find("\"eq.Tensor\""), rows.find("\"eq.Scalar\""));
}

TEST(Emit, AMethodTakesTheArgumentsOtherThanSelfInOrderWhereverSelfStands) {
  Model model(parse_declarations(R"(
- func: polygamma(int n, Tensor self) -> Tensor
  variants: function, method
  dispatch:
    CompositeImplicit: polygamma
)",
                                 "sdk/ops/special.yaml"),
              {"special"});
  Files files = emit_sdk(model);
  EXPECT_THAT(files.at("tensor_methods.inc"), HasSubstr("Tensor polygamma(int64_t n) const;"));
  // The dispatcher takes the schema's order, *this in self's place.
  EXPECT_THAT(files.at("tensor_methods.cc"),
              HasSubstr("Tensor Tensor::polygamma(int64_t n) const {\n  return "
                        "op_handles::polygamma().call(n, *this);\n}"));
  EXPECT_THAT(files.at("special.h"), HasSubstr("Tensor polygamma(int64_t n, const Tensor& self);"));
}

// `cpp_name` renames the C++ API's functions of the group and nothing else.
TEST(Emit, CppNameNamesTheApiFunctionsOfTheGroup) {
  Model model(parse_declarations(R"(
- func: complex(Tensor real, Tensor imag) -> Tensor
  structured_group: True
  inplace: False
  meta: complex_parts_op(real, imag)
  math: Complex
  cpp_name: make_complex
)",
                                 "sdk/ops/binary.yaml"),
              {"binary"});
  validate(model);
  Files files = emit_sdk(model);
  const std::string& api = files.at("binary.h");
  EXPECT_THAT(api, HasSubstr("Tensor make_complex(const Tensor& real, const Tensor& imag);"));
  EXPECT_THAT(api, HasSubstr("Tensor& make_complex_out(Tensor& out, const Tensor& real, "
                             "const Tensor& imag);"));
  EXPECT_THAT(api, Not(HasSubstr("Tensor complex(")));
  // The dispatcher handles keep the op's name, in their own namespace.
  EXPECT_THAT(api, HasSubstr("& complex_out();"));
}

// A Scalar overload's kernels call the target's op of their kind, the Scalars it takes as
// Tensors wrapped, the rest as they are, in the target's order.
TEST(Emit, ScalarOverloadsCallTheirTargetWithWrappedScalars) {
  Model model(parse_declarations(R"(
- func: remainder.Tensor(Tensor self, Tensor other) -> Tensor
  structured_group: True
  variants: function, method
  inplace: method
  meta: binary_op(self, other)
  math: Remainder
- func: remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
  scalar_of: remainder.Tensor
  inplace: False
- func: remainder.Scalar(Tensor self, Scalar other) -> Tensor
  scalar_of: remainder.Tensor
  variants: function, method
  inplace: method
)",
                                 "sdk/ops/binary.yaml"),
              {"binary"});
  validate(model);
  const std::string reg = emit_sdk(model).at("binary_register.cc");
  EXPECT_THAT(reg, HasSubstr("Tensor& remainder_Scalar_Tensor_out_CompositeImplicit("
                             "DispatchKeySet, const Scalar& self, const Tensor& other, Tensor& "
                             "out) {\n  return op_handles::remainder_Tensor_out().call("
                             "wrapped_scalar_tensor(self), other, out);\n}"));
  EXPECT_THAT(reg, HasSubstr("return op_handles::remainder__Tensor().call(self, "
                             "wrapped_scalar_tensor(other));"));
  EXPECT_THAT(reg, HasSubstr("lib.impl(\"remainder.Scalar_Tensor\", "
                             "DispatchKey::kCompositeImplicit"));
  EXPECT_THAT(reg, HasSubstr("#include \"sdk/core/scalar_tensor.h\""));
}

TEST(Emit, StructuredGroupsGetMetaAndCommonKernels) {
  Files files = emit_sdk(binary_model());
  const std::string& reg = files.at("binary_register.cc");
  EXPECT_THAT(reg, HasSubstr("lib.impl(\"add.Tensor\", DispatchKey::kCommon"));
  EXPECT_THAT(reg, HasSubstr("lib.impl(\"add_.Tensor\", DispatchKey::kMeta"));
  // Common defers to a backend's own kernel for functional and in-place variants, and runs the
  // meta function before the backend's out= kernel otherwise.
  EXPECT_THAT(reg, HasSubstr("if (op_handles::add_Tensor().has_own_kernel(below."
                             "highest_priority_key())) {"));
  EXPECT_THAT(reg, HasSubstr("op_handles::add_out().redispatch(below, self, other, alpha, "
                             "call.output(0));"));
  // ...handing it the TensorIterator the meta function built, for TensorIterator ops only.
  EXPECT_THAT(reg, HasSubstr("const CommonPlanScope plan(op_handles::add_out(), call);\n"
                             "    op_handles::add_out().redispatch("));
  EXPECT_THAT(reg, Not(HasSubstr("CommonPlanScope plan(op_handles::sum_IntList_out()")));
  EXPECT_THAT(reg, HasSubstr("  op_handles::sum_IntList_out().redispatch(below, self, dim, "));
  EXPECT_THAT(files.at("binary_structured.h"),
              HasSubstr("struct structured_add_out : public TensorIteratorBase {"));
  EXPECT_THAT(files.at("binary_structured.h"),
              HasSubstr("struct structured_sum_IntList_out : public MetaBase {"));
  // Kernels read the declared dtypes from the structured class (sum.IntList_out: all).
  EXPECT_THAT(files.at("binary_structured.h"),
              HasSubstr("static constexpr uint32_t kDtypes = 4095u;"));
  EXPECT_THAT(files.at("binary_structured.cc"),
              HasSubstr("meta::add_op(*this, self, other, alpha);"));
}

TEST(Emit, CpuKernelsComeFromMathOrNamedKernels) {
  Files files = emit_cpu(binary_model());
  EXPECT_THAT(files.at("binary_cpu.cc"),
              HasSubstr("pointwise<math::Add, 4095u>(call, \"add\", alpha);"));
  EXPECT_THAT(files.at("binary_cpu.cc"),
              HasSubstr("cpu::sum_out(call, self, dim, keepdim, dtype, call.output(0));"));
  EXPECT_THAT(files.at("cpu_kernels.h"),
              HasSubstr("void sum_out(structured_sum_IntList_out& op, const Tensor& self, "
                        "std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> "
                        "dtype, const Tensor& out);"));
}

TEST(Emit, ShardedFamiliesDealTheirOpsRoundRobinKeepingVariantsTogether) {
  Files files = emit_cpu(binary_model(), {{"binary", 3}});
  EXPECT_EQ(files.count("binary_cpu.cc"), 0u);
  ASSERT_EQ(files.count("binary_cpu_0.cc"), 1u);
  ASSERT_EQ(files.count("binary_cpu_1.cc"), 1u);
  ASSERT_EQ(files.count("binary_cpu_2.cc"), 1u);
  // add.out and its variants in the first shard, sum.IntList_out in the second, none in the third.
  EXPECT_THAT(files.at("binary_cpu_0.cc"), HasSubstr("pointwise<math::Add, 4095u>"));
  EXPECT_THAT(files.at("binary_cpu_0.cc"), HasSubstr("add__Tensor_CPU"));
  EXPECT_THAT(files.at("binary_cpu_0.cc"), Not(HasSubstr("sum_out")));
  EXPECT_THAT(files.at("binary_cpu_1.cc"), HasSubstr("cpu::sum_out(call, self, dim"));
  EXPECT_THAT(files.at("binary_cpu_1.cc"), Not(HasSubstr("math::Add")));
  EXPECT_THAT(files.at("binary_cpu_2.cc"), HasSubstr("No CPU kernels"));
  EXPECT_THAT(files.at("binary_cpu_2.cc"), Not(HasSubstr("Library")));
}

Model division_model() {
  Model model(parse_declarations(R"(
- func: fmod.Tensor(Tensor self, Tensor other) -> Tensor
  structured_group: True
  inplace: method
  meta: binary_op(self, other)
  math: Fmod
  divisor: other
- func: div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
  structured_group: div.out_mode
  inplace: method
  meta: div_mode_op(self, other, rounding_mode)
  dispatch:
    CPU: div_out_mode
  math:
    - Div when rounding_mode=None dtypes floating
    - DivTrunc when rounding_mode=trunc dtypes integral
  divisor: other
  dtypes: integral, floating
- func: clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
  structured_group: True
  inplace: method
  meta: clamp_tensor_op(self, min, max)
  dispatch:
    CPU: clamp_tensor_out
  math:
    - ClampMax(max)
- func: where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  structured_group: True
  inplace: False
  meta: where_op(condition, self, other)
  math: Where(condition=bool)
)",
                                 "sdk/ops/binary.yaml"),
              {"binary"});
  validate(model);
  return model;
}

TEST(Emit, TheGenericCpuKernelChecksADivisorAndANamedKernelWinsOverMath) {
  const Files files = emit_cpu(division_model(), {});
  const std::string& cpu = files.at("binary_cpu.cc");
  EXPECT_THAT(cpu, HasSubstr("check_no_zero_divisor(call, 1);\n    pointwise<math::Fmod"));
  EXPECT_THAT(cpu, HasSubstr("cpu::div_out_mode(call, self, other, rounding_mode"));
  EXPECT_THAT(cpu, Not(HasSubstr("math::Div")));
}

TEST(Emit, TheGenericCpuKernelReadsBoolInputsAsBoolAndPassesOnlyNumbersToTheFunctor) {
  const Files files = emit_cpu(division_model(), {});
  // where.self's condition (input 0) is declared `condition=bool`: bit 0 of the third template
  // argument; the functor's arguments after the call are its numbers (none).
  EXPECT_THAT(files.at("binary_cpu.cc"),
              ContainsRegex("pointwise<math::Where, [0-9]+u, 1u>\\(call, \"where\"\\);"));
}

TEST(Emit, CudaRowsCarryAlternativesConditionsBoolInputsAndTheDivisor) {
  const std::string rows = emit_cuda(division_model()).at("pointwise_ops.inc");
  // div.out_mode: one row per alternative, each with its dtypes, dtype-error name, divisor
  // (input 1) and condition (rounding_mode, argument 2: None, then "trunc").
  EXPECT_THAT(rows, HasSubstr("{\"div.out_mode\", \"div\", \"Div\", \"div_mode_op\", 960u, "));
  EXPECT_THAT(rows, HasSubstr("\"div\", 0u, 1, 1, {2, -1}, {nullptr, nullptr}},"));
  EXPECT_THAT(rows, HasSubstr("{\"div.out_mode\", \"div\", \"DivTrunc\", \"div_mode_op\", 62u, "));
  EXPECT_THAT(rows, HasSubstr("\"div_trunc\", 0u, 1, 1, {2, -1}, {\"trunc\", nullptr}},"));
  // clamp.Tensor's ClampMax: inputs self (0) and max (2); min is left out.
  EXPECT_THAT(rows, HasSubstr("\"ClampMax\", \"clamp_tensor_op\", 4095u, 2, {0, 2, -1, -1}, 0"));
  // where's condition (input 0) is read as bool.
  EXPECT_THAT(rows, HasSubstr("\"where\", 1u, -1, 0, {-1, -1}, {nullptr, nullptr}},"));
}

TEST(Emit, CudaTablesListMathOpsWithArgumentPositionsAndEveryOpsArguments) {
  Files files = emit_cuda(binary_model());
  // add.out: inputs self (0) and other (1), alpha (2) for Add, out at 3 of 4 arguments.
  EXPECT_THAT(files.at("pointwise_ops.inc"),
              HasSubstr("{\"add.out\", \"add\", \"Add\", \"add_op\", 4095u, 2, {0, 1, -1, -1}, "
                        "1, {2, -1, -1, -1}, {\"Scalar\", nullptr, nullptr, nullptr}, {nullptr, "
                        "nullptr, nullptr, nullptr}, {nullptr, nullptr, nullptr, nullptr}, 3, 4, "
                        "\"sdk/ops/binary.yaml:8\", \"add\", 0u, -1, 0, {-1, -1}, {nullptr, "
                        "nullptr}},"));
  EXPECT_THAT(files.at("pointwise_ops.inc"), Not(HasSubstr("sum.IntList_out")));
  EXPECT_THAT(files.at("op_arguments.inc"),
              HasSubstr("{\"sum.IntList_out\", \"self,dim,keepdim,dtype,out\"},"));
}

// Two reductions declared with `reduce:`: one with an argument, one with values and indices.
Model reduction_model() {
  Model model(parse_declarations(R"(
- func: var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)
  structured: True
  meta: var_op(self, dim, correction, keepdim)
  dispatch:
    CPU: var_out
  reduce: VarianceOps(correction=1)
  reduce_in: self
  dtypes: floating, complex
- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)
  structured: True
  meta: max_dim_op(self, dim, keepdim)
  dispatch:
    CPU: max_dim_out
  reduce: ArgMaxOps
  reduce_in: self
  reduce_outputs: value, index
- func: sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)
  structured: True
  meta: sum_op(self, dim, keepdim, dtype)
  dispatch:
    CPU: sum_out
)",
                                 "sdk/ops/reductions.yaml"),
              {"reductions"});
  validate(model);
  return model;
}

TEST(Emit, CudaReductionTableListsReduceOpsWithArgumentPositions) {
  const std::string table = emit_cuda(reduction_model()).at("reduction_ops.inc");
  // var: self 0, dim 1, keepdim 3, reduced in self's dtype; correction (2) is 1 when None; out 4.
  EXPECT_THAT(table, HasSubstr("{\"var.correction_out\", \"var\", \"VarianceOps\", 4032u, 0, 1, "
                               "3, 0, 1, {2, -1, -1, -1}, {\"1\", nullptr, nullptr, nullptr}, 1, "
                               "{4, -1}, {0, -1}, 5, \"sdk/ops/reductions.yaml:2\"},"));
  // max.dim: the value into `max` (3), the index into `max_values` (4).
  EXPECT_THAT(table, HasSubstr("{\"max.dim_max\", \"max\", \"ArgMaxOps\", 4095u, 0, 1, 2, 0, 0, "
                               "{-1, -1, -1, -1}, {nullptr, nullptr, nullptr, nullptr}, 2, {3, 4}, "
                               "{0, 1}, 5, \"sdk/ops/reductions.yaml:10\"},"));
  EXPECT_THAT(table, Not(HasSubstr("sum.IntList_out")));  // no `reduce:`
}

// Lists and non-tensor results pass through every layer by their C++ types: std::vector<Tensor>
// for `Tensor[]` (returned and taken), the enum for ScalarType.
TEST(Emit, ListAndScalarTypeResultsKeepTheirTypesInApiMethodsAndHandles) {
  Model model(parse_declarations(R"(
- func: split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]
  variants: function, method
  dispatch:
    CompositeExplicit: split
- func: broadcast_tensors(Tensor[] tensors) -> Tensor[]
  dispatch:
    CompositeImplicit: broadcast_tensors
- func: result_type.Scalar(Tensor tensor, Scalar other) -> ScalarType
  dispatch:
    CompositeImplicit: result_type_scalar
)",
                                 "sdk/ops/views.yaml"),
              {"views"});
  validate(model);
  Files files = emit_sdk(model);
  const std::string& api = files.at("views.h");
  EXPECT_THAT(api, HasSubstr("std::vector<Tensor> split(const Tensor& self, int64_t split_size, "
                             "int64_t dim = 0);"));
  EXPECT_THAT(api, HasSubstr("std::vector<Tensor> broadcast_tensors(absl::Span<const Tensor> "
                             "tensors);"));
  EXPECT_THAT(api, HasSubstr("ScalarType result_type(const Tensor& tensor, const Scalar& other);"));
  EXPECT_THAT(api, HasSubstr("const TypedOperatorHandle<std::vector<Tensor>(const Tensor&, "
                             "int64_t, int64_t)>& split_Tensor();"));
  EXPECT_THAT(files.at("tensor_methods.inc"),
              HasSubstr("std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;"));
  EXPECT_THAT(files.at("native_kernels.h"),
              HasSubstr("ScalarType result_type_scalar(const Tensor& tensor, const Scalar& "
                        "other);"));
  // The op table keeps PyTorch's schema, the wildcard alias included.
  EXPECT_THAT(files.at("op_table.cc"),
              HasSubstr("\"split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> "
                        "Tensor(a)[]\""));
}

TEST(Emit, AListOfOutputsComesFirstInTheApiAndAnOpReturningNothingIsVoid) {
  Model model(parse_declarations(R"(
- func: unsafe_split.Tensor_out(Tensor self, int split_size, int dim=0, *, Tensor(a!)[] out) -> ()
  dispatch:
    CompositeImplicit: unsafe_split_out
)",
                                 "sdk/ops/views.yaml"),
              {"views"});
  validate(model);
  Files files = emit_sdk(model);
  const std::string& api = files.at("views.h");
  EXPECT_THAT(api, HasSubstr("void unsafe_split_out(absl::Span<const Tensor> out, const Tensor& "
                             "self, int64_t split_size, int64_t dim = 0);"));
  EXPECT_THAT(api, HasSubstr("const TypedOperatorHandle<void(const Tensor&, int64_t, int64_t, "
                             "absl::Span<const Tensor>)>& unsafe_split_Tensor_out();"));
  EXPECT_THAT(files.at("native_kernels.h"),
              HasSubstr("void unsafe_split_out(const Tensor& self, int64_t split_size, int64_t "
                        "dim, absl::Span<const Tensor> out);"));
  EXPECT_THAT(files.at("ops.md"),
              HasSubstr("| `unsafe_split.Tensor_out` | views | Out | CompositeImplicit |"));
}

TEST(Emit, OpTableListsEveryOp) {
  Files files = emit_sdk(binary_model());
  EXPECT_THAT(files.at("op_table.cc"),
              HasSubstr("{\"add_.Tensor\", \"add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar "
                        "alpha=1) -> Tensor(a!)\", \"binary\", OpKind::kInplace, \"add.out\", "
                        "\"\", \"\", \"CPU (math), Meta, Common\", 4095u, false, true, "
                        "\"sdk/ops/binary.yaml:5\"},"));
  EXPECT_THAT(files.at("ops.md"),
              HasSubstr("| `add.out` | binary | Out | CPU (math), Meta, Common | all |  |"));
}

}  // namespace
}  // namespace bp::codegen
