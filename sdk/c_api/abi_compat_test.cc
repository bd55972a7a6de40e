// Compatibility across minor versions with separately built plugins: today's host (libbackplane,
// C ABI 0.4) loads and runs the minimal sample plugin built against the frozen headers of 0.3,
// and refuses the same plugin built against headers of the next minor. (The other direction, an
// older host meeting today's plugins, is //sdk/c_api:older_host_test.)
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::ElementsAre;

struct Record {
  std::string path, name, error;
  bool loaded;
  int32_t plugin_major, plugin_minor, host_major, host_minor;
};

// The newest load record of `path`.
Record last_record(const std::string& path) {
  struct Search {
    std::string path;
    Record found{};
  } search{path};
  check(api(), api()->plugin_load_records(
                   [](void* data, const bp_plugin_load_record* r) {
                     auto* s = static_cast<Search*>(data);
                     if (s->path != r->path) return;
                     s->found =
                         Record{r->path,         r->plugin_name,  r->error,      r->loaded,
                                r->plugin_major, r->plugin_minor, r->host_major, r->host_minor};
                   },
                   &search));
  return search.found;
}

TEST(AbiCompat, TodaysHostRunsAPluginBuiltAgainstTheFrozen03Headers) {
  const std::string path = plugin_path("libmini_plugin_abi_0_3.so");
  {
    LoadedPlugin plugin("libmini_plugin_abi_0_3.so");
    const Record record = last_record(path);
    EXPECT_TRUE(record.loaded) << record.error;
    EXPECT_EQ(record.name, "mini");
    EXPECT_EQ(record.plugin_major, 0);
    EXPECT_EQ(record.plugin_minor, 3);
    EXPECT_EQ(record.host_major, BP_API_MAJOR);
    EXPECT_EQ(record.host_minor, BP_API_MINOR);
    EXPECT_GT(BP_API_MINOR, 3);  // a plugin of an older minor, not of this one
    // Its kernels serve on its device: add through Common and its add.out (over the host's plan,
    // kernel_call_iter being 0.2), neg likewise, exp through its CPU fallback.
    const bp_device mini = backend_device("mini");
    const Tensor a = copy_to(Tensor::from_host<float>(api(), {1, 2, 3}, {3}), mini);
    const Tensor b = copy_to(Tensor::from_host<float>(api(), {10, 20, 30}, {3}), mini);
    const Tensor sum = Op(api(), "add.Tensor").call({arg(a), arg(b), arg(2)}).tensor(0);
    EXPECT_EQ(sum.device().device_type, mini.device_type);
    EXPECT_THAT(sum.to_host<float>(), ElementsAre(21, 42, 63));
    EXPECT_THAT(Op(api(), "neg").call({arg(a)}).tensor(0).to_host<float>(),
                ElementsAre(-1, -2, -3));
    const Tensor e = Op(api(), "exp").call({arg(a)}).tensor(0);
    EXPECT_EQ(e.device().device_type, mini.device_type);
    plugin.unload();
  }
  EXPECT_FALSE(backend_exists("mini"));
}

TEST(AbiCompat, TodaysHostRefusesAPluginOfTheNextMinor) {
  const std::string path = plugin_path("libmini_plugin_abi_next_minor.so");
  bp_plugin* plugin = nullptr;
  const ErrorHandle error(api(), api()->plugin_load(path.c_str(), &plugin));
  ASSERT_TRUE(error);
  const std::string host = "0." + std::to_string(BP_API_MINOR);
  const std::string next = "0." + std::to_string(BP_API_MINOR + 1);
  EXPECT_EQ(error.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error.message(), "plugin 'mini' (" + path + ") was built against Backplane C ABI " +
                                 next + ", newer than this host's " + host + ": upgrade Backplane");
  const Record record = last_record(path);
  EXPECT_FALSE(record.loaded);
  EXPECT_EQ(record.error, error.message());
  EXPECT_EQ(record.plugin_minor, BP_API_MINOR + 1);
  EXPECT_EQ(record.host_minor, BP_API_MINOR);
  // bp_plugin_begin said no: the plugin returned before registering anything.
  EXPECT_FALSE(backend_exists("mini"));
}

}  // namespace
}  // namespace backplane::testing
