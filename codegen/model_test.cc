#include "codegen/model.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::codegen {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kAdd = R"(
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  variants: function, method
  tags: [pointwise, core]

- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  meta: add_op(self, other, alpha)
  math: Add(alpha)
  dtypes: integral, float32
)";

Model model_of(const std::string& text) {
  Model model(parse_declarations(text, "sdk/ops/binary.yaml"), {"binary"});
  validate(model);
  return model;
}

// The message of the CodegenError that loading `text` throws.
std::string error_of(const std::string& text) {
  try {
    model_of(text);
  } catch (const CodegenError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Model, ParsesEveryFieldOfADeclaration) {
  Model model = model_of(kAdd);
  const OpDecl& out = model.op("add.out");
  EXPECT_EQ(out.loc.str(), "sdk/ops/binary.yaml:7");
  EXPECT_EQ(out.family, "binary");
  EXPECT_EQ(out.kind(), OpKind::kOut);
  EXPECT_TRUE(out.structured);
  EXPECT_EQ(out.meta->function, "add_op");
  EXPECT_THAT(out.meta->args, ElementsAre("self", "other", "alpha"));
  EXPECT_EQ(out.math->function, "Add");
  EXPECT_EQ(out.dtypes, 0x3Eu | (1u << 8));
  const OpDecl& functional = model.op("add.Tensor");
  EXPECT_EQ(functional.kind(), OpKind::kFunctional);
  EXPECT_TRUE(functional.method_variant);
  EXPECT_THAT(functional.tags, ElementsAre("pointwise", "core"));
  ASSERT_EQ(model.delegates_of(out).size(), 1u);
  EXPECT_EQ(model.delegates_of(out)[0], &functional);
}

TEST(Model, InplaceOpsAreRecognisedByTheirNameAndWrittenSelf) {
  Model model = model_of(R"(
- func: neg_(Tensor(a!) self) -> Tensor(a!)
  dispatch:
    CPU: neg_
)");
  EXPECT_EQ(model.op("neg_").kind(), OpKind::kInplace);
}

TEST(Model, AMethodNeedsAPositionalTensorSelfAnywhereInItsArguments) {
  // PyTorch's polygamma(int n, Tensor self) is the method x.polygamma(n).
  Model model = model_of(R"(
- func: polygamma(int n, Tensor self) -> Tensor
  variants: function, method
  dispatch:
    CPU: polygamma
)");
  EXPECT_TRUE(model.op("polygamma").method_variant);
  EXPECT_EQ(error_of("- func: f(Tensor x, int n) -> Tensor\n  variants: method\n"
                     "  dispatch:\n    CPU: f\n"),
            "sdk/ops/binary.yaml:1: a method variant needs a positional argument 'Tensor self'");
  EXPECT_EQ(error_of("- func: f(int n, *, Tensor self) -> Tensor\n  variants: method\n"
                     "  dispatch:\n    CPU: f\n"),
            "sdk/ops/binary.yaml:1: a method variant needs a positional argument 'Tensor self'");
  EXPECT_EQ(error_of("- func: f(int n, Tensor? self) -> Tensor\n  variants: method\n"
                     "  dispatch:\n    CPU: f\n"),
            "sdk/ops/binary.yaml:1: a method variant needs a positional argument 'Tensor self'");
}

TEST(Model, RejectsBadDeclarationsWithFileAndLine) {
  EXPECT_EQ(
      error_of("- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU: add\n  colour: red\n"),
      "sdk/ops/binary.yaml:4: unknown key 'colour' (known keys: func, variants, structured, "
      "structured_delegate, structured_inherits, dispatch, tags, meta, math, scan, normalize, "
      "dtypes, device_check, structured_group, alias_of, scalar_of, inplace, inplace_name, "
      "reduce, "
      "reduce_in, "
      "reduce_outputs, divisor, cpp_name)");
  EXPECT_THAT(error_of("\n- func: add(Tensor self -> Tensor\n  dispatch:\n    CPU: add\n"),
              HasSubstr("sdk/ops/binary.yaml:2: schema parse error: schema 'add(Tensor self -> "
                        "Tensor' at column"));
  EXPECT_EQ(error_of("- func: add(Tensor self) -> Tensor\n  structured: True\n"
                     "  meta: unary_op(self)\n  math: Add\n"),
            "sdk/ops/binary.yaml:1: a structured op must be an out= variant");
  EXPECT_THAT(error_of("- func: add(Tensor self) -> Tensor\n  dispatch:\n    CUDA: add_cuda\n"),
              HasSubstr("sdk/ops/binary.yaml:3: dispatch to an undeclared backend 'CUDA'"));
  EXPECT_EQ(error_of("- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU: a\n"
                     "- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU: b\n"),
            "sdk/ops/binary.yaml:4: duplicate op add (first declared at sdk/ops/binary.yaml:1)");
  EXPECT_EQ(error_of("- func: add(Tensor self) -> Tensor\n"),
            "sdk/ops/binary.yaml:1: add has no kernel: declare 'structured', "
            "'structured_delegate' or 'dispatch'");
  EXPECT_EQ(error_of("- func: add(Tensor self) -> Tensor\n  structured_delegate: add.out\n"),
            "sdk/ops/binary.yaml:1: structured_delegate add.out is not declared");
  EXPECT_EQ(error_of("- func: add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  structured: True\n  math: Add\n"),
            "sdk/ops/binary.yaml:1: a structured op needs 'meta: function(args...)'");
  EXPECT_EQ(error_of("- func: add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  structured: True\n  structured_inherits: TensorIteratorBase\n"
                     "  meta: unary_op(x)\n  math: Add\n"),
            "sdk/ops/binary.yaml:1: meta: 'x' is not an argument of add.out");
  EXPECT_EQ(error_of("- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU: add\n"
                     "  dtypes: float33\n"),
            "sdk/ops/binary.yaml:4: unknown dtype or dtype group 'float33' (groups: all, "
            "integral, floating, reduced_floating, complex)");
}

TEST(Model, DelegatesMustTakeTheStructuredOpsArguments) {
  EXPECT_EQ(error_of(std::string(kAdd) +
                     "- func: add_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)\n"
                     "  structured_delegate: add.out\n"),
            "sdk/ops/binary.yaml:13: the arguments of add_.Tensor must be those of add.out "
            "without its outputs");
}

// The fields of two declarations but their locations.
void expect_same_declaration(const OpDecl& got, const OpDecl& want) {
  SCOPED_TRACE(want.name());
  EXPECT_EQ(got.family, want.family);
  EXPECT_EQ(got.schema, want.schema) << to_string(got.schema) << " vs " << to_string(want.schema);
  EXPECT_EQ(got.function_variant, want.function_variant);
  EXPECT_EQ(got.method_variant, want.method_variant);
  EXPECT_EQ(got.structured, want.structured);
  EXPECT_EQ(got.structured_delegate, want.structured_delegate);
  EXPECT_EQ(got.structured_inherits, want.structured_inherits);
  EXPECT_EQ(got.dispatch, want.dispatch);
  EXPECT_EQ(got.tags, want.tags);
  ASSERT_EQ(got.meta.has_value(), want.meta.has_value());
  if (got.meta) {
    EXPECT_EQ(got.meta->function, want.meta->function);
    EXPECT_EQ(got.meta->args, want.meta->args);
  }
  ASSERT_EQ(got.math.has_value(), want.math.has_value());
  if (got.math) {
    EXPECT_EQ(got.math->function, want.math->function);
    EXPECT_EQ(got.math->args, want.math->args);
  }
  EXPECT_EQ(got.dtypes, want.dtypes);
  EXPECT_EQ(got.device_check, want.device_check);
}

void expect_same_declarations(const std::string& shorthand, const std::string& long_form) {
  const std::vector<OpDecl> got = parse_declarations(shorthand, "sdk/ops/binary.yaml");
  const std::vector<OpDecl> want = parse_declarations(long_form, "sdk/ops/binary.yaml");
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) expect_same_declaration(got[i], want[i]);
}

