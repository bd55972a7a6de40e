#include "sdk/dispatch/dispatch_key.h"

#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

std::vector<DispatchKey> keys_of(DispatchKeySet ks) {
  return std::vector<DispatchKey>(ks.begin(), ks.end());
}

TEST(DispatchKey, NamesRoundTrip) {
  EXPECT_EQ(dispatch_key_name(DispatchKey::kCPU), "CPU");
  EXPECT_EQ(dispatch_key_name(plugin_key(3)), "Plugin3");
  EXPECT_EQ(dispatch_key_name(plugin_key(1000)), "Plugin1000");
  EXPECT_EQ(dispatch_key_name(wrapper_key(2)), "Wrapper2");
  EXPECT_EQ(dispatch_key_name(DispatchKey::kTracing), "Tracing");
  EXPECT_EQ(dispatch_key_name(static_cast<DispatchKey>(0x30000)), "Unknown(196608)");
  for (DispatchKey k :
       {DispatchKey::kUndefined, DispatchKey::kCPU, DispatchKey::kCUDA, DispatchKey::kMeta,
        plugin_key(0), plugin_key(15), plugin_key(16), plugin_key(kMaxPluginBackends - 1),
        DispatchKey::kCommon, wrapper_key(0), wrapper_key(kNumWrapperKeys - 1),
        DispatchKey::kTracing, DispatchKey::kCompositeExplicit, DispatchKey::kCompositeImplicit}) {
    EXPECT_EQ(dispatch_key_from_name(dispatch_key_name(k)), k) << k;
  }
  EXPECT_EQ(dispatch_key_from_name("PrivateUse1"), std::nullopt);
  EXPECT_EQ(dispatch_key_from_name("Plugin"), std::nullopt);
  EXPECT_EQ(dispatch_key_from_name("Plugin03"), std::nullopt);
  EXPECT_EQ(dispatch_key_from_name("Plugin" + std::to_string(kMaxPluginBackends)), std::nullopt);
  EXPECT_EQ(dispatch_key_from_name("Wrapper" + std::to_string(kNumWrapperKeys)), std::nullopt);
}

TEST(DispatchKeySet, HighestPriorityIsTracingThenCommonThenBackend) {
  DispatchKeySet ks = DispatchKeySet(plugin_key(0)).add(DispatchKey::kCommon);
  EXPECT_EQ(ks.highest_priority_key(), DispatchKey::kCommon);
  EXPECT_EQ(ks.add(DispatchKey::kTracing).highest_priority_key(), DispatchKey::kTracing);
  EXPECT_EQ(ks.remove(DispatchKey::kCommon).highest_priority_key(), plugin_key(0));
  EXPECT_EQ(DispatchKeySet().highest_priority_key(), DispatchKey::kUndefined);
}

TEST(DispatchKeySet, IteratesHighestPriorityFirst) {
  DispatchKeySet ks = DispatchKeySet(DispatchKey::kCPU)
                          .add(DispatchKey::kTracing)
                          .add(plugin_key(2))
                          .add(wrapper_key(5))
                          .add(DispatchKey::kCommon);
  EXPECT_EQ(keys_of(ks), (std::vector<DispatchKey>{DispatchKey::kTracing, wrapper_key(5),
                                                   DispatchKey::kCommon, plugin_key(2)}));
  EXPECT_EQ(to_string(ks), "DispatchKeySet(Tracing, Wrapper5, Common, Plugin2)");
  EXPECT_EQ(to_string(DispatchKeySet::below(DispatchKey::kCommon)),
            "DispatchKeySet(every backend)");
}

// A call runs on one backend: a set keeps the highest-priority backend added, however many
// plugin backends exist (plugin key numbers go far past 64).
TEST(DispatchKeySet, HoldsTheHighestPriorityBackend) {
  const DispatchKeySet cpu(DispatchKey::kCPU);
  const DispatchKeySet far(plugin_key(5000));
  EXPECT_EQ((cpu | far).backend(), plugin_key(5000));
  EXPECT_EQ((far | cpu).highest_priority_key(), plugin_key(5000));
  EXPECT_EQ((DispatchKeySet(plugin_key(70)) | DispatchKeySet(plugin_key(69))).backend(),
            plugin_key(70));
  EXPECT_EQ((DispatchKeySet(DispatchKey::kMeta) | cpu).backend(), DispatchKey::kMeta);
  EXPECT_TRUE(far.has(plugin_key(5000)));
  EXPECT_FALSE(far.has(plugin_key(4999)));
  EXPECT_FALSE(far.has(DispatchKey::kCommon));
  EXPECT_EQ(far.add(DispatchKey::kCommon).remove(plugin_key(5000)),
            DispatchKeySet(DispatchKey::kCommon));
  EXPECT_EQ(far.remove(plugin_key(1)), far);  // not its backend: unchanged
  // Redispatching below a functionality key keeps the call's backend.
  const DispatchKeySet call = far.add(DispatchKey::kTracing).add(DispatchKey::kCommon);
  EXPECT_EQ(call & DispatchKeySet::below(DispatchKey::kTracing), far.add(DispatchKey::kCommon));
  EXPECT_EQ(call & DispatchKeySet::below(DispatchKey::kCommon), far);
  EXPECT_EQ((call & DispatchKeySet::below(DispatchKey::kCommon)).highest_priority_key(),
            plugin_key(5000));
  EXPECT_TRUE(DispatchKeySet::below(plugin_key(3)).empty());
}

