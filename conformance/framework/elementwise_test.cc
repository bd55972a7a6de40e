#include "conformance/framework/elementwise.h"

#include "conformance/framework/expected.h"
#include "conformance/framework/sample.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::conformance {
namespace {

RefTensor ints(Sizes sizes, std::vector<int64_t> values, ScalarType t = ScalarType::kInt32) {
  RefTensor r{t, std::move(sizes), {}};
  for (int64_t v : values) r.values.push_back(from_int(Int(v)));
  return r;
}

TEST(Elementwise, BroadcastsAndComputesInTheComputeDtype) {
  Sample sample;
  RefArgs args(sample);
  const RefTensor a = ints({2, 1}, {1, 2});
  const RefTensor b = ints({3}, {10, 20, 127});
  const ElementFn add = math<kAnyKind>([](auto x, auto y) { return x + y; });
  RefTensor r = elementwise({&a, &b}, ScalarType::kInt8, ScalarType::kInt8, add,
                            Ctx(args, ScalarType::kInt8));
  EXPECT_EQ(r.sizes, (Sizes{2, 3}));
  std::vector<int64_t> got;
  for (const Wide& w : r.values) got.push_back(w.i);
  EXPECT_THAT(got, ::testing::ElementsAre(11, 21, -128, 12, 22, -127));
}

TEST(Elementwise, PredicatesBecomeBooleans) {
  Sample sample;
  RefArgs args(sample);
  RefTensor a{ScalarType::kFloat32, {3}, {from_real(1), from_real(std::nan("")), from_real(3)}};
  const ElementFn isnan = math<kRealKind>([](double x) { return std::isnan(x); });
  RefTensor r = elementwise({&a}, ScalarType::kFloat32, ScalarType::kBool, isnan,
                            Ctx(args, ScalarType::kFloat32));
  EXPECT_EQ(r.values[0].i, 0);
  EXPECT_EQ(r.values[1].i, 1);
}

TEST(Elementwise, ShapesThatDoNotBroadcastRaisePyTorchsMessage) {
  const RefTensor a = ints({2, 3}, {1, 2, 3, 4, 5, 6});
  const RefTensor b = ints({4, 3}, std::vector<int64_t>(12, 0));
  try {
    broadcast_all({&a, &b});
    FAIL() << "no error";
  } catch (const RefError& e) {
    EXPECT_EQ(e.message,
              "The size of tensor a (2) must match the size of tensor b (4) at non-singleton "
              "dimension 0");
  }
}

}  // namespace
}  // namespace bp::conformance