constexpr const char* kHypot = R"(
- func: hypot(Tensor self, Tensor other) -> Tensor
  structured_group: True
  variants: function, method
  inplace: method
  meta: binary_op(self, other)
  math: Hypot
  dtypes: floating
  tags: [pointwise, core]
)";

TEST(StructuredGroup, ExpandsToTheThreeDeclarationsWrittenOut) {
  expect_same_declarations(kHypot, R"(
- func: hypot(Tensor self, Tensor other) -> Tensor
  structured_delegate: hypot.out
  variants: function, method
  tags: [pointwise, core]

- func: hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)
  structured_delegate: hypot.out
  variants: method
  tags: pointwise

- func: hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  meta: binary_op(self, other)
  math: Hypot
  dtypes: floating
  tags: pointwise
)");
}

// The out argument follows the kwarg-only ones; a named CPU kernel goes to the out= op.
TEST(StructuredGroup, ExpandsOverloadsKwargOnlyArgumentsAndNamedKernels) {
  expect_same_declarations(R"(
- func: div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
  structured_group: div.out_mode
  variants: function, method
  inplace: function, method
  meta: div_mode_op(self, other, rounding_mode)
  dispatch:
    CPU: div_out_mode
  dtypes: integral, floating, complex
  tags: pointwise
)",
                           R"(
- func: div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
  structured_delegate: div.out_mode
  variants: function, method
  tags: pointwise

- func: div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)
  structured_delegate: div.out_mode
  variants: function, method
  tags: pointwise

- func: div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  meta: div_mode_op(self, other, rounding_mode)
  dispatch:
    CPU: div_out_mode
  dtypes: integral, floating, complex
  tags: pointwise
)");
}

TEST(StructuredGroup, WithoutInplaceExpandsToFunctionalAndOut) {
  expect_same_declarations(R"(
- func: where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  structured_group: True
  inplace: False
  meta: where_op(condition, self, other)
  math: Where
  tags: [pointwise, core]
)",
                           R"(
- func: where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  structured_delegate: where.self_out
  tags: [pointwise, core]

- func: where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
  structured: True
  structured_inherits: TensorIteratorBase
  meta: where_op(condition, self, other)
  math: Where
  tags: pointwise
)");
}

TEST(StructuredGroup, NamesFollowPyTorchUnlessGiven) {
  const auto names = [](const std::string& text) {
    std::vector<std::string> out;
    for (const OpDecl& op : parse_declarations(text, "sdk/ops/binary.yaml")) {
      out.push_back(op.name());
    }
    return out;
  };
  EXPECT_THAT(names(kHypot), ElementsAre("hypot", "hypot_", "hypot.out"));
  EXPECT_THAT(names("- func: eq.Tensor(Tensor self, Tensor other) -> Tensor\n"
                    "  structured_group: True\n  inplace: method\n"
                    "  meta: comparison_op(self, other)\n  math: Eq\n"),
              ElementsAre("eq.Tensor", "eq_.Tensor", "eq.Tensor_out"));
  // PyTorch's names where its own rule does not give them.
  EXPECT_THAT(names("- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
                    "  structured_group: add.out\n  inplace: method\n"
                    "  meta: add_op(self, other, alpha)\n  math: Add(alpha)\n"),
              ElementsAre("add.Tensor", "add_.Tensor", "add.out"));
  EXPECT_THAT(names("- func: pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor\n"
                    "  structured_group: True\n  inplace: method\n  inplace_name: pow_.Scalar\n"
                    "  meta: pow_tensor_scalar_op(self, exponent)\n"
                    "  math: PowTensorScalar(exponent)\n"),
              ElementsAre("pow.Tensor_Scalar", "pow_.Scalar", "pow.Tensor_Scalar_out"));
}

