// The op database as a whole: it covers every op of the registry and every tier-1 op of OPS.md,
// and every entry's samples and reference run for every dtype PyTorch supports.
#include "conformance/ops/database.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/runner/planner.h"
#include "conformance/runner/run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/ops/op_table.h"

namespace bp::conformance {
namespace {

// OPS.md, tier 1, with each op's PyTorch variants.
const char* const kTier1[] = {
    // Factories, memory and copies.
    "empty.memory_format", "empty_strided", "zeros", "zeros.out", "ones", "ones.out", "full",
    "full.out", "arange.start_step", "arange.start_out", "empty_like", "zeros_like", "ones_like",
    "full_like", "fill_.Scalar", "fill_.Tensor", "zero_", "copy_", "clone", "contiguous",
    "_to_copy", "to.dtype", "to.device", "resize_", "resize_as_",
    // Views.
    "view", "reshape", "as_strided", "permute", "transpose.int", "t", "expand", "expand_as",
    "squeeze", "squeeze.dim", "unsqueeze", "select.int", "slice.Tensor", "narrow",
    "flatten.using_ints", "diagonal", "alias",
    // Unary.
    "abs", "abs_", "abs.out", "neg", "neg_", "neg.out", "exp", "exp_", "exp.out", "log", "log_",
    "log.out", "sqrt", "sqrt_", "sqrt.out", "sin", "sin_", "sin.out", "tanh", "tanh_", "tanh.out",
    "sigmoid", "sigmoid_", "sigmoid.out", "erf", "erf_", "erf.out", "ceil", "ceil_", "ceil.out",
    "isnan", "logical_not", "logical_not_", "logical_not.out", "bitwise_not", "bitwise_not_",
    "bitwise_not.out", "nan_to_num", "nan_to_num_", "nan_to_num.out", "reciprocal", "reciprocal_",
    "reciprocal.out",
    // Binary.
    "add.Tensor", "add_.Tensor", "add.out", "add.Scalar", "add_.Scalar", "sub.Tensor",
    "sub_.Tensor", "sub.out", "mul.Tensor", "mul_.Tensor", "mul.out", "mul.Scalar", "mul_.Scalar",
    "div.Tensor", "div_.Tensor", "div.out", "div.Tensor_mode", "div_.Tensor_mode", "div.out_mode",
    "remainder.Tensor", "remainder_.Tensor", "remainder.Tensor_out", "pow.Tensor_Tensor",
    "pow_.Tensor", "pow.Tensor_Tensor_out", "pow.Tensor_Scalar", "pow_.Scalar",
    "pow.Tensor_Scalar_out", "maximum", "maximum.out", "eq.Tensor", "eq_.Tensor", "eq.Tensor_out",
    "eq.Scalar", "eq_.Scalar", "eq.Scalar_out", "lt.Tensor", "lt_.Tensor", "lt.Tensor_out",
    "logical_and", "logical_and_", "logical_and.out", "bitwise_and.Tensor", "bitwise_and_.Tensor",
    "bitwise_and.Tensor_out", "gcd", "gcd_", "gcd.out", "atan2", "atan2_", "atan2.out",
    // Ternary.
    "where.self", "where.self_out", "clamp", "clamp_", "clamp.out", "clamp.Tensor", "clamp_.Tensor",
    "clamp.Tensor_out", "lerp.Scalar", "lerp_.Scalar", "lerp.Scalar_out", "addcmul", "addcmul_",
    "addcmul.out",
    // Reductions.
    "sum.dim_IntList", "sum.IntList_out", "mean.dim", "mean.out", "prod.dim_int", "prod.int_out",
    "amax", "amax.out", "max.dim", "max.dim_max", "argmax", "argmax.out", "var.correction",
    "var.correction_out", "norm.ScalarOpt_dim", "norm.out", "all.dim", "all.out", "any.dim",
    "any.out", "logsumexp", "logsumexp.out"};

TEST(OpDatabase, EveryRegisteredOpHasAnEntry) {
  EXPECT_THAT(ops_without_entry(op_database()), ::testing::IsEmpty());
}

TEST(OpDatabase, EveryTier1OpOfOpsMdHasATier1Entry) {
  for (const char* op : kTier1) {
    const OpEntry* e = op_database().entry_for_op(op);
    ASSERT_NE(e, nullptr) << op;
    EXPECT_EQ(e->tier, 1) << op;
  }
}

// `tags` is "pointwise, core".
bool has_tag(const OpInfo& op, std::string_view tag) {
  std::string_view rest = op.tags;
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    if (rest.substr(0, comma) == tag) return true;
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 2);
  }
  return false;
}

