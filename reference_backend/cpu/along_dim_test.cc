// The CPU kernels of the ops along one dim (cpu::scan, cpu::normalize) beyond what the conformance
// suite checks: the result dtypes a declaration excludes, the paired loop of contiguous cumsums.
#include <optional>
#include <string>
#include <vector>

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

// Contiguous lines of cumsum add their elements in pairs (along_dim.h, kPairedScan): lines of
// every length, odd and even, give the sequential running sums (exact here: small integers, and
// float inputs summed in double), including a -0.0 input after a +0 start.
TEST(Cumsum, PairedContiguousLinesOfEveryLengthGiveTheRunningSums) {
  for (int n = 1; n <= 9; ++n) {
    SCOPED_TRACE(n);
    std::vector<double> in, running;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      in.push_back(i == 0 ? -0.0 : static_cast<double>((i * 5) % 7) - 3.0);
      sum += in.back();
      running.push_back(sum);
    }
    for (ST dtype : {ST::kFloat32, ST::kFloat64, ST::kInt64, ST::kInt32}) {
      SCOPED_TRACE(::testing::Message() << dtype);
      expect_values(cumsum(tensor_of(dtype, in), 0, dtype), dtype, running);
    }
  }
}

}  // namespace
}  // namespace bp