TEST(Model, CppNameMustBeANewIdentifier) {
  const std::string complex =
      "- func: complex(Tensor real, Tensor imag) -> Tensor\n"
      "  structured_group: True\n  inplace: False\n  meta: complex_parts_op(real, imag)\n"
      "  math: Complex\n";
  EXPECT_EQ(*model_of(complex + "  cpp_name: make_complex\n").op("complex.out").cpp_name,
            "make_complex");
  EXPECT_EQ(error_of(complex + "  cpp_name: make complex\n"),
            "sdk/ops/binary.yaml:6: cpp_name: 'make complex' is not a C++ identifier");
  EXPECT_EQ(error_of(complex + "  cpp_name: complex\n"),
            "sdk/ops/binary.yaml:6: cpp_name: complex is the op's own name; remove the key");
}

TEST(StructuredGroup, OpsDelegateToTheOutOpAndPointAtTheEntry) {
  Model model = model_of("# hypot\n" + std::string(kHypot));
  const OpDecl& out = model.op("hypot.out");
  EXPECT_EQ(to_string(out.schema),
            "hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(to_string(model.op("hypot_").schema),
            "hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  EXPECT_THAT(model.delegates_of(out), ElementsAre(&model.op("hypot"), &model.op("hypot_")));
  EXPECT_EQ(model.op("hypot_").kind(), OpKind::kInplace);
  EXPECT_THAT(model.op("hypot").tags, ElementsAre("pointwise", "core"));
  EXPECT_THAT(model.op("hypot_").tags, ElementsAre("pointwise"));
  EXPECT_THAT(out.tags, ElementsAre("pointwise"));
  for (const OpDecl& op : model.ops()) EXPECT_EQ(op.loc.str(), "sdk/ops/binary.yaml:3");
}

TEST(StructuredGroup, RejectsBadEntriesWithFileAndLine) {
  const std::string hypot = "- func: hypot(Tensor self, Tensor other) -> Tensor\n";
  const std::string group = hypot + "  structured_group: True\n  inplace: method\n";
  const std::string kernels = "  meta: binary_op(self, other)\n  math: Hypot\n";
  EXPECT_EQ(error_of(group + kernels + "  structured: True\n"),
            "sdk/ops/binary.yaml:6: 'structured' is implied by 'structured_group' (the out= op "
            "is structured, and inherits TensorIteratorBase unless it has 'scan' or 'normalize'; "
            "the others delegate to it)");
  EXPECT_THAT(error_of(group + kernels + "  structured_delegate: hypot.out\n"),
              HasSubstr("sdk/ops/binary.yaml:6: 'structured_delegate' is implied by"));
  EXPECT_THAT(error_of(group + kernels + "  structured_inherits: TensorIteratorBase\n"),
              HasSubstr("sdk/ops/binary.yaml:6: 'structured_inherits' is implied by"));
  EXPECT_EQ(error_of("- func: hypot.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  structured_group: True\n  inplace: method\n" +
                     kernels),
            "sdk/ops/binary.yaml:1: structured_group: hypot.out is not a functional op; declare "
            "the group by its functional schema, e.g. 'hypot(Tensor self, Tensor other) -> "
            "Tensor'");
  EXPECT_THAT(error_of("- func: hypot_(Tensor(a!) self) -> Tensor(a!)\n"
                       "  structured_group: True\n  inplace: method\n" +
                       kernels),
              HasSubstr("sdk/ops/binary.yaml:1: structured_group: hypot_ is not a functional op"));
  EXPECT_EQ(error_of("- func: hypot(Tensor(a) self) -> Tensor\n"
                     "  structured_group: True\n  inplace: False\n" +
                     kernels),
            "sdk/ops/binary.yaml:1: structured_group: argument 'self' of hypot has an alias "
            "annotation; a functional op takes none");
  EXPECT_EQ(error_of("- func: hypot(Tensor self, Tensor out) -> Tensor\n"
                     "  structured_group: True\n  inplace: method\n" +
                     kernels),
            "sdk/ops/binary.yaml:1: structured_group: hypot has an argument named 'out', the "
            "name of the out= op's output");
  EXPECT_EQ(error_of("- func: hypot(Tensor self) -> (Tensor, Tensor)\n"
                     "  structured_group: True\n  inplace: method\n" +
                     kernels),
            "sdk/ops/binary.yaml:1: structured_group: hypot must return one Tensor");
  EXPECT_EQ(error_of(hypot + "  structured_group: hypot_out\n  inplace: method\n" + kernels),
            "sdk/ops/binary.yaml:2: structured_group: expected True or the out= op's name "
            "(hypot.<overload>), got 'hypot_out'");
  EXPECT_THAT(error_of(hypot + "  structured_group: atan2.out\n  inplace: method\n" + kernels),
              HasSubstr("got 'atan2.out'"));
  EXPECT_EQ(error_of(hypot + "  structured_group: hypot.out\n  inplace: method\n" + kernels),
            "sdk/ops/binary.yaml:2: structured_group: hypot.out is the name True gives; write "
            "'structured_group: True'");
  EXPECT_EQ(error_of(hypot + "  structured_group: True\n" + kernels),
            "sdk/ops/binary.yaml:1: structured_group: say which variants hypot_ has ('inplace: "
            "method', 'inplace: function, method') or 'inplace: False' when there is no "
            "in-place op");
  EXPECT_EQ(error_of(hypot + "  structured_group: True\n  inplace: both\n" + kernels),
            "sdk/ops/binary.yaml:3: unknown inplace variant 'both' (expected function, method)");
  EXPECT_EQ(error_of(hypot + "  structured_group: True\n  inplace: []\n" + kernels),
            "sdk/ops/binary.yaml:3: inplace: expected function, method or False");
  EXPECT_EQ(error_of(hypot + "  structured_group: True\n  inplace: False\n" +
                     "  inplace_name: hypot_.x\n" + kernels),
            "sdk/ops/binary.yaml:4: inplace_name: there is no in-place op (inplace: False)");
  EXPECT_EQ(error_of(group + "  inplace_name: atan2_\n" + kernels),
            "sdk/ops/binary.yaml:4: inplace_name: expected hypot_.<overload>, got 'atan2_'");
  EXPECT_EQ(error_of(group + "  inplace_name: hypot_\n" + kernels),
            "sdk/ops/binary.yaml:4: inplace_name: hypot_ is the name the rule gives; remove the "
            "key");
  EXPECT_EQ(error_of("- func: where(Tensor condition, Tensor self) -> Tensor\n"
                     "  structured_group: True\n  inplace: method\n" +
                     kernels),
            "sdk/ops/binary.yaml:3: an in-place op needs a first argument 'Tensor self' (or "
            "'inplace: False')");
  EXPECT_EQ(error_of(hypot + "  inplace: method\n  dispatch:\n    CPU: hypot\n"),
            "sdk/ops/binary.yaml:2: 'inplace' belongs to a 'structured_group' entry");
  EXPECT_EQ(error_of(hypot + "  inplace_name: hypot_\n  dispatch:\n    CPU: hypot\n"),
            "sdk/ops/binary.yaml:2: 'inplace_name' belongs to a 'structured_group' entry");
  // The expanded ops follow the rules of declarations written out, at the entry's line.
  EXPECT_EQ(error_of(group + "  meta: binary_op(self, other)\n  math: Hypot(alpha)\n"),
            "sdk/ops/binary.yaml:1: math: 'alpha' is not an argument of hypot.out");
  EXPECT_EQ(error_of(group + "  math: Hypot\n"),
            "sdk/ops/binary.yaml:1: a structured op needs 'meta: function(args...)'");
  EXPECT_EQ(error_of(group + "  meta: binary_op(self, other)\n"),
            "sdk/ops/binary.yaml:1: a structured op needs a CPU kernel: 'math: Functor(...)', "
            "'scan: Ops', 'normalize: Functor', 'reduce: Ops' or 'dispatch: CPU'");
  EXPECT_EQ(error_of(group + kernels + "  scan: Sum\n"),
            "sdk/ops/binary.yaml:1: 'math', 'scan', 'normalize' and 'dispatch: CPU' each give the "
            "CPU kernel; keep one");
  EXPECT_EQ(error_of(group + kernels + "  dispatch:\n    Meta: hypot\n"),
            "sdk/ops/binary.yaml:1: a structured op dispatches to CPU only, not Meta");
  EXPECT_EQ(error_of(group + kernels +
                     "- func: hypot_(Tensor(a!) self, Tensor other) -> "
                     "Tensor(a!)\n  dispatch:\n    CPU: hypot_\n"),
            "sdk/ops/binary.yaml:6: duplicate op hypot_ (first declared at "
            "sdk/ops/binary.yaml:1)");
}

// ---- `reduce:` ----------------------------------------------------------------------------------

constexpr const char* kVarHead =
    "- func: var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool "
    "keepdim=False, Tensor(a!) out) -> Tensor(a!)\n"
    "  structured: True\n"
    "  meta: var_op(self, dim, correction, keepdim)\n"
    "  dispatch:\n"
    "    CPU: var_out\n";

constexpr const char* kMaxDimHead =
    "- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) "
    "max_values) -> (Tensor(a!) values, Tensor(b!) indices)\n"
    "  structured: True\n"
    "  meta: max_dim_op(self, dim, keepdim)\n"
    "  dispatch:\n"
    "    CPU: max_dim_out\n";

constexpr const char* kEq = R"(
- func: eq.Tensor(Tensor self, Tensor other) -> Tensor
  structured_group: True
  variants: function, method
  inplace: method
  meta: comparison_op(self, other)
  math: Eq
)";