// The variants of an entry come from the declarations (declared_variants); this holds the
// other way round: each structured pointwise group Backplane declares is one entry's variants
// (with the ops the entry leaves out as not in PyTorch), each of its declared kind.
TEST(OpDatabase, EveryStructuredPointwiseGroupIsExactlyOneEntrysVariants) {
  int groups = 0;
  for (const OpInfo& group : op_table()) {
    if (group.structured_group != group.name) continue;  // not a group's structured out= op
    if (!has_tag(group, "pointwise")) continue;
    ++groups;
    std::map<std::string, VariantKind> declared;
    for (const OpInfo& op : op_table()) {
      if (op.structured_group != group.name) continue;
      declared[std::string(op.name)] = op.kind == OpKind::kFunctional ? VariantKind::kFunctional
                                       : op.kind == OpKind::kInplace  ? VariantKind::kInplace
                                                                      : VariantKind::kOut;
    }
    const OpEntry* e = op_database().entry_for_op(group.name);
    ASSERT_NE(e, nullptr) << group.name;
    std::map<std::string, VariantKind> covered;
    size_t outside = 0;
    for (const OpVariant& v : e->variants) {
      // Besides the group's ops, an entry may check one in-place op declared outside it
      // (polygamma_, whose arguments come in another order than polygamma.out's).
      const OpInfo* info = find_op_info(v.op);
      ASSERT_NE(info, nullptr) << v.op;
      if (info->structured_group.empty()) {
        EXPECT_EQ(v.kind, VariantKind::kInplace) << e->name << ": " << v.op;
        EXPECT_EQ(info->kind, OpKind::kInplace) << e->name << ": " << v.op;
        ++outside;
        continue;
      }
      covered[v.op] = v.kind;
    }
    for (const std::string& op : e->not_in_pytorch) {
      ASSERT_TRUE(declared.count(op)) << e->name << ": " << op;
      covered[op] = declared[op];
    }
    EXPECT_EQ(covered, declared) << e->name;
    EXPECT_EQ(covered.size() + outside, e->variants.size() + e->not_in_pytorch.size()) << e->name;
  }
  EXPECT_GE(groups, 36);  // those of unary, binary and ternary.yaml
}

// empty.out is the one out=-only entry: its functional form takes a memory_format it refuses.
TEST(OpDatabase, EveryEntryHasDtypesAndAFunctionalOrInplaceVariantButEmptyOut) {
  for (const OpEntry& e : op_database().entries()) {
    EXPECT_FALSE(e.dtypes.empty()) << e.name;
    if (e.name == "empty.out") {
      EXPECT_NE(e.variant(VariantKind::kOut), nullptr);
      continue;
    }
    EXPECT_TRUE(e.variant(VariantKind::kFunctional) || e.variant(VariantKind::kInplace)) << e.name;
  }
}

// Runs every entry's samples through its reference for every dtype: a reference that throws
// anything but RefError (reading an argument the samples do not give, an internal error) is a
// bug of the entry, reported by the planner as an entry error.
TEST(OpDatabase, EveryEntryPlansEveryDtypeWithoutErrors) {
  for (const OpEntry& e : op_database().entries()) {
    for (ScalarType t : e.dtypes.list()) {
      const Plan plan = plan_cases(e, t, Tolerances::builtin());
      EXPECT_EQ(plan.entry_error, "") << e.name << " " << scalar_type_name(t);
    }
  }
}

TEST(OpDatabase, SamplesAreTheSameForTheSameSeed) {
  const OpEntry* add = op_database().find("add.Tensor");
  ASSERT_NE(add, nullptr);
  const auto a = add->samples(ScalarType::kFloat32, 42);
  const auto b = add->samples(ScalarType::kFloat32, 42);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(describe(a[i]), describe(b[i]));
}

}  // namespace
}  // namespace bp::conformance
