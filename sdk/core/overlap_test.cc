#include "sdk/core/overlap.h"

#include "gtest/gtest.h"
#include "sdk/core/empty.h"
#include "sdk/core/error.h"
#include "sdk/core/views.h"

namespace bp {
namespace {

const Device kCpu(DeviceType::kCPU);

Tensor make(IntArrayRef sizes, Device device = kCpu) {
  return native::empty(sizes, ScalarType::kFloat32, device);
}

template <typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

constexpr const char* kPartial =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
    "single memory "
    "location. Please clone() the tensor before performing the operation.";
constexpr const char* kInternal =
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. "
    "Please clone() the tensor before performing the operation.";

TEST(InternalOverlap, ClassifiesDenseExpandedAndStridedTensors) {
  Tensor x = make({3, 4});
  EXPECT_EQ(has_internal_overlap(x), MemOverlap::kNo);
  EXPECT_EQ(has_internal_overlap(native::transpose(x, 0, 1)), MemOverlap::kNo);
  EXPECT_EQ(has_internal_overlap(native::expand(make({1, 4}), {3, 4})), MemOverlap::kYes);
  EXPECT_EQ(has_internal_overlap(native::slice(x, 1, 0, 4, 2)),
            MemOverlap::kTooHard);  // Gaps: not dense.
  EXPECT_EQ(has_internal_overlap(native::as_strided(x, {3, 3}, {1, 1})),
            MemOverlap::kTooHard);  // Overlaps, undetected.
  EXPECT_EQ(has_internal_overlap(native::expand(make({1}), {1})), MemOverlap::kNo);
}

TEST(InternalOverlap, AssertRejectsOnlyCertainOverlap) {
  EXPECT_EQ(message_of([] {
              assert_no_internal_overlap(native::expand(make({4}), {2, 4}));
            }),
            kInternal);
  EXPECT_NO_THROW(assert_no_internal_overlap(native::slice(make({4}), 0, 0, 4, 2)));
}

TEST(OverlapStatus, SameTensorAndSameBytesAreFull) {
  Tensor x = make({2, 3});
  EXPECT_EQ(get_overlap_status(x, x), MemOverlapStatus::kFull);
  EXPECT_EQ(get_overlap_status(x, native::alias(x)), MemOverlapStatus::kFull);
  EXPECT_EQ(get_overlap_status(x, native::view(x, {6})),
            MemOverlapStatus::kPartial);  // Same bytes, other strides.
  EXPECT_EQ(get_overlap_status(x, native::transpose(x, 0, 1)), MemOverlapStatus::kPartial);
}

TEST(OverlapStatus, SlicesOfOneStorageArePartialOrDisjoint) {
  Tensor x = make({10});
  EXPECT_EQ(get_overlap_status(x, native::slice(x, 0, 1, 3)), MemOverlapStatus::kPartial);
  EXPECT_EQ(get_overlap_status(native::slice(x, 0, 0, 5), native::slice(x, 0, 4, 8)),
            MemOverlapStatus::kPartial);
  EXPECT_EQ(get_overlap_status(native::slice(x, 0, 0, 5), native::slice(x, 0, 5, 10)),
            MemOverlapStatus::kNo);
  EXPECT_EQ(get_overlap_status(x, make({10})), MemOverlapStatus::kNo);
  EXPECT_EQ(get_overlap_status(x, native::slice(x, 0, 3, 3)),
            MemOverlapStatus::kNo);  // No elements.
  EXPECT_EQ(get_overlap_status(x, native::slice(x, 0, 0, 10, 2)), MemOverlapStatus::kTooHard);
  EXPECT_EQ(get_overlap_status(x, native::expand(native::slice(x, 0, 0, 1), {4})),
            MemOverlapStatus::kTooHard);
}

TEST(OverlapStatus, WorksOnMetaTensors) {
  Tensor x = make({10}, Device(DeviceType::kMeta));
  EXPECT_EQ(get_overlap_status(native::slice(x, 0, 0, 5), native::slice(x, 0, 2, 6)),
            MemOverlapStatus::kPartial);
  EXPECT_EQ(get_overlap_status(native::slice(x, 0, 0, 5), native::slice(x, 0, 5, 10)),
            MemOverlapStatus::kNo);
}

TEST(OverlapAsserts, UsePyTorchsMessages) {
  Tensor x = make({10});
  EXPECT_EQ(message_of([&] { assert_no_partial_overlap(x, native::slice(x, 0, 1, 3)); }), kPartial);
  EXPECT_NO_THROW(assert_no_partial_overlap(x, x));
  EXPECT_EQ(message_of([&] { assert_no_overlap(x, x); }), kPartial);
  EXPECT_EQ(message_of([&] { assert_no_overlap(x, native::slice(x, 0, 2, 4)); }), kPartial);
  EXPECT_NO_THROW(assert_no_overlap(x, make({10})));
}

}  // namespace
}  // namespace bp
