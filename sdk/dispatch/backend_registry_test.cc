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

TEST(BackendRegistry, PluginGetsADeviceTypeAndAPoolKeyPlusCommon) {
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

TEST(BackendRegistry, SixteenPluginsAtOnceThenAClearErrorAndKeysAreReused) {
  ASSERT_TRUE(list_backends().empty());
  std::vector<DispatchKey> keys;
  for (int i = 0; i < kNumPluginKeys; ++i)
    keys.push_back(register_backend("dev" + std::to_string(i)).key);
  for (int i = 0; i < kNumPluginKeys; ++i) EXPECT_EQ(keys[i], plugin_key(i));
  try {
    register_backend("one_too_many");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(
        e.message(),
        ::testing::StartsWith("cannot register backend 'one_too_many': all 16 plugin dispatch keys "
                              "are in use (by dev0, dev1, "));
    EXPECT_THAT(e.message(), ::testing::EndsWith("dev15); unregister a backend first"));
  }
  unregister_backend("dev3");
  EXPECT_EQ(register_backend("late").key, plugin_key(3));
  unregister_backend("late");
  for (int i = 0; i < kNumPluginKeys; ++i) {
    if (i != 3) unregister_backend("dev" + std::to_string(i));
  }
  EXPECT_TRUE(list_backends().empty());
}

}  // namespace
}  // namespace bp
