// Structured ops end to end: the generated functional / in-place / out= wrappers on CPU, the Meta
// key, the out= rules, and the Common key serving a plugin that registers only add.out.
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"
#include "sdk/core/views.h"
#include "sdk/core/warning.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const Device kCpu(DeviceType::kCPU);
const Device kMeta(DeviceType::kMeta);

Tensor floats(std::vector<int64_t> sizes, std::vector<float> values) {
  Tensor t = empty(sizes, ScalarType::kFloat32, kCpu);
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(float));
  return t;
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  Tensor c = t.is_contiguous() ? t : clone(t, MemoryFormat::kContiguous);
  const T* p = c.data_ptr<T>();
  return std::vector<T>(p, p + c.numel());
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

TEST(Structured, FunctionalInplaceAndOutVariantsAgree) {
  Tensor a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = floats({3}, {10, 20, 30});
  Tensor functional = add(a, b, 2);
  EXPECT_THAT(values_of<float>(functional), ElementsAre(21, 42, 63, 24, 45, 66));
  Tensor out = empty({2, 3}, ScalarType::kFloat32, kCpu);
  Tensor& returned = add_out(out, a, b, 2);
  EXPECT_TRUE(returned.is_same(out));
  EXPECT_EQ(values_of<float>(out), values_of<float>(functional));
  Tensor self = clone(a);
  const uint32_t version = self.version();
  Tensor& inplace = self.add_(b, 2);
  EXPECT_TRUE(inplace.is_same(self));
  EXPECT_EQ(values_of<float>(self), values_of<float>(functional));
  EXPECT_GT(self.version(), version);
}

TEST(Structured, ScalarOverloadPromotesAsANumber) {
  Tensor i = empty({3}, ScalarType::kInt32, kCpu);
  fill_(i, 2);
  Tensor r = add(i, Scalar(0.5));
  EXPECT_EQ(r.dtype(), ScalarType::kFloat32);
  EXPECT_THAT(values_of<float>(r), ElementsAre(2.5f, 2.5f, 2.5f));
  Tensor j = add(i, Scalar(int64_t{3}));
  EXPECT_EQ(j.dtype(), ScalarType::kInt32);
  EXPECT_THAT(values_of<int32_t>(j), ElementsAre(5, 5, 5));
}

TEST(Structured, MetaKeyGivesShapesStridesAndDtypesWithoutData) {
  Tensor a = empty({4, 1, 3}, ScalarType::kInt32, kMeta);
  Tensor b = empty_strided({5, 1}, {1, 1}, ScalarType::kFloat16, kMeta);
  Tensor r = add(a, b);
  EXPECT_EQ(r.device(), kMeta);
  EXPECT_THAT(r.sizes(), ElementsAre(4, 5, 3));
  EXPECT_THAT(r.strides(), ElementsAre(15, 3, 1));
  EXPECT_EQ(r.dtype(), ScalarType::kFloat16);
  EXPECT_EQ(r.data_ptr(), nullptr);
  // The same inputs on CPU give the same geometry.
  Tensor rc = add(empty({4, 1, 3}, ScalarType::kInt32, kCpu),
                  empty_strided({5, 1}, {1, 1}, ScalarType::kFloat16, kCpu));
  EXPECT_EQ(rc.sizes(), r.sizes());
  EXPECT_EQ(rc.strides(), r.strides());
  EXPECT_EQ(exp(empty({2}, ScalarType::kInt64, kMeta)).dtype(), ScalarType::kFloat32);
}

