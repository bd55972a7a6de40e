#include "sdk/version.h"

#include "gtest/gtest.h"

namespace bp {
namespace {

TEST(Version, StringJoinsTheThreeNumbersWithDots) {
  EXPECT_EQ(version_string(), std::to_string(kVersionMajor) + "." + std::to_string(kVersionMinor) +
                                  "." + std::to_string(kVersionPatch));
}

}  // namespace
}  // namespace bp