// A Scalar overload with `inplace:` stands for its group, named as a structured group's; without
// it, for the one op its schema names.
TEST(ScalarOverload, WithInplaceExpandsToTheGroupEachCallingTheTargetsOpOfItsKind) {
  const Model model = model_of(std::string(kEq) + R"(
- func: eq.Scalar(Tensor self, Scalar other) -> Tensor
  scalar_of: eq.Tensor
  variants: function, method
  inplace: method

- func: remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor
  scalar_of: eq.Tensor
  inplace: False

- func: eq_.Number(Tensor(a!) self, Scalar other) -> Tensor(a!)
  scalar_of: eq.Tensor
  variants: method
)");
  const OpDecl& inplace = model.op("eq_.Scalar");
  EXPECT_EQ(inplace.kind(), OpKind::kInplace);
  EXPECT_TRUE(inplace.method_variant);
  EXPECT_FALSE(inplace.function_variant);
  EXPECT_EQ(scalar_target(model, model.op("eq.Scalar")).name(), "eq.Tensor");
  EXPECT_EQ(scalar_target(model, inplace).name(), "eq_.Tensor");
  EXPECT_EQ(scalar_target(model, model.op("eq.Scalar_out")).name(), "eq.Tensor_out");
  EXPECT_EQ(scalar_target(model, model.op("eq_.Number")).name(), "eq_.Tensor");
  const OpDecl& scalar_self = model.op("remainder.Scalar_Tensor_out");
  EXPECT_EQ(model.find("remainder_.Scalar_Tensor"), nullptr);
  const OpDecl& target = scalar_target(model, scalar_self);
  EXPECT_TRUE(wraps_scalar(scalar_self, target, "self"));
  EXPECT_FALSE(wraps_scalar(scalar_self, target, "other"));
  EXPECT_FALSE(wraps_scalar(scalar_self, target, "out"));
}