TEST(Structured, OutOfTheWrongDtypeOrSizeFollowsPyTorch) {
  Tensor a = floats({2}, {1, 2});
  Tensor int_out = empty({2}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(message_of([&] { add_out(int_out, a, a); }),
            "result type float32 can't be cast to the desired output type int64");
  // A zero-size out is resized silently; one with elements is resized with a warning.
  Tensor empty_out = empty({0}, ScalarType::kFloat32, kCpu);
  {
    WarningCapture capture;
    add_out(empty_out, a, a);
    EXPECT_TRUE(capture.messages().empty());
  }
  EXPECT_THAT(empty_out.sizes(), ElementsAre(2));
  EXPECT_THAT(values_of<float>(empty_out), ElementsAre(2, 4));
  Tensor big_out = empty({5}, ScalarType::kFloat32, kCpu);
  WarningCapture capture;
  add_out(big_out, a, a);
  EXPECT_THAT(big_out.sizes(), ElementsAre(2));
  ASSERT_EQ(capture.messages().size(), 1u);
  EXPECT_THAT(capture.messages()[0], HasSubstr("An output with one or more elements was resized "
                                               "since it had shape [5], which does not match "
                                               "the required output shape [2]"));
}

TEST(Structured, OutOverlappingAnInputPartiallyIsAnError) {
  Tensor base = floats({4}, {1, 2, 3, 4});
  Tensor in = native::slice(base, 0, 0, 3);
  Tensor out = native::slice(base, 0, 1, 4);
  EXPECT_THAT(message_of([&] { add_out(out, in, in); }),
              HasSubstr("unsupported operation: some elements of the input tensor and the "
                        "written-to tensor refer to a single memory location."));
}

TEST(Structured, InplaceOutputCannotBroadcastOrChangeDtype) {
  Tensor a = floats({2}, {1, 2});
  Tensor b = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(message_of([&] { a.add_(b); }),
            "output with shape [2] doesn't match the broadcast shape [3, 2]");
  Tensor i = empty({2}, ScalarType::kInt64, kCpu);
  EXPECT_EQ(message_of([&] { i.add_(a); }),
            "result type float32 can't be cast to the desired output type int64");
}

TEST(Structured, OpSpecificMetaChecks) {
  Tensor flags = empty({2}, ScalarType::kBool, kCpu);
  EXPECT_EQ(message_of([&] { neg(flags); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead.");
  Tensor ints = empty({2}, ScalarType::kInt32, kCpu);
  EXPECT_EQ(message_of([&] { add(ints, ints, 1.5); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
}

// A plugin backend that implements only add.out (on its host-memory device): Common gives it
// add and add_, with shape checks and output allocation on its device.
class AddOutOnlyPlugin : public ::testing::Test {
 protected:
  static inline int calls = 0;
  // Same-shaped contiguous float32 operands only: what these tests pass.
  static Tensor& add_out_kernel(DispatchKeySet, const Tensor& self, const Tensor& other,
                                const Scalar& alpha, Tensor& out) {
    ++calls;
    EXPECT_EQ(out.sizes(), self.sizes());
    const std::vector<float> x = FakeDevice::to_floats(self);
    const std::vector<float> y = FakeDevice::to_floats(other);
    float* o = static_cast<float*>(out.data_ptr());
    const float a = alpha.to<float>();
    for (size_t i = 0; i < x.size(); ++i) o[i] = x[i] + a * y[i];
    return out;
  }

  FakeDevice dev{"add_out_only"};
  Library lib{"bp"};
  void SetUp() override {
    calls = 0;
    lib.impl("add.out", dev.key(), KernelFunction::make_from_unboxed<&add_out_kernel>());
  }
};

TEST_F(AddOutOnlyPlugin, GetsFunctionalAndInplaceThroughCommon) {
  Tensor a = dev.from_floats({2, 2}, {1, 2, 3, 4});
  Tensor b = dev.from_floats({2, 2}, {10, 20, 30, 40});
  Tensor r = add(a, b);
  EXPECT_EQ(r.device(), dev.device());
  EXPECT_THAT(FakeDevice::to_floats(r), ElementsAre(11, 22, 33, 44));
  a.add_(b, 2);
  EXPECT_THAT(FakeDevice::to_floats(a), ElementsAre(21, 42, 63, 84));
  EXPECT_EQ(calls, 2);
}

TEST_F(AddOutOnlyPlugin, ShapeErrorsComeFromTheSharedMetaFunction) {
  Tensor a = dev.from_floats({2}, {1, 2});
  Tensor b = dev.from_floats({3}, {1, 2, 3});
  EXPECT_EQ(message_of([&] { add(a, b); }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 0");
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace bp
