#include "conformance/fusion/random_chains.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/fusion/lazy.h"
#include "sdk/ops/ops.h"

namespace bp::conformance {
namespace {

using ::testing::HasSubstr;

const Device kCpu(DeviceType::kCPU);

TEST(RandomChains, ThousandsOfChainsOnTheCpuMatchEager) {
  const RandomChainsReport r = check_random_chains(kCpu, 3000, /*seed=*/20261128);
  EXPECT_EQ(r.mismatches, 0) << to_string(r);
  EXPECT_EQ(r.chains, 3000);
  // The chains exercise fusion: most calls ran inside fused groups, most results are exact.
  EXPECT_GT(r.ops, 3000 * 3);
  EXPECT_GT(r.fused_ops, r.ops / 3) << to_string(r);
  EXPECT_GT(r.bitwise, r.compared * 9 / 10) << to_string(r);
}

TEST(RandomChains, AWrongFusedResultIsCaughtAndReported) {
  // A "fused" run that perturbs the chain's inputs: every chain whose result depends on them
  // must be reported.
  int64_t runs = 0;
  const RandomChainsReport r =
      check_random_chains(kCpu, 50, /*seed=*/7, [&](const std::function<void()>& chain) {
        ++runs;
        fusion::LazyScope scope;
        chain();
        throw std::runtime_error("injected failure");
      });
  EXPECT_EQ(runs, 50);
  EXPECT_EQ(r.mismatches, 50);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_THAT(r.failures[0], HasSubstr("fused: injected failure"));
  EXPECT_THAT(r.failures[0], HasSubstr("%0 = input "));
}

}  // namespace
}  // namespace bp::conformance
