#include "sdk/core/error.h"

#include <string>

#include "gtest/gtest.h"

namespace bp {
namespace {

TEST(Error, CheckThrowsWithConcatenatedMessageAndCode) {
  try {
    BP_CHECK(1 + 1 == 3, "expected ", 3, " but got ", 2);
    FAIL() << "BP_CHECK did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(e.message(), "expected 3 but got 2");
    EXPECT_STREQ(e.what(), "expected 3 but got 2");
  }
}

TEST(Error, CheckDoesNotEvaluateMessageWhenConditionHolds) {
  int evaluated = 0;
  auto count = [&] { return ++evaluated; };
  BP_CHECK(true, "never built ", count());
  EXPECT_EQ(evaluated, 0);
}

TEST(Error, KindedChecksCarryTheirCode) {
  EXPECT_THROW(
      {
        try {
          BP_CHECK_INDEX(false, "Dimension out of range");
        } catch (const Error& e) {
          EXPECT_EQ(e.code(), ErrorCode::kIndexError);
          EXPECT_EQ(error_code_name(e.code()), "IndexError");
          throw;
        }
      },
      Error);
  try {
    BP_CHECK_TYPE(false, "bad dtype");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeError);
  }
  try {
    BP_CHECK_NOT_IMPLEMENTED(false, "no kernel");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotImplemented);
  }
}

TEST(Error, InternalAssertNamesFileLineAndCondition) {
  try {
    BP_INTERNAL_ASSERT(2 < 1, "extra ", 7);
    FAIL() << "BP_INTERNAL_ASSERT did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
    const std::string& m = e.message();
    EXPECT_EQ(m.rfind("internal error at ", 0), 0u) << m;
    EXPECT_NE(m.find("error_test.cc:"), std::string::npos) << m;
    EXPECT_NE(m.find("2 < 1 failed: extra 7"), std::string::npos) << m;
  }
}

TEST(Error, WithContextPrefixesTheOpName) {
  Error e(ErrorCode::kInvalidArgument, "The size of tensor a (3) must match");
  Error named = e.with_context("add");
  EXPECT_EQ(named.message(), "[add] The size of tensor a (3) must match");
  EXPECT_EQ(named.code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace bp