// Found while writing model_fuzzer (by reading; 10^6 fuzzed inputs did not reach it): a group
// with an in-place op but no arguments gave the in-place op's first argument an alias out of
// bounds (UBSan: reference binding to null pointer).
TEST(ScalarOverload, RefusesAnInplaceOpWithoutATensorSelfFirst) {
  EXPECT_EQ(error_of(R"(
- func: foo() -> Tensor
  alias_of: bar
  inplace: method
)"),
            "sdk/ops/binary.yaml:4: an in-place op needs a first argument 'Tensor self' (or "
            "'inplace: False')");
  EXPECT_EQ(error_of(std::string(kEq) + R"(
- func: eq.Scalar(Scalar other, Tensor self) -> Tensor
  scalar_of: eq.Tensor
  inplace: method
)"),
            "sdk/ops/binary.yaml:11: an in-place op needs a first argument 'Tensor self' (or "
            "'inplace: False')");
}

TEST(ScalarOverload, RejectsOverloadsThatCannotCallTheirTarget) {
  EXPECT_EQ(error_of(std::string(kEq) + R"(
- func: eq.Scalar(Tensor self, Scalar other) -> Tensor
  scalar_of: ne.Tensor
  inplace: False
)"),
            "sdk/ops/binary.yaml:9: scalar_of: ne.Tensor is not a declared functional op");
  EXPECT_EQ(error_of(std::string(kEq) + R"(
- func: eq.Scalar(Tensor self, Scalar other) -> Tensor
  scalar_of: eq.Tensor
  inplace: method
  dispatch:
    CPU: eq_scalar
)"),
            "sdk/ops/binary.yaml:9: a Scalar overload (scalar_of) takes its kernels from "
            "eq.Tensor; remove structured/dispatch/meta/math/reduce/scan/normalize");
  // Arguments by name: `value` is not the target's `other`.
  EXPECT_EQ(error_of(std::string(kEq) + R"(
- func: eq.Scalar(Tensor self, Scalar value) -> Tensor
  scalar_of: eq.Tensor
)"),
            "sdk/ops/binary.yaml:9: scalar_of: the arguments of eq.Scalar must be those of "
            "eq.Tensor (by name), with at least one Scalar for a Tensor");
  // Nothing to wrap: that is an alias.
  EXPECT_THAT(error_of(std::string(kEq) + R"(
- func: eq.Twin(Tensor self, Tensor other) -> Tensor
  scalar_of: eq.Tensor
)"),
              HasSubstr("with at least one Scalar for a Tensor"));
  EXPECT_EQ(error_of(std::string(kEq) + R"(
- func: eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
  scalar_of: eq.Tensor
  variants: method
  inplace: method
)"),
            "sdk/ops/binary.yaml:9: scalar_of: eq_.Scalar is not a functional op returning one "
            "Tensor");
}

TEST(Reduce, ParsesTheOpsStructItsArgumentsAndWhatEachOutputReceives) {
  Model model =
      model_of(std::string(kVarHead) +
               "  reduce: VarianceOps(correction = 1)\n  reduce_in: self\n" + kMaxDimHead +
               "  reduce: ArgMaxOps\n  reduce_in: self\n" + "  reduce_outputs: value, index\n");
  const ReductionSpec& var = *model.op("var.correction_out").reduction;
  EXPECT_EQ(var.ops, "VarianceOps");
  ASSERT_EQ(var.args.size(), 1u);
  EXPECT_EQ(var.args[0].name, "correction");
  EXPECT_EQ(var.args[0].if_none, "1");
  EXPECT_EQ(var.in, "self");
  EXPECT_THAT(var.outputs, ElementsAre(ReduceResult::kValue));  // the default: values
  const ReductionSpec& max = *model.op("max.dim_max").reduction;
  EXPECT_TRUE(max.args.empty());
  EXPECT_THAT(max.outputs, ElementsAre(ReduceResult::kValue, ReduceResult::kIndex));
}

