// The CPU kernels of the ops along one dim (cpu::scan, cpu::normalize) beyond what the conformance
// suite checks: the result dtypes a declaration excludes.
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "reference_backend/cpu/test_util.h"
#include "sdk/ops/ops.h"

namespace bp {
namespace {

using namespace bp::test;  // NOLINT: test helpers
using ST = ScalarType;

// torch.cumsum sums bool inputs in int64 (torch.cumsum(tensor([True, False, True]), 0) is
// [1, 1, 2]), but has no bool kernel: dtype=torch.bool, a bool out= and cumsum_ on a bool tensor
// raise "\"cumsum_out_cpu\" not implemented for 'Bool'".
TEST(Cumsum, SumsBoolInputsInInt64ButRaisesForABoolResult) {
  const Tensor flags = tensor_of(ST::kBool, {1, 0, 1});
  expect_int_values(cumsum(flags, 0), ST::kInt64, {1, 1, 2});
  Tensor int32_out = empty({3}, ST::kInt32, kCpu);
  expect_int_values(cumsum_out(int32_out, flags, 0), ST::kInt32, {1, 1, 2});

  const std::string message = "\"cumsum\" not implemented for 'bool'";
  EXPECT_EQ(message_of([&] { cumsum(flags, 0, ST::kBool); }), message);
  EXPECT_EQ(message_of([&] { cumsum(tensor_of(ST::kFloat32, {1, 0, 2}), 0, ST::kBool); }), message);
  Tensor bool_out = empty({3}, ST::kBool, kCpu);
  EXPECT_EQ(message_of([&] {
              cumsum_out(bool_out, tensor_of(ST::kFloat32, {1, 0, 2}), 0);
            }),
            message);
  Tensor in_place = tensor_of(ST::kBool, {1, 0, 1});
  EXPECT_EQ(message_of([&] { in_place.cumsum_(0); }), message);
  expect_values(in_place, ST::kBool, {1, 0, 1});  // unchanged
}

}  // namespace
}  // namespace bp
