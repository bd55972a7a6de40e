// Loads libbackplane_cuda.so as a host would (dlopen, bp_plugin_init) with a stand-in for the
// host's function table, on machines without a usable CUDA driver: the plugin loads, reports
// "CUDA unavailable: <reason>" and registers nothing. (The host side of plugin loading and the
// plugin's kernels on a GPU are tested where libbackplane and a GPU exist: cuda_gpu_test.)
#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/fake_host.h"

namespace bp::cuda::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST_F(PluginLoad, WithoutTheDriverLibraryCudaIsUnavailableAndNothingIsRegistered) {
  setenv("BP_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  const bp_api api = fake_api();
  const auto [code, message] = init(api);
  EXPECT_EQ(code, BP_ERROR_UNAVAILABLE);
  EXPECT_THAT(message, StartsWith("CUDA unavailable: cannot load /nonexistent/libcuda.so.1 ("));
  EXPECT_THAT(message, HasSubstr("No such file or directory"));
  EXPECT_EQ(g_backends_registered, 0);
  EXPECT_EQ(g_kernels_registered, 0);
  EXPECT_STREQ(desc_.name, "cuda");
  EXPECT_EQ(desc_.api_major, BP_API_MAJOR);
  EXPECT_EQ(desc_.api_minor, BP_API_MINOR);
}

TEST_F(PluginLoad, OnThisMachineWithoutADriverTheDefaultLibraryIsMissing) {
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(driver);
    GTEST_SKIP() << "this machine has a CUDA driver; the missing-driver path is covered by "
                    "WithoutTheDriverLibraryCudaIsUnavailableAndNothingIsRegistered";
  }
  const bp_api api = fake_api();
  const auto [code, message] = init(api);
  EXPECT_EQ(code, BP_ERROR_UNAVAILABLE);
  EXPECT_THAT(message, StartsWith("CUDA unavailable: cannot load libcuda.so.1 ("));
  EXPECT_EQ(g_backends_registered, 0);
}

TEST_F(PluginLoad, AHostOfAnotherMajorVersionGetsTheVersionAndNoCalls) {
  bp_api api = fake_api();
  api.major_version = BP_API_MAJOR + 1;
  api.error_create = nullptr;  // must not be called
  const auto [code, message] = init(api);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(desc_.api_major, BP_API_MAJOR);
  EXPECT_EQ(g_backends_registered, 0);
}

TEST_F(PluginLoad, TheLibraryExportsOnlyItsEntryPoint) {
  EXPECT_EQ(dlsym(handle_, "_ZN2bp4cuda3apiEv"), nullptr);  // bp::cuda::api()
}

}  // namespace
}  // namespace bp::cuda::testing
