#include "sdk/core/warning.h"

#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp {
namespace {

using ::testing::ElementsAre;

void collect(const std::string& message, void* user_data) {
  static_cast<std::vector<std::string>*>(user_data)->push_back(message);
}

TEST(Warning, CaptureCollectsThisThreadsWarnings) {
  WarningCapture outer;
  warn("first");
  {
    WarningCapture inner;
    warn("second");
    EXPECT_THAT(inner.messages(), ElementsAre("second"));
  }
  warn("third");
  EXPECT_THAT(outer.messages(), ElementsAre("first", "third"));
}

TEST(Warning, HandlerReceivesWarningsOfThreadsWithoutACapture) {
  std::vector<std::string> seen;
  set_warning_handler(&collect, &seen);
  WarningCapture capture;  // only this thread's
  std::thread([] { warn("from another thread"); }).join();
  warn("captured");
  set_warning_handler(nullptr, nullptr);
  EXPECT_THAT(seen, ElementsAre("from another thread"));
  EXPECT_THAT(capture.messages(), ElementsAre("captured"));
}

}  // namespace
}  // namespace bp
