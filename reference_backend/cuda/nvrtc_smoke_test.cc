// Checks the CUDA part of the toolchain without a GPU: the toolkit's headers are reachable through
// @cuda//:headers, and NVRTC, loaded with dlopen as the CUDA plugin will load it, compiles a kernel
// to PTX and to CUBIN for the architectures CI checks. Nothing here links libcuda or libnvrtc.
#include <dlfcn.h>
#include <nvrtc.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {

constexpr char kSource[] = R"(
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// The NVRTC entry points this test uses, looked up by name.
struct Nvrtc {
  void* handle = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;

  template <typename F>
  void bind(F& fn, const char* name) {
    fn = reinterpret_cast<F>(dlsym(handle, name));
    ASSERT_NE(fn, nullptr) << "libnvrtc lacks " << name;
  }
};

// NVRTC stays loaded for the life of the process, as it will in the CUDA plugin (unloading it
// would also hide its allocations from the leak suppressions in //tools/sanitizers).
class NvrtcSmoke : public ::testing::Test {
 protected:
  void SetUp() override {
    nvrtc_.handle = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nvrtc_.handle, nullptr)
        << "NVRTC is part of this machine's CUDA 13 toolkit and must load: " << dlerror();
    nvrtc_.bind(nvrtc_.version, "nvrtcVersion");
    nvrtc_.bind(nvrtc_.create, "nvrtcCreateProgram");
    nvrtc_.bind(nvrtc_.compile, "nvrtcCompileProgram");
    nvrtc_.bind(nvrtc_.log_size, "nvrtcGetProgramLogSize");
    nvrtc_.bind(nvrtc_.log, "nvrtcGetProgramLog");
    nvrtc_.bind(nvrtc_.ptx_size, "nvrtcGetPTXSize");
    nvrtc_.bind(nvrtc_.ptx, "nvrtcGetPTX");
    nvrtc_.bind(nvrtc_.cubin_size, "nvrtcGetCUBINSize");
    nvrtc_.bind(nvrtc_.cubin, "nvrtcGetCUBIN");
    nvrtc_.bind(nvrtc_.destroy, "nvrtcDestroyProgram");
  }

  // Compiles kSource with `arch_option`; returns the program (caller destroys it).
  nvrtcProgram compile(const std::string& arch_option) {
    nvrtcProgram program = nullptr;
    EXPECT_EQ(nvrtc_.create(&program, kSource, "axpy.cu", 0, nullptr, nullptr), NVRTC_SUCCESS);
    const char* options[] = {arch_option.c_str()};
    nvrtcResult result = nvrtc_.compile(program, 1, options);
    size_t log_size = 0;
    nvrtc_.log_size(program, &log_size);
    std::string log(log_size, '\0');
    nvrtc_.log(program, log.data());
    EXPECT_EQ(result, NVRTC_SUCCESS) << log;
    return program;
  }

  Nvrtc nvrtc_;
};

TEST_F(NvrtcSmoke, ReportsVersion13) {
  int major = 0, minor = 0;
  ASSERT_EQ(nvrtc_.version(&major, &minor), NVRTC_SUCCESS);
  EXPECT_EQ(major, 13);
}

TEST_F(NvrtcSmoke, CompilesAKernelToPtxForCompute90) {
  nvrtcProgram program = compile("--gpu-architecture=compute_90");
  size_t size = 0;
  ASSERT_EQ(nvrtc_.ptx_size(program, &size), NVRTC_SUCCESS);
  std::string ptx(size, '\0');
  ASSERT_EQ(nvrtc_.ptx(program, ptx.data()), NVRTC_SUCCESS);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".entry axpy"), std::string::npos) << ptx;
  nvrtc_.destroy(&program);
}

TEST_F(NvrtcSmoke, CompilesAKernelToCubinForSm80AndSm90) {
  for (const char* arch : {"sm_80", "sm_90"}) {
    nvrtcProgram program = compile(std::string("--gpu-architecture=") + arch);
    size_t size = 0;
    ASSERT_EQ(nvrtc_.cubin_size(program, &size), NVRTC_SUCCESS);
    ASSERT_GT(size, 4u);
    std::vector<char> cubin(size);
    ASSERT_EQ(nvrtc_.cubin(program, cubin.data()), NVRTC_SUCCESS);
    EXPECT_EQ(std::string(cubin.data(), 4),
              "\x7f"
              "ELF")
        << arch;
    nvrtc_.destroy(&program);
  }
}

}  // namespace
