#include "sdk/dispatch/dispatch_key.h"

#include <vector>

#include "gtest/gtest.h"

namespace bp {
namespace {

std::vector<DispatchKey> keys_of(DispatchKeySet ks) {
  return std::vector<DispatchKey>(ks.begin(), ks.end());
}

TEST(DispatchKey, NamesRoundTrip) {
  EXPECT_EQ(dispatch_key_name(DispatchKey::kCPU), "CPU");
  EXPECT_EQ(dispatch_key_name(plugin_key(3)), "Plugin3");
  EXPECT_EQ(dispatch_key_name(DispatchKey::kPlugin15), "Plugin15");
  EXPECT_EQ(dispatch_key_name(DispatchKey::kTracing), "Tracing");
  for (int i = 0; i < kNumDispatchKeys; ++i) {
    auto k = static_cast<DispatchKey>(i);
    EXPECT_EQ(dispatch_key_from_name(dispatch_key_name(k)), k);
  }
  EXPECT_EQ(dispatch_key_from_name("PrivateUse1"), std::nullopt);
}

TEST(DispatchKeySet, HighestPriorityIsTracingThenCommonThenBackend) {
  DispatchKeySet ks = DispatchKeySet(DispatchKey::kPlugin0).add(DispatchKey::kCommon);
  EXPECT_EQ(ks.highest_priority_key(), DispatchKey::kCommon);
  EXPECT_EQ(ks.add(DispatchKey::kTracing).highest_priority_key(), DispatchKey::kTracing);
  EXPECT_EQ(ks.remove(DispatchKey::kCommon).highest_priority_key(), DispatchKey::kPlugin0);
  EXPECT_EQ(DispatchKeySet().highest_priority_key(), DispatchKey::kUndefined);
}

TEST(DispatchKeySet, IteratesHighestPriorityFirst) {
  DispatchKeySet ks = DispatchKeySet(DispatchKey::kCPU)
                          .add(DispatchKey::kTracing)
                          .add(DispatchKey::kPlugin2)
                          .add(DispatchKey::kCommon);
  EXPECT_EQ(keys_of(ks), (std::vector<DispatchKey>{DispatchKey::kTracing, DispatchKey::kCommon,
                                                   plugin_key(2), DispatchKey::kCPU}));
  EXPECT_EQ(to_string(ks), "DispatchKeySet(Tracing, Common, Plugin2, CPU)");
}

TEST(DispatchKeySet, SetOperationsAndBelow) {
  DispatchKeySet a = DispatchKeySet(DispatchKey::kCPU).add(DispatchKey::kMeta);
  DispatchKeySet b = DispatchKeySet(DispatchKey::kMeta).add(DispatchKey::kCUDA);
  EXPECT_EQ(keys_of(a | b),
            (std::vector<DispatchKey>{DispatchKey::kMeta, DispatchKey::kCUDA, DispatchKey::kCPU}));
  EXPECT_EQ(keys_of(a & b), (std::vector<DispatchKey>{DispatchKey::kMeta}));
  EXPECT_EQ(keys_of(a - b), (std::vector<DispatchKey>{DispatchKey::kCPU}));
  EXPECT_TRUE(a.has(DispatchKey::kCPU));
  EXPECT_FALSE(a.has(DispatchKey::kCUDA));
  EXPECT_EQ(keys_of(DispatchKeySet::below(DispatchKey::kMeta)),
            (std::vector<DispatchKey>{DispatchKey::kCUDA, DispatchKey::kCPU}));
  EXPECT_FALSE(DispatchKeySet::below(DispatchKey::kCommon).has(DispatchKey::kCommon));
  EXPECT_TRUE(DispatchKeySet::below(DispatchKey::kCommon).has(DispatchKey::kPlugin15));
  EXPECT_EQ(keys_of(DispatchKeySet::all()).size(), static_cast<size_t>(kNumDispatchKeys - 1));
}

TEST(LocalDispatchKeySet, GuardsNestAndRestore) {
  DispatchKeySet cpu(DispatchKey::kCPU);
  EXPECT_EQ(call_key_set(cpu), cpu);
  {
    IncludeDispatchKeyGuard include(DispatchKey::kTracing);
    EXPECT_EQ(call_key_set(cpu), cpu.add(DispatchKey::kTracing));
    {
      IncludeDispatchKeyGuard again(DispatchKey::kTracing);  // already included: adds nothing
      ExcludeDispatchKeyGuard exclude(DispatchKey::kTracing);
      EXPECT_EQ(call_key_set(cpu), cpu);
    }
    EXPECT_EQ(call_key_set(cpu), cpu.add(DispatchKey::kTracing));
  }
  EXPECT_EQ(call_key_set(cpu), cpu);
}

TEST(LocalDispatchKeySet, GlobalIncludedKeysApplyToEveryCall) {
  add_global_included_key(DispatchKey::kTracing);
  EXPECT_TRUE(call_key_set(DispatchKeySet(DispatchKey::kCPU)).has(DispatchKey::kTracing));
  {
    ExcludeDispatchKeyGuard exclude(DispatchKey::kTracing);
    EXPECT_FALSE(call_key_set(DispatchKeySet(DispatchKey::kCPU)).has(DispatchKey::kTracing));
  }
  remove_global_included_key(DispatchKey::kTracing);
  EXPECT_FALSE(call_key_set(DispatchKeySet(DispatchKey::kCPU)).has(DispatchKey::kTracing));
}

}  // namespace
}  // namespace bp
