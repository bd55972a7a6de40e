// The plugin with the CUDA toolkit's stub driver (libcuda.so from lib64/stubs, whose every call
// returns CUDA_ERROR_STUB_LIBRARY): CUDA is unavailable, nothing is registered. A test binary of
// its own: once loaded, the stub answers every later dlopen("libcuda.so.1") of the process.
#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/fake_host.h"

namespace bp::cuda::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST_F(PluginLoad, WithTheToolkitsStubDriverCudaIsUnavailable) {
  const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  ASSERT_EQ(access(stub, R_OK), 0)
      << "the CUDA toolkit's stub driver is part of the build's toolkit";
  setenv("BP_CUDA_DRIVER", stub, 1);
  const bp_api api = fake_api();
  const auto [code, message] = init(api);
  EXPECT_EQ(code, BP_ERROR_UNAVAILABLE);
  EXPECT_THAT(message, StartsWith("CUDA unavailable: cuInit failed: "));
  EXPECT_THAT(message, HasSubstr("(34)"));  // CUDA_ERROR_STUB_LIBRARY
  EXPECT_EQ(g_backends_registered, 0);
}

}  // namespace
}  // namespace bp::cuda::testing