TEST(DispatchKeySet, SetOperationsAndBelow) {
  DispatchKeySet a = DispatchKeySet(DispatchKey::kCPU).add(DispatchKey::kCommon);
  DispatchKeySet b = DispatchKeySet(DispatchKey::kCommon).add(DispatchKey::kTracing);
  EXPECT_EQ(keys_of(a | b), (std::vector<DispatchKey>{DispatchKey::kTracing, DispatchKey::kCommon,
                                                      DispatchKey::kCPU}));
  EXPECT_EQ(keys_of(a & b), (std::vector<DispatchKey>{DispatchKey::kCommon}));
  EXPECT_EQ(keys_of(a - b), (std::vector<DispatchKey>{DispatchKey::kCPU}));
  EXPECT_EQ(keys_of(b - a), (std::vector<DispatchKey>{DispatchKey::kTracing}));
  EXPECT_TRUE(a.has(DispatchKey::kCPU));
  EXPECT_FALSE(a.has(DispatchKey::kCUDA));
  EXPECT_FALSE(DispatchKeySet::below(DispatchKey::kCommon).has(DispatchKey::kCommon));
  EXPECT_TRUE(DispatchKeySet::below(DispatchKey::kCommon).has(plugin_key(15)));
  EXPECT_TRUE(DispatchKeySet::below(DispatchKey::kCommon).has(plugin_key(900)));
  EXPECT_TRUE(DispatchKeySet::below(wrapper_key(3)).has(wrapper_key(2)));
  EXPECT_FALSE(DispatchKeySet::below(wrapper_key(3)).has(wrapper_key(3)));
  EXPECT_FALSE(DispatchKeySet::below(DispatchKey::kTracing).has(DispatchKey::kTracing));
  EXPECT_TRUE(DispatchKeySet::below(DispatchKey::kTracing).has(wrapper_key(kNumWrapperKeys - 1)));
  EXPECT_TRUE(DispatchKeySet::all().has(DispatchKey::kTracing));
  EXPECT_TRUE(DispatchKeySet::all().has(plugin_key(12345)));
  EXPECT_EQ(keys_of(DispatchKeySet::all()).size(), static_cast<size_t>(kNumFunctionalityKeys));
  // Alias keys are never members (calls never carry them).
  EXPECT_TRUE(DispatchKeySet(DispatchKey::kCompositeExplicit).empty());
}

TEST(WrapperKeys, AreHandedOutByNameAndRecycled) {
  const DispatchKey a = register_wrapper_key("dispatch_key_test_a");
  const DispatchKey b = register_wrapper_key("dispatch_key_test_b");
  EXPECT_TRUE(is_wrapper_key(a));
  EXPECT_TRUE(is_wrapper_key(b));
  EXPECT_NE(a, b);
  EXPECT_GT(a, DispatchKey::kCommon);
  EXPECT_LT(b, DispatchKey::kTracing);
  EXPECT_EQ(wrapper_key_name(a), "dispatch_key_test_a");
  EXPECT_EQ(wrapper_key_name(DispatchKey::kCPU), std::nullopt);
  try {
    register_wrapper_key("dispatch_key_test_a");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "wrapper key 'dispatch_key_test_a' is already registered (dispatch key " +
                  dispatch_key_name(a) + ")");
  }
  try {
    register_wrapper_key("bad name");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "invalid wrapper key name 'bad name': expected letters, digits and '_'");
  }
  unregister_wrapper_key(a);
  EXPECT_EQ(wrapper_key_name(a), std::nullopt);
  EXPECT_EQ(register_wrapper_key("dispatch_key_test_c"), a);  // the freed key is reused
  unregister_wrapper_key(a);
  unregister_wrapper_key(b);
  try {
    unregister_wrapper_key(b);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "unregister_wrapper_key: " + dispatch_key_name(b) +
                               " is not a registered wrapper key");
  }
  std::vector<DispatchKey> all;
  for (int i = 0; i < kNumWrapperKeys; ++i) {
    all.push_back(register_wrapper_key("w" + std::to_string(i)));
  }
  try {
    register_wrapper_key("one_too_many");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "cannot register wrapper key 'one_too_many': all " +
                               std::to_string(kNumWrapperKeys) +
                               " wrapper keys are in use; unregister one first");
  }
  for (DispatchKey k : all) unregister_wrapper_key(k);
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
