#include "sdk/dispatch/backend_registry.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/core/error.h"

namespace bp {
namespace {

TEST(BackendRegistry, BuiltinDeviceTypesMapToTheirKeys) {
  EXPECT_EQ(device_type_key_set(DeviceType::kCPU), DispatchKeySet(DispatchKey::kCPU));
  EXPECT_EQ(device_type_key_set(DeviceType::kCUDA),
            DispatchKeySet(DispatchKey::kCUDA).add(DispatchKey::kCommon));
  EXPECT_EQ(device_type_key_set(DeviceType::kMeta), DispatchKeySet(DispatchKey::kMeta));
}

TEST(BackendRegistry, PluginGetsADeviceTypeAPluginKeyAndCommon) {
  Backend b = register_backend("backend_registry_test_dev");
  EXPECT_TRUE(is_plugin_key(b.key));
  EXPECT_EQ(device_type_name(b.device_type), "backend_registry_test_dev");
  EXPECT_EQ(device_type_key_set(b.device_type), DispatchKeySet(b.key).add(DispatchKey::kCommon));
  EXPECT_EQ(backend_for_key(b.key)->name, "backend_registry_test_dev");
  EXPECT_EQ(find_backend("backend_registry_test_dev")->key, b.key);
  EXPECT_THAT([] { register_backend("backend_registry_test_dev"); },
              ::testing::ThrowsMessage<Error>(
                  "backend 'backend_registry_test_dev' is already registered (dispatch key " +
                  std::string(dispatch_key_name(b.key)) + ")"));
  unregister_backend("backend_registry_test_dev");
  EXPECT_TRUE(device_type_key_set(b.device_type).empty());
  EXPECT_FALSE(backend_for_key(b.key).has_value());
  EXPECT_FALSE(find_backend("backend_registry_test_dev").has_value());
  EXPECT_THAT([] { unregister_backend("backend_registry_test_dev"); },
              ::testing::ThrowsMessage<Error>(
                  "no backend named 'backend_registry_test_dev' is registered"));
}

// Keys are numbers handed out and recycled, not a pool: 64 backends at once, the lowest free
// number for the next one, and a second round of 64 reusing the first round's numbers.
TEST(BackendRegistry, SixtyFourPluginsAtOnceThenSixtyFourMoreReuseTheirKeys) {
  ASSERT_TRUE(list_backends().empty());
  constexpr int kCount = 64;
  for (int round = 0; round < 2; ++round) {
    std::vector<Backend> backends;
    for (int i = 0; i < kCount; ++i)
      backends.push_back(register_backend("dev" + std::to_string(i)));
    for (int i = 0; i < kCount; ++i) {
      EXPECT_EQ(backends[i].key, plugin_key(i));
      EXPECT_EQ(dispatch_key_name(backends[i].key), "Plugin" + std::to_string(i));
      EXPECT_EQ(device_type_key_set(backends[i].device_type),
                DispatchKeySet(plugin_key(i)).add(DispatchKey::kCommon));
      EXPECT_EQ(backend_for_key(plugin_key(i))->name, "dev" + std::to_string(i));
    }
    EXPECT_EQ(list_backends().size(), static_cast<size_t>(kCount));
    unregister_backend("dev3");
    EXPECT_FALSE(backend_for_key(plugin_key(3)).has_value());
    EXPECT_EQ(register_backend("late").key, plugin_key(3));  // the lowest free number
    EXPECT_EQ(register_backend("later").key, plugin_key(kCount));
    unregister_backend("late");
    unregister_backend("later");
    for (int i = 0; i < kCount; ++i) {
      if (i != 3) unregister_backend("dev" + std::to_string(i));
    }
    EXPECT_TRUE(list_backends().empty());
  }
}

}  // namespace
}  // namespace bp
