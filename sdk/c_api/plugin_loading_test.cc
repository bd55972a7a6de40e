// Plugin loading through the C ABI: clear errors and load records for every way a load fails,
// several plugins at once, unloading, and a plugin built against an older minor version.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Record {
  std::string path, plugin_name, error;
  bool loaded;
  int32_t error_code, plugin_major, plugin_minor, host_major, host_minor;
};

void collect(void* user_data, const bp_plugin_load_record* r) {
  static_cast<std::vector<Record>*>(user_data)->push_back(
      {r->path, r->plugin_name, r->error, r->loaded, r->error_code, r->plugin_major,
       r->plugin_minor, r->host_major, r->host_minor});
}

// The newest load record of `path`.
Record last_record(const std::string& path) {
  std::vector<Record> records;
  check(api(), api()->plugin_load_records(&collect, &records));
  for (auto it = records.rbegin(); it != records.rend(); ++it) {
    if (it->path == path) return *it;
  }
  throw Error(BP_ERROR_INVALID_ARGUMENT, "no load record for " + path);
}

// Loads `file`, expecting a failure; returns the error.
ErrorHandle failed_load(const std::string& file) {
  bp_plugin* plugin = nullptr;
  ErrorHandle error(api(), api()->plugin_load(plugin_path(file).c_str(), &plugin));
  EXPECT_TRUE(error) << file << " loaded";
  return error;
}

TEST(PluginLoading, AMissingFileIsAClearErrorAndALoadRecord) {
  const ErrorHandle error = failed_load("libno_such_plugin.so");
  EXPECT_EQ(error.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error.message(),
            "cannot load plugin 'sdk/c_api/testing/libno_such_plugin.so': no such file");
  const Record r = last_record(plugin_path("libno_such_plugin.so"));
  EXPECT_FALSE(r.loaded);
  EXPECT_EQ(r.error, error.message());
  EXPECT_EQ(r.error_code, BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.plugin_major, -1);
  EXPECT_EQ(r.host_major, BP_API_MAJOR);
  EXPECT_EQ(r.host_minor, BP_API_MINOR);
}

TEST(PluginLoading, ALibraryWithoutTheEntrySymbolIsRefused) {
  const ErrorHandle error = failed_load("libc_not_a_plugin.so");
  EXPECT_EQ(error.message(),
            "plugin 'sdk/c_api/testing/libc_not_a_plugin.so' has no 'bp_plugin_init' symbol: is "
            "it a Backplane plugin? (in C++ the function must be extern \"C\" and exported)");
  EXPECT_FALSE(last_record(plugin_path("libc_not_a_plugin.so")).loaded);
}

TEST(PluginLoading, AnotherMajorVersionIsRefusedWithBothVersions) {
  const ErrorHandle error = failed_load("libc_future_major_plugin.so");
  EXPECT_EQ(error.message(),
            "plugin 'future' (sdk/c_api/testing/libc_future_major_plugin.so) was built against "
            "Backplane C ABI " +
                std::to_string(BP_API_MAJOR + 1) + ".0 but this host provides " +
                std::to_string(BP_API_MAJOR) + "." + std::to_string(BP_API_MINOR) +
                ": the major versions must match (rebuild the plugin)");
  const Record r = last_record(plugin_path("libc_future_major_plugin.so"));
  EXPECT_EQ(r.plugin_name, "future");
  EXPECT_EQ(r.plugin_major, BP_API_MAJOR + 1);
  EXPECT_EQ(r.plugin_minor, 0);
  EXPECT_EQ(r.host_major, BP_API_MAJOR);
}

TEST(PluginLoading, AnInitErrorUndoesWhatThePluginRegistered) {
  const ErrorHandle error = failed_load("libc_test_plugin_failing.so");
  EXPECT_EQ(error.code(), BP_ERROR_UNAVAILABLE);  // the plugin's own code
  EXPECT_EQ(error.message(),
            "plugin 'cplug_fail' (sdk/c_api/testing/libc_test_plugin_failing.so) failed to "
            "initialise: the test device is switched off");
  EXPECT_FALSE(backend_exists("cplug_fail"));  // registered during init, then dropped
  const Record r = last_record(plugin_path("libc_test_plugin_failing.so"));
  EXPECT_EQ(r.plugin_name, "cplug_fail");
  EXPECT_EQ(r.error_code, BP_ERROR_UNAVAILABLE);
  EXPECT_EQ(r.plugin_major, BP_API_MAJOR);
  EXPECT_EQ(r.plugin_minor, BP_API_MINOR);
}

TEST(PluginLoading, ADuplicateBackendNameIsRefused) {
  LoadedPlugin first("libc_test_plugin.so");
  const ErrorHandle error = failed_load("libc_test_plugin.so");
  EXPECT_THAT(error.message(),
              StartsWith("plugin 'cplug' (sdk/c_api/testing/libc_test_plugin.so) failed to "
                         "initialise: backend 'cplug' is already registered"));
  // The first load is untouched.
  const Tensor t = copy_to(filled(BP_DTYPE_FLOAT32, {3}), backend_device("cplug"));
  EXPECT_EQ(Op(api(), "add.Tensor").call({arg(t), arg(t)}).tensor(0).numel(), 3);
}