TEST(Reduce, ReducesInAScalarTypeArgumentAndNotInAnotherArgument) {
  const std::string head =
      "- func: norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ";
  const std::string tail =
      ", Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
      "  meta: norm_dtype_op(self, p, dim, keepdim, dtype)\n  dispatch:\n    CPU: norm_dtype_out\n"
      "  reduce: NormOps(p=2)\n  reduce_in: dtype\n";
  EXPECT_EQ(model_of(head + "ScalarType dtype" + tail).op("norm.dtype_out").reduction->in, "dtype");
  EXPECT_EQ(model_of(head + "ScalarType? dtype=None" + tail).op("norm.dtype_out").reduction->in,
            "dtype");
  EXPECT_EQ(error_of(head + "int dtype" + tail),
            "sdk/ops/binary.yaml:1: reduce_in: 'dtype' is neither self, an output nor a "
            "ScalarType argument of norm.dtype_out");
}

TEST(Reduce, RejectsBadReductionsWithFileAndLine) {
  const std::string var = kVarHead;
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(correction=1)\n"),
            "sdk/ops/binary.yaml:6: reduce: say whose dtype the elements are reduced in "
            "('reduce_in: self', an output or a ScalarType argument)");
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(correction)\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: reduce: 'correction' may be None; say what None means "
            "(correction=<number>)");
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(correction=one)\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:6: reduce: 'one' (the value of correction when None) is not a "
            "number");
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(dim)\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: reduce: 'dim' is not a number (Scalar, float, int or bool)");
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(ddof=1)\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: reduce: 'ddof' is not an argument of var.correction_out");
  EXPECT_EQ(error_of(var + "  reduce: VarianceOps(correction=1)\n  reduce_in: dim\n"),
            "sdk/ops/binary.yaml:1: reduce_in: 'dim' is neither self, an output nor a ScalarType "
            "argument of var.correction_out");
  EXPECT_EQ(error_of(var + "  reduce_in: self\n"),
            "sdk/ops/binary.yaml:6: 'reduce_in' needs 'reduce: Ops(...)'");
  EXPECT_EQ(error_of(std::string(kMaxDimHead) +
                     "  reduce: ArgMaxOps\n  reduce_in: self\n  reduce_outputs: index\n"),
            "sdk/ops/binary.yaml:1: reduce_outputs: 1 results for 2 outputs of max.dim_max");
  EXPECT_EQ(error_of(std::string(kMaxDimHead) +
                     "  reduce: ArgMaxOps\n  reduce_in: self\n  reduce_outputs: value, position\n"),
            "sdk/ops/binary.yaml:8: reduce_outputs: unknown result 'position' (expected value or "
            "index, one per output)");
  EXPECT_EQ(error_of("- func: neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  structured: True\n  structured_inherits: TensorIteratorBase\n"
                     "  meta: unary_op(self)\n  math: Neg\n  reduce: SumOps\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: 'reduce' is for structured reductions (structured: True, no "
            "structured_inherits)");
  EXPECT_EQ(
      error_of(var + "  reduce: VarianceOps(correction=1)\n  reduce_in: self\n" + kMaxDimHead +
               "  reduce: VarianceOps\n  reduce_in: self\n" + "  reduce_outputs: value, index\n"),
      "sdk/ops/binary.yaml:8: reduce: VarianceOps takes 1 arguments at "
      "sdk/ops/binary.yaml:1, 0 here");
}

TEST(MathArguments, NumbersOptionalNumbersAndStrValuesReachTheFunctor) {
  Model model = model_of(R"(
- func: gelu(Tensor self, *, str approximate='none') -> Tensor
  structured_group: True
  inplace: method
  meta: gelu_op(self, approximate)
  math: Gelu(approximate=none|tanh)
  dtypes: floating

- func: logit(Tensor self, float? eps=None) -> Tensor
  structured_group: True
  inplace: method
  meta: unary_float_op(self)
  math: Logit(eps=-1)
  dtypes: floating

- func: round.decimals(Tensor self, *, int decimals) -> Tensor
  structured_group: True
  inplace: method
  meta: unary_op(self)
  math: RoundDecimals(decimals)
  dtypes: floating
)");
  const CallSpec& gelu = *model.op("gelu.out").math;
  EXPECT_THAT(gelu.args, ElementsAre("approximate"));
  EXPECT_THAT(gelu.choices.at("approximate"), ElementsAre("none", "tanh"));
  EXPECT_TRUE(gelu.if_none.empty());
  const CallSpec& logit = *model.op("logit.out").math;
  EXPECT_THAT(logit.args, ElementsAre("eps"));
  EXPECT_EQ(logit.if_none.at("eps"), "-1");
  EXPECT_TRUE(logit.choices.empty());
  EXPECT_THAT(model.op("round.decimals_out").math->args, ElementsAre("decimals"));
}

