// BP_PLUGINS (set by the BUILD rule to the C test plugin and a missing file): the plugins are
// loaded at the first bp_get_api() call, and a failure is a warning and a load record, not an
// error of the call.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

struct Record {
  std::string path, plugin_name, error;
  bool loaded;
};

void collect(void* user_data, const bp_plugin_load_record* r) {
  static_cast<std::vector<Record>*>(user_data)->push_back(
      {r->path, r->plugin_name, r->error, r->loaded});
}

// What the first bp_get_api() call writes to stderr.
std::string stderr_of_first_call() {
  const std::string path = std::string(getenv("TEST_TMPDIR")) + "/stderr.txt";
  std::fflush(stderr);
  const int saved = dup(fileno(stderr));
  EXPECT_NE(std::freopen(path.c_str(), "w", stderr), nullptr);
  bp_get_api();
  std::fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BpPlugins, AreLoadedAtTheFirstCallAndFailuresAreWarningsAndRecords) {
  ASSERT_STREQ(getenv("BP_PLUGINS"),
               "sdk/c_api/testing/libc_test_plugin.so:sdk/c_api/testing/libmissing.so");
  const std::string warnings = stderr_of_first_call();
  EXPECT_EQ(warnings,
            "Backplane warning: BP_PLUGINS: cannot load plugin "
            "'sdk/c_api/testing/libmissing.so': no such file\n");
  std::vector<Record> records;
  check(api(), api()->plugin_load_records(&collect, &records));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].path, "sdk/c_api/testing/libc_test_plugin.so");
  EXPECT_TRUE(records[0].loaded);
  EXPECT_EQ(records[0].plugin_name, "cplug");
  EXPECT_FALSE(records[1].loaded);
  EXPECT_THAT(records[1].error, HasSubstr("no such file"));
  // The loaded plugin serves its device.
  const Tensor a = filled(BP_DTYPE_INT32, {3});
  const Tensor d = copy_to(a, backend_device("cplug"));
  const Op add(api(), "add.Tensor");
  EXPECT_EQ(bytes_of(add.call({arg(d), arg(d)}).tensor(0)),
            bytes_of(add.call({arg(a), arg(a)}).tensor(0)));
}

}  // namespace
}  // namespace backplane::testing
