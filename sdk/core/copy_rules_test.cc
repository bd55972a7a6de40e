#include "sdk/core/copy_rules.h"

#include <functional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/views.h"
#include "sdk/core/warning.h"

namespace bp {
namespace {

using ::testing::ElementsAre;

const Device kCpu(DeviceType::kCPU);

Tensor floats(IntArrayRef sizes) { return native::empty(sizes, ScalarType::kFloat32, kCpu); }

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

TEST(CopyRules, SourceMustBroadcastToTheDestinationShape) {
  check_copy_shape(floats({2, 3}), floats({3}));
  check_copy_shape(floats({2, 3}), floats({}));
  check_copy_shape(floats({2, 3}), floats({2, 1}));
  // Leading size-1 dims are dims of the broadcast shape: self cannot take them.
  EXPECT_EQ(message_of([] {
              check_copy_shape(floats({2, 3}), floats({1, 2, 3}));
            }),
            "output with shape [2, 3] doesn't match the broadcast shape [1, 2, 3]");
  EXPECT_EQ(message_of([] {
              check_copy_shape(floats({2}), floats({3, 2}));
            }),
            "output with shape [2] doesn't match the broadcast shape [3, 2]");
  EXPECT_EQ(message_of([] { check_copy_shape(floats({2}), floats({3})); }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
}

TEST(CopyRules, OnlyTheSameElementsInTheSameDtypeAreANoop) {
  Tensor t = floats({2, 3});
  EXPECT_TRUE(copy_is_noop(t, t));
  EXPECT_TRUE(copy_is_noop(t, native::alias(t)));
  EXPECT_TRUE(copy_is_noop(t, native::transpose(native::transpose(t, 0, 1), 0, 1)));
  EXPECT_FALSE(copy_is_noop(t, floats({2, 3})));
  EXPECT_FALSE(copy_is_noop(native::select(t, 0, 0), native::select(t, 0, 1)));
  Tensor square = floats({3, 3});
  EXPECT_FALSE(copy_is_noop(square, native::transpose(square, 0, 1)));
}

TEST(CopyRules, WarnsOnceWhenImaginaryPartsAreDropped) {
  Tensor c = native::empty({2}, ScalarType::kComplex64, kCpu);
  WarningCapture capture;
  warn_if_copy_discards_imaginary(c, c);                      // complex to complex
  warn_if_copy_discards_imaginary(floats({2}), floats({2}));  // real to real
  // complex to bool reads both parts (before the warning is used up: it is issued once).
  warn_if_copy_discards_imaginary(native::empty({2}, ScalarType::kBool, kCpu), c);
  EXPECT_TRUE(capture.messages().empty());
  warn_if_copy_discards_imaginary(floats({2}), c);
  warn_if_copy_discards_imaginary(floats({2}), c);
  EXPECT_THAT(capture.messages(),
              ElementsAre("Casting complex values to real discards the imaginary part"));
}

}  // namespace
}  // namespace bp