TEST(MathArguments, RejectsArgumentsTheFunctorCannotTake) {
  const std::string head =
      "- func: f(Tensor self, Tensor other, *, str mode='a', float? eps=None, int n=1) -> Tensor\n"
      "  structured_group: True\n  inplace: False\n  meta: unary_op(self)\n";
  EXPECT_EQ(error_of(head + "  math: F(other)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'other' of f.out is a Tensor; a functor takes "
            "numbers (Scalar, int, float, bool) and str (inputs: other=bool for a bool input, a "
            "Tensor? in an alternative of a list)");
  EXPECT_EQ(error_of(head + "  math: F(eps)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'eps' of f.out may be None: write eps=number, "
            "the value None stands for");
  EXPECT_EQ(error_of(head + "  math: F(n=2)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'n' of f.out is not optional: it takes no "
            "value for None");
  EXPECT_EQ(error_of(head + "  math: F(mode)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'mode' of f.out is a str: list its values, "
            "mode=first|second");
  EXPECT_EQ(error_of(head + "  math: F(n=a|b)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'n' of f.out is not a str: it takes no list of "
            "values");
  EXPECT_EQ(error_of(head + "  math: F(mode=a|)\n"),
            "sdk/ops/binary.yaml:5: math: 'a|' (after mode=) is neither a number (what None "
            "means) nor values a|b (of a str)");
}

TEST(MathArguments, AListOfAlternativesDescribesOpsWhoseMathDependsOnTheirArguments) {
  const Model model = model_of(R"(
- func: clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
  structured_group: True
  inplace: method
  meta: clamp_tensor_op(self, min, max)
  dispatch:
    CPU: clamp_tensor_out
  math:
    - Clamp(min, max) dtypes integral, floating
    - ClampMin(min)
  dtypes: bool, integral, floating

- func: div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor
  structured_group: div.out_mode
  inplace: method
  meta: div_mode_op(self, other, rounding_mode)
  dispatch:
    CPU: div_out_mode
  math:
    - Div when rounding_mode=None
    - DivTrunc when rounding_mode=trunc
  divisor: other

- func: where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
  structured_group: True
  inplace: False
  meta: where_op(condition, self, other)
  math: Where(condition=bool)

- func: nan_to_num(Tensor self, float? nan=None, float? posinf=None) -> Tensor
  structured_group: True
  inplace: method
  meta: nan_to_num_op(self)
  dispatch:
    CPU: nan_to_num_out
  math: NanToNum(nan=0, posinf=max)
)");
  const OpDecl& clamp = model.op("clamp.Tensor_out");
  ASSERT_EQ(clamp.math_cases.size(), 2u);
  EXPECT_EQ(clamp.math->function, "Clamp");  // the first alternative
  EXPECT_EQ(clamp.math_cases[0].dtypes, parse_dtype_set("integral, floating"));
  EXPECT_THAT(clamp.math_cases[1].call.args, ElementsAre("min"));
  EXPECT_EQ(clamp.math_cases[1].dtypes, 0u);
  EXPECT_EQ(clamp.dispatch.at(DispatchTarget::kCPU), "clamp_tensor_out");
  const OpDecl& div = model.op("div.out_mode");
  ASSERT_EQ(div.math_cases.size(), 2u);
  EXPECT_EQ(div.math_cases[0].when[0].first, "rounding_mode");
  EXPECT_EQ(div.math_cases[0].when[0].second, std::nullopt);
  EXPECT_EQ(div.math_cases[1].when[0].second, "trunc");
  EXPECT_EQ(div.divisor, "other");
  EXPECT_FALSE(model.op("div.Tensor_mode").divisor.has_value());  // the out= op's
  EXPECT_THAT(model.op("where.self_out").math->choices.at("condition"), ElementsAre("bool"));
  EXPECT_EQ(model.op("nan_to_num.out").math->if_none.at("posinf"), "max");
}

TEST(MathArguments, DeviceOnlyFormsNeedAHandWrittenCpuKernelAndValidConditions) {
  const std::string head =
      "- func: f(Tensor self, Tensor other, *, str? mode=None, float? eps=None) -> Tensor\n"
      "  structured_group: True\n  inplace: False\n  meta: binary_op(self, other)\n";
  const std::string cpu = "  dispatch:\n    CPU: f_out\n";
  EXPECT_EQ(error_of(head + "  math:\n    - F when mode=a\n    - G\n"),
            "sdk/ops/binary.yaml:1: math: a list of alternatives, optional tensor inputs and dtype "
            "limits (max, lowest) are for device backends: name the CPU kernel too ('dispatch: "
            "CPU')");
  EXPECT_EQ(error_of(head + "  math: F(eps=max)\n"),
            "sdk/ops/binary.yaml:1: math: a list of alternatives, optional tensor inputs and dtype "
            "limits (max, lowest) are for device backends: name the CPU kernel too ('dispatch: "
            "CPU')");
  // A plain input read as bool runs on the generic CPU kernel (where.self, masked_fill).
  EXPECT_EQ(error_of(head + "  math: F(other=bool)\n"), "(no error)");
  EXPECT_EQ(error_of(head + cpu + "  math:\n    - F when eps=a\n"),
            "sdk/ops/binary.yaml:1: math: 'when eps=a': eps is not a str");
  EXPECT_EQ(error_of(head + cpu + "  math:\n    - F when other=None\n"),
            "sdk/ops/binary.yaml:1: math: 'when other=None': other is never None");
  EXPECT_EQ(error_of(head + cpu + "  math:\n    - F when size=None\n"),
            "sdk/ops/binary.yaml:1: math: 'when size': not an argument of f.out");
  EXPECT_EQ(error_of(head + cpu + "  math:\n    - F dtypes complex\n  dtypes: floating\n"),
            "sdk/ops/binary.yaml:1: math: an alternative's dtypes must be among the op's dtypes");
  EXPECT_EQ(error_of(head + "  math: F\n  divisor: eps\n"),
            "sdk/ops/binary.yaml:1: divisor: 'eps' is not a tensor input of f.out");
  // The one-functor form keeps its rules: an optional argument says what None means.
  EXPECT_EQ(error_of(head + cpu + "  math: F(mode)\n"),
            "sdk/ops/binary.yaml:1: math: argument 'mode' of f.out may be None: write "
            "mode=number, the value None stands for");
}

TEST(Model, AWrittenTensorListIsTheOutputOfAnOutOp) {
  Model model = model_of(R"(
- func: unsafe_split.Tensor_out(Tensor self, int split_size, int dim=0, *, Tensor(a!)[] out) -> ()
  dispatch:
    CompositeImplicit: unsafe_split_out
)");
  const OpDecl& op = model.op("unsafe_split.Tensor_out");
  EXPECT_EQ(op.kind(), OpKind::kOut);
  ASSERT_EQ(op.out_arguments().size(), 1u);
  EXPECT_EQ(op.out_arguments()[0]->name, "out");
  ASSERT_EQ(op.non_out_arguments().size(), 3u);
  EXPECT_EQ(op.non_out_arguments()[2]->name, "dim");
  // Structured classes declare one tensor per output: a list cannot be one.
  EXPECT_THAT(error_of(R"(
- func: pieces.out(Tensor self, *, Tensor(a!)[] out) -> ()
  structured: True
  meta: pieces_op(self)
  dispatch:
    CPU: pieces_out
)"),
              HasSubstr("sdk/ops/binary.yaml:2: a structured op's outputs are tensors; 'out' is a "
                        "list"));
}

TEST(Model, DtypeSetsCombineNamesAndGroups) {
  EXPECT_EQ(parse_dtype_set("all"), 0xFFFu);
  EXPECT_EQ(parse_dtype_set("bool, floating"), 0x3C1u);
  EXPECT_THROW(parse_dtype_set(""), std::invalid_argument);
}

TEST(Reduce, WithoutADispatchTheCpuRunsTheGenericKernelWhereItFits) {
  // max.dim without `dispatch: CPU`: cpu::reduce writes its value and index.
  const std::string generic =
      "- func: max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
      "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)\n"
      "  structured: True\n  meta: max_dim_op(self, dim, keepdim)\n"
      "  reduce: ArgMaxOps\n  reduce_in: self\n";
  EXPECT_EQ(error_of(generic + "  reduce_outputs: value, index\n"), "(no error)");
  EXPECT_EQ(error_of(generic + "  reduce_outputs: index, value\n"),
            "sdk/ops/binary.yaml:1: reduce: the generic CPU kernel writes a value, or a value and "
            "an index; name a CPU kernel (dispatch: CPU) for other outputs");
  EXPECT_EQ(error_of("- func: argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, "
                     "Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
                     "  meta: argmax_op(self, dim, keepdim)\n  reduce: ArgMaxOps\n"
                     "  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: reduce: the generic CPU kernel takes 'int dim', 'int[1] dim' "
            "or 'int[1]? dim'; name a CPU kernel (dispatch: CPU) for int?");
  EXPECT_EQ(error_of("- func: cumsum.out(Tensor self, int dim, *, Tensor(a!) out) -> "
                     "Tensor(a!)\n  structured: True\n  meta: cumulative_op(self, dim)\n"
                     "  scan: SumOps\n  reduce: SumOps\n  reduce_in: self\n"),
            "sdk/ops/binary.yaml:1: 'reduce' and 'scan' / 'normalize' each give the CPU kernel; "
            "keep one");
}

TEST(AlongDim, ScanAndNormalizeGroupsAreStructuredOpsOverMetaBase) {
  Model model = model_of(R"(
- func: cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor
  structured_group: True
  variants: function, method
  inplace: method
  meta: cumulative_op(self, dim, dtype)
  scan: Sum
  tags: scan
- func: softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor
  structured_group: True
  inplace: False
  meta: softmax_op(self, dim, dtype)
  normalize: Softmax
  dtypes: floating
)");
  const OpDecl& cumsum = model.op("cumsum.out");
  ASSERT_TRUE(cumsum.scan.has_value());
  EXPECT_EQ(cumsum.scan->function, "Sum");
  EXPECT_TRUE(cumsum.structured);
  EXPECT_FALSE(cumsum.structured_inherits.has_value());
  EXPECT_FALSE(model.op("cumsum").scan.has_value());
  EXPECT_EQ(model.op("cumsum_").structured_delegate, "cumsum.out");
  const OpDecl& softmax = model.op("softmax.int_out");
  ASSERT_TRUE(softmax.normalize.has_value());
  EXPECT_EQ(softmax.normalize->function, "Softmax");
  EXPECT_EQ(model.find("softmax_.int"), nullptr);
}

TEST(AlongDim, RejectsOpsTheFamilyKernelsCannotRun) {
  EXPECT_EQ(error_of("- func: cumsum(Tensor self, int dim) -> Tensor\n  scan: Sum\n"
                     "  dispatch:\n    CPU: cumsum\n"),
            "sdk/ops/binary.yaml:1: 'scan' is only for structured ops");
  EXPECT_EQ(error_of("- func: cumsum(Tensor self, int[1] dim) -> Tensor\n"
                     "  structured_group: True\n  inplace: False\n"
                     "  meta: cumulative_op(self, dim)\n  scan: Sum\n"),
            "sdk/ops/binary.yaml:1: 'scan' needs arguments 'Tensor self' and 'int dim'");
  EXPECT_EQ(error_of("- func: softmax(Tensor self, int dim) -> Tensor\n"
                     "  structured_group: True\n  inplace: False\n"
                     "  meta: softmax_op(self, dim)\n  normalize: Softmax(dim)\n"),
            "sdk/ops/binary.yaml:1: 'normalize' names a functor without arguments");
  EXPECT_EQ(error_of("- func: cumsum.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)\n"
                     "  structured: True\n  structured_inherits: TensorIteratorBase\n"
                     "  meta: cumulative_op(self, dim)\n  scan: Sum\n"),
            "sdk/ops/binary.yaml:1: 'scan' ops run along a dim, not over a TensorIterator: "
            "remove structured_inherits");
}

}  // namespace
}  // namespace bp::codegen
