#include "conformance/framework/declared_variants.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// "hypot:functional hypot_:inplace hypot.out:out".
std::vector<std::string> described(const std::vector<OpVariant>& variants) {
  std::vector<std::string> out;
  for (const OpVariant& v : variants) {
    out.push_back(v.op + ":" + std::string(variant_kind_name(v.kind)));
  }
  return out;
}

std::string error_of(std::string_view op, const std::vector<std::string>& not_in_pytorch) {
  try {
    declared_variants(op, not_in_pytorch);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DeclaredVariants, AreTheOpsOfAStructuredGroup) {
  EXPECT_THAT(described(declared_variants("hypot")),
              ElementsAre("hypot:functional", "hypot_:inplace", "hypot.out:out"));
  EXPECT_THAT(described(declared_variants("pow.Tensor_Scalar")),
              ElementsAre("pow.Tensor_Scalar:functional", "pow_.Scalar:inplace",
                          "pow.Tensor_Scalar_out:out"));
  EXPECT_THAT(described(declared_variants("isnan")),
              ElementsAre("isnan:functional", "isnan.out:out"));
}

TEST(DeclaredVariants, IncludeAnInplaceOpWhoseArgumentsComeInAnotherOrder) {
  // polygamma_(Tensor(a!) self, int n) is polygamma(int n, Tensor self)'s in-place op.
  EXPECT_THAT(described(declared_variants("polygamma")),
              ElementsAre("polygamma:functional", "polygamma_:inplace", "polygamma.out:out"));
}

TEST(DeclaredVariants, GroupOtherOpsByTheirSchemaAsTorchgenDoes) {
  EXPECT_THAT(described(declared_variants("add.Scalar")),
              ElementsAre("add.Scalar:functional", "add_.Scalar:inplace"));
  EXPECT_THAT(described(declared_variants("remainder.Scalar")),
              ElementsAre("remainder.Scalar:functional", "remainder_.Scalar:inplace",
                          "remainder.Scalar_out:out"));
  // pow_.Scalar is pow.Tensor_Scalar's in-place op, not pow.Scalar's (a Scalar self).
  EXPECT_THAT(described(declared_variants("pow.Scalar")),
              ElementsAre("pow.Scalar:functional", "pow.Scalar_out:out"));
}

TEST(DeclaredVariants, LeaveOutVariantsPyTorchLacks) {
  EXPECT_THAT(described(declared_variants("hypot", {"hypot_"})),
              ElementsAre("hypot:functional", "hypot.out:out"));
}

TEST(DeclaredVariants, RejectUndeclaredOpsAndStaleSkips) {
  EXPECT_THAT(error_of("hypot.Tensor", {}), HasSubstr("conformance entry 'hypot.Tensor': no op "
                                                      "of that name is declared"));
  EXPECT_THAT(error_of("hypot", {"atan2_"}),
              HasSubstr("conformance entry 'hypot': not_in_pytorch names atan2_, which is not "
                        "one of its declared variants"));
  EXPECT_THAT(error_of("hypot", {"hypot"}), HasSubstr("not_in_pytorch names the entry's own op"));
}

}  // namespace
}  // namespace bp::conformance
