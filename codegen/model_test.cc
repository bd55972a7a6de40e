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

TEST(Model, RejectsBadDeclarationsWithFileAndLine) {
  EXPECT_EQ(
      error_of("- func: add(Tensor self) -> Tensor\n  dispatch:\n    CPU: add\n  colour: red\n"),
      "sdk/ops/binary.yaml:4: unknown key 'colour' (known keys: func, variants, structured, "
      "structured_delegate, structured_inherits, dispatch, tags, meta, math, dtypes, "
      "device_check)");
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

TEST(Model, DtypeSetsCombineNamesAndGroups) {
  EXPECT_EQ(parse_dtype_set("all"), 0xFFFu);
  EXPECT_EQ(parse_dtype_set("bool, floating"), 0x3C1u);
  EXPECT_THROW(parse_dtype_set(""), std::invalid_argument);
}

}  // namespace
}  // namespace bp::codegen
