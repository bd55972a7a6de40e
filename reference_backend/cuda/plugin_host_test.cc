// Loads libbackplane_cuda.so into the real host (libbackplane, api->plugin_load) on a machine
// without a CUDA driver: the load fails with BP_ERROR_UNAVAILABLE "... CUDA unavailable:
// <reason>", the load record says so, no "cuda" backend exists, and ops keep running on the CPU.
#include <dlfcn.h>

#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "backplane/backplane.hpp"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace bp::cuda {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kPluginPath[] = "reference_backend/cuda/libbackplane_cuda.so";

class PluginInTheHost : public ::testing::Test {
 protected:
  void SetUp() override {
    if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
      dlclose(driver);
      GTEST_SKIP() << "this machine has a CUDA driver (cuda_gpu_test covers the plugin there)";
    }
  }

  const bp_api* api_ = bp_get_api();
};

struct Record {
  std::string path, plugin_name, error;
  bool loaded;
  int32_t error_code, plugin_major;
};

std::vector<Record> load_records(const bp_api* api) {
  std::vector<Record> records;
  bp_error* error = api->plugin_load_records(
      [](void* user_data, const bp_plugin_load_record* r) {
        static_cast<std::vector<Record>*>(user_data)->push_back(
            {r->path, r->plugin_name, r->error, r->loaded, r->error_code, r->plugin_major});
      },
      &records);
  EXPECT_EQ(error, nullptr);
  return records;
}

std::vector<std::string> backend_names(const bp_api* api) {
  std::vector<std::string> names;
  bp_error* error = api->backend_list(
      [](void* user_data, const bp_backend_info* b) {
        static_cast<std::vector<std::string>*>(user_data)->push_back(b->name);
      },
      &names);
  EXPECT_EQ(error, nullptr);
  return names;
}

TEST_F(PluginInTheHost, LoadingWithoutADriverFailsWithCudaUnavailableAndTheReason) {
  bp_plugin* plugin = nullptr;
  const backplane::ErrorHandle error(api_, api_->plugin_load(kPluginPath, &plugin));
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_UNAVAILABLE);
  EXPECT_THAT(error.message(), StartsWith(std::string("plugin 'cuda' (") + kPluginPath +
                                          ") failed to initialise: CUDA unavailable: cannot "
                                          "load libcuda.so.1 ("));
  EXPECT_EQ(plugin, nullptr);

  const std::vector<Record> records = load_records(api_);
  ASSERT_FALSE(records.empty());
  const Record& last = records.back();
  EXPECT_EQ(last.path, kPluginPath);
  EXPECT_EQ(last.plugin_name, "cuda");
  EXPECT_FALSE(last.loaded);
  EXPECT_EQ(last.error_code, BP_ERROR_UNAVAILABLE);
  EXPECT_EQ(last.error, error.message());
  EXPECT_EQ(last.plugin_major, BP_API_MAJOR);
}

TEST_F(PluginInTheHost, AfterTheFailedLoadNoCudaBackendExistsAndCpuOpsStillRun) {
  bp_plugin* plugin = nullptr;
  const backplane::ErrorHandle error(api_, api_->plugin_load(kPluginPath, &plugin));
  ASSERT_TRUE(error);

  EXPECT_THAT(backend_names(api_), ::testing::Not(::testing::Contains("cuda")));

  backplane::Tensor a = backplane::Tensor::from_host<float>(api_, {1, 2, 3}, {3});
  backplane::Tensor b = backplane::Tensor::from_host<float>(api_, {4, 5, 6}, {3});
  backplane::Op add(api_, "add.Tensor");
  backplane::Tensor c = add.call({backplane::arg(a), backplane::arg(b)}).tensor(0);
  EXPECT_EQ(c.to_host<float>(), (std::vector<float>{5, 7, 9}));

  // A CUDA tensor cannot be made: the device type has no allocator.
  const int64_t sizes[] = {3};
  bp_tensor* t = nullptr;
  const backplane::ErrorHandle no_device(
      api_, api_->tensor_empty(sizes, 1, BP_DTYPE_FLOAT32, bp_device{BP_DEVICE_CUDA, 0}, &t));
  EXPECT_TRUE(no_device);
  EXPECT_THAT(no_device.message(), HasSubstr("cuda"));
  EXPECT_EQ(t, nullptr);
}

}  // namespace
}  // namespace bp::cuda