TEST(PluginLoading, SuccessfulLoadsAreRecordedToo) {
  LoadedPlugin plugin("libc_test_plugin.so");
  const Record r = last_record(plugin_path("libc_test_plugin.so"));
  EXPECT_TRUE(r.loaded);
  EXPECT_EQ(r.plugin_name, "cplug");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.error_code, 0);
  EXPECT_EQ(r.plugin_minor, BP_API_MINOR);
}

struct BackendInfo {
  std::string name, key, plugin;
  int32_t device_type;
};

void collect_backend(void* user_data, const bp_backend_info* b) {
  static_cast<std::vector<BackendInfo>*>(user_data)->push_back(
      {b->name, b->dispatch_key, b->plugin_name, b->device_type});
}

TEST(PluginLoading, SeveralPluginsEachGetTheirOwnKeyAndDeviceType) {
  LoadedPlugin a("libc_test_plugin.so");
  LoadedPlugin b("libc_test_plugin_b.so");
  std::vector<BackendInfo> backends;
  check(api(), api()->backend_list(&collect_backend, &backends));
  ASSERT_EQ(backends.size(), 2u);
  EXPECT_EQ(backends[0].name, "cplug");
  EXPECT_EQ(backends[0].plugin, "cplug");
  EXPECT_EQ(backends[1].name, "cplug_b");
  EXPECT_NE(backends[0].key, backends[1].key);
  EXPECT_THAT(backends[0].key, StartsWith("Plugin"));
  EXPECT_NE(backends[0].device_type, backends[1].device_type);
  EXPECT_GE(backends[0].device_type, BP_DEVICE_FIRST_PLUGIN);

  const Tensor x = filled(BP_DTYPE_INT64, {4}, 2);
  const Op mul(api(), "mul.Tensor");
  const std::vector<uint8_t> want = bytes_of(mul.call({arg(x), arg(x)}).tensor(0));
  for (const char* name : {"cplug", "cplug_b"}) {
    const Tensor d = copy_to(x, backend_device(name));
    const Tensor r = mul.call({arg(d), arg(d)}).tensor(0);
    EXPECT_EQ(r.device().device_type, backend_device(name).device_type);
    EXPECT_EQ(bytes_of(r), want);
  }
  EXPECT_EQ(a.counter("bp_test_plugin_kernel_calls"), 1);
  EXPECT_EQ(b.counter("bp_test_plugin_kernel_calls"), 1);
}

TEST(PluginLoading, UnloadingReleasesKernelsAndKeyAndLaterTheMemory) {
  LoadedPlugin plugin("libc_test_plugin_b.so");
  const bp_device dev = backend_device("cplug_b");
  Tensor survivor = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev);
  EXPECT_EQ(plugin.counter("bp_test_plugin_live_allocations"), 1);
  plugin.unload();
  EXPECT_FALSE(backend_exists("cplug_b"));
  EXPECT_EQ(error_of([&] {
              Op(api(), "add_.Tensor").call({arg(survivor), arg(survivor)});
            }),
            "[add_.Tensor] argument 'self' (position 1) is a tensor on device type 'cplug_b', "
            "whose backend is no longer registered");
  // The memory outlives the backend and goes back to the plugin's allocator at the end.
  EXPECT_EQ(plugin.counter("bp_test_plugin_live_allocations"), 1);
  EXPECT_EQ(plugin.counter("bp_test_plugin_released"), 0);
  survivor = Tensor();
  EXPECT_EQ(plugin.counter("bp_test_plugin_live_allocations"), 0);
  EXPECT_EQ(plugin.counter("bp_test_plugin_released"), 1);
  // The name and a key are free again.
  LoadedPlugin again("libc_test_plugin_b.so");
  EXPECT_TRUE(backend_exists("cplug_b"));
}

TEST(PluginLoading, UnloadingTwiceIsAnErrorNotACrash) {
  bp_plugin* plugin = nullptr;
  check(api(), api()->plugin_load(plugin_path("libc_test_plugin.so").c_str(), &plugin));
  check(api(), api()->plugin_unload(plugin));
  const ErrorHandle error(api(), api()->plugin_unload(plugin));
  EXPECT_EQ(error.message(),
            "bp_api.plugin_unload: unknown plugin handle (it was unloaded, or never loaded)");
}

TEST(PluginLoading, APluginBuiltAgainstAnOlderMinorVersionWorks) {
  // Built with the 0.0 prefixes of bp_backend_desc and bp_iter_info and garbage after them:
  // the host reads and writes only what struct_size covers (the plugin checks the latter).
  LoadedPlugin old("libc_test_plugin_old_minor.so");
  const Record r = last_record(plugin_path("libc_test_plugin_old_minor.so"));
  EXPECT_TRUE(r.loaded);
  EXPECT_EQ(r.plugin_minor, 0);
  const Tensor a = filled(BP_DTYPE_FLOAT64, {2, 2}, 1), b = filled(BP_DTYPE_FLOAT64, {2, 2}, 4);
  const bp_device dev = backend_device("cplug_old");
  const Op add(api(), "add.Tensor");
  EXPECT_EQ(bytes_of(add.call({arg(copy_to(a, dev)), arg(copy_to(b, dev))}).tensor(0)),
            bytes_of(add.call({arg(a), arg(b)}).tensor(0)));
  EXPECT_EQ(old.counter("bp_test_plugin_kernel_calls"), 1);
}

}  // namespace
}  // namespace backplane::testing
