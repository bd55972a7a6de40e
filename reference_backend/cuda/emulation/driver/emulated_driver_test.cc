// The emulated driver on its own (linked in, called through cuda.h): guard zones, use after free
// and foreign pointers, streams in flight at once and ordered by events, module images, fault
// injection and counters. Kernels here are small host functions registered with the emulator;
// the plugin over the driver is plugin_under_emulation_test. Tagged "threads" (TSan in CI).
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/emulator.h"
#include "reference_backend/cuda/emulation/host_shim.h"

namespace bp::emulated_cuda {
namespace {

using ::testing::HasSubstr;

struct FillParams {
  float* out;
  float value;
  uint32_t n;
};
void fill_kernel(const void* p) {
  const auto& a = *static_cast<const FillParams*>(p);
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) a.out[i] = a.value;
}

// Waits (up to 20 s) for *flag to become 1, then stores 1 in *seen; a stand-in for a kernel
// that depends on work in flight elsewhere.
struct FlagParams {
  std::atomic<int>* flag;
  std::atomic<int>* seen;
};
void wait_kernel(const void* p) {
  const auto& a = *static_cast<const FlagParams*>(p);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (a.flag->load() != 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  a.seen->store(a.flag->load());
}
void set_kernel(const void* p) { static_cast<const FlagParams*>(p)->flag->store(1); }

const bool kRegistered = [] {
  emulation::register_emulated_kernel("test_fill", {&fill_kernel, false, sizeof(FillParams)});
  emulation::register_emulated_kernel("test_wait", {&wait_kernel, false, sizeof(FlagParams)});
  emulation::register_emulated_kernel("test_set", {&set_kernel, false, sizeof(FlagParams)});
  return true;
}();

const char kImage[] =
    "// backplane emulated CUDA module\n// target sm_90\nentry test_fill\nentry test_wait\n"
    "entry test_set\n";

std::string error_string(CUresult r) {
  const char* text = nullptr;
  cuGetErrorString(r, &text);
  return text == nullptr ? "" : text;
}

bp_emulated_cuda_counters counters() {
  bp_emulated_cuda_counters c{};
  bp_emulated_cuda_get_counters(&c);
  return c;
}

class EmulatedDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleLoadData(&module_, kImage), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&fill_, module_, "test_fill"), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&wait_, module_, "test_wait"), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&set_, module_, "test_set"), CUDA_SUCCESS);
    live_before_ = counters().live_allocations;
  }
  void TearDown() override {
    bp_emulated_cuda_inject("alloc", 0);
    bp_emulated_cuda_inject("launch", 0);
    bp_emulated_cuda_inject("handle", 0);
    EXPECT_EQ(cuModuleUnload(module_), CUDA_SUCCESS);
    EXPECT_EQ(counters().live_allocations, live_before_) << "a test leaked device memory";
  }
  CUresult fill(CUdeviceptr p, float value, uint32_t n, CUstream s = nullptr) {
    FillParams params{reinterpret_cast<float*>(p), value, n};
    void* args[] = {&params};
    return cuLaunchKernel(fill_, (n + 127) / 128, 1, 1, 128, 1, 1, 0, s, args, nullptr);
  }

  CUmodule module_ = nullptr;
  CUfunction fill_ = nullptr, wait_ = nullptr, set_ = nullptr;
  int64_t live_before_ = 0;
};

TEST_F(EmulatedDriver, DeviceNameAndCapabilitySayWhatItIs) {
  char name[64] = {};
  ASSERT_EQ(cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS);
  EXPECT_STREQ(name, "emulated CUDA device (host)");
  int major = 0;
  ASSERT_EQ(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0),
            CUDA_SUCCESS);
  EXPECT_EQ(major, 9);
  int count = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  EXPECT_EQ(count, 1);
}

TEST_F(EmulatedDriver, AKernelWritesDeviceMemoryAndTheCountersSeeIt) {
  const bp_emulated_cuda_counters before = counters();
  CUdeviceptr p = 0;
  ASSERT_EQ(cuMemAlloc(&p, 1000 * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(fill(p, 2.5f, 1000), CUDA_SUCCESS);
  std::vector<float> host(1000);
  ASSERT_EQ(cuMemcpyDtoHAsync(host.data(), p, host.size() * sizeof(float), nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(host, std::vector<float>(1000, 2.5f));
  const bp_emulated_cuda_counters after = counters();
  EXPECT_EQ(after.launches - before.launches, 1);
  EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host, 4000);
  EXPECT_EQ(after.allocations - before.allocations, 1);
  EXPECT_EQ(after.live_allocations, live_before_ + 1);
  EXPECT_GE(after.peak_bytes, 4000);
  EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

TEST_F(EmulatedDriver, AnOverrunIsFoundInTheGuardZoneOnSynchronizeAndOnFree) {
  CUdeviceptr p = 0;
  ASSERT_EQ(cuMemAlloc(&p, 100), CUDA_SUCCESS);
  reinterpret_cast<char*>(p)[100] = 1;  // one byte past the end, as a buggy kernel would
  const CUresult sync = cuStreamSynchronize(nullptr);
  EXPECT_EQ(sync, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_THAT(error_string(sync), HasSubstr("guard zone after device allocation"));
  EXPECT_THAT(error_string(sync), HasSubstr("at byte 100"));
  const CUresult freed = cuMemFree(p);  // reported, and freed all the same
  EXPECT_EQ(freed, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_THAT(bp_emulated_cuda_last_error(), HasSubstr("cuMemFree"));
}

TEST_F(EmulatedDriver, FreedMemoryIsAnErrorInCopiesAndLaunches) {
  CUdeviceptr p = 0;
  ASSERT_EQ(cuMemAlloc(&p, 64), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFree(p), CUDA_SUCCESS);
  EXPECT_EQ(reinterpret_cast<unsigned char*>(p)[0], 0xDD) << "freed memory is poisoned";
  float value = 1;
  const CUresult copy = cuMemcpyHtoDAsync(p + 4, &value, sizeof value, nullptr);
  EXPECT_EQ(copy, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_THAT(error_string(copy), HasSubstr("use after free"));
  const CUresult launch = fill(p, 1.0f, 16);
  EXPECT_EQ(launch, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_THAT(error_string(launch), HasSubstr("cuLaunchKernel of test_fill"));
  EXPECT_THAT(error_string(launch), HasSubstr("use after free"));
  EXPECT_EQ(cuMemFree(p), CUDA_ERROR_INVALID_VALUE) << "a double free";
  EXPECT_THAT(bp_emulated_cuda_last_error(), HasSubstr("already freed"));
}

TEST_F(EmulatedDriver, ForeignPointersAndOutOfBoundsCopiesAreErrors) {
  float host[4] = {};
  const CUresult foreign =
      cuMemcpyDtoHAsync(host, reinterpret_cast<CUdeviceptr>(&host[2]), 4, nullptr);
  EXPECT_EQ(foreign, CUDA_ERROR_INVALID_VALUE);
  EXPECT_THAT(error_string(foreign), HasSubstr("not device memory of this driver"));
  CUdeviceptr p = 0;
  ASSERT_EQ(cuMemAlloc(&p, 16), CUDA_SUCCESS);
  const CUresult past = cuMemcpyDtoHAsync(host, p + 8, 16, nullptr);
  EXPECT_EQ(past, CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_THAT(error_string(past), HasSubstr("run past the end of device allocation"));
  EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

TEST_F(EmulatedDriver, TwoStreamsAreInFlightAtOnce) {
  CUstream a = nullptr, b = nullptr;
  ASSERT_EQ(cuStreamCreate(&a, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&b, 0), CUDA_SUCCESS);
  std::atomic<int> flag{0}, seen{-1};
  FlagParams params{&flag, &seen};
  void* args[] = {&params};
  // The kernel on `a` can only finish once the one on `b` ran: both must be in flight.
  ASSERT_EQ(cuLaunchKernel(wait_, 1, 1, 1, 1, 1, 1, 0, a, args, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamQuery(a), CUDA_ERROR_NOT_READY);
  ASSERT_EQ(cuLaunchKernel(set_, 1, 1, 1, 1, 1, 1, 0, b, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(a), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(b), CUDA_SUCCESS);
  EXPECT_EQ(seen.load(), 1);
  EXPECT_EQ(cuStreamQuery(a), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(a), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(b), CUDA_SUCCESS);
}

TEST_F(EmulatedDriver, AnEventOrdersWorkAcrossStreams) {
  CUstream producer = nullptr, consumer = nullptr;
  ASSERT_EQ(cuStreamCreate(&producer, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&consumer, 0), CUDA_SUCCESS);
  CUevent done = nullptr;
  ASSERT_EQ(cuEventCreate(&done, 0), CUDA_SUCCESS);
  CUdeviceptr p = 0;
  ASSERT_EQ(cuMemAlloc(&p, 256 * sizeof(float)), CUDA_SUCCESS);
  // The producer is held until the host releases it; the consumer's copy waits for its event.
  std::atomic<int> gate{0}, seen{-1};
  FlagParams params{&gate, &seen};
  void* args[] = {&params};
  ASSERT_EQ(cuLaunchKernel(wait_, 1, 1, 1, 1, 1, 1, 0, producer, args, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(fill(p, 7.0f, 256, producer), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(done, producer), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamWaitEvent(consumer, done, 0), CUDA_SUCCESS);
  std::vector<float> host(256, 0.0f);
  ASSERT_EQ(cuMemcpyDtoHAsync(host.data(), p, host.size() * sizeof(float), consumer), CUDA_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(cuEventQuery(done), CUDA_ERROR_NOT_READY);
  EXPECT_EQ(cuStreamQuery(consumer), CUDA_ERROR_NOT_READY) << "the copy must wait for the event";
  gate.store(1);
  ASSERT_EQ(cuStreamSynchronize(consumer), CUDA_SUCCESS);
  EXPECT_EQ(host, std::vector<float>(256, 7.0f));
  EXPECT_EQ(cuEventQuery(done), CUDA_SUCCESS);
  EXPECT_EQ(cuEventDestroy(done), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(producer), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(consumer), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
}

TEST_F(EmulatedDriver, InjectedFaultsFailTheCallTheyNameUntilDisarmed) {
  EXPECT_EQ(bp_emulated_cuda_inject("disk", 1), -1);
  const int64_t fired = counters().faults_fired;
  ASSERT_EQ(bp_emulated_cuda_inject("alloc", 2), 0);
  CUdeviceptr p = 0, q = 0;
  ASSERT_EQ(cuMemAlloc(&p, 16), CUDA_SUCCESS);
  const CUresult oom = cuMemAlloc(&q, 16);
  EXPECT_EQ(oom, CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_THAT(error_string(oom), HasSubstr("injected fault: cuMemAlloc of 16 bytes"));
  EXPECT_EQ(cuMemAlloc(&q, 16), CUDA_ERROR_OUT_OF_MEMORY) << "out of memory stays so";
  bp_emulated_cuda_inject("alloc", 0);
  ASSERT_EQ(cuMemAlloc(&q, 16), CUDA_SUCCESS);

  ASSERT_EQ(bp_emulated_cuda_inject("launch", 1), 0);
  const CUresult launch = fill(p, 1.0f, 4);
  EXPECT_EQ(launch, CUDA_ERROR_LAUNCH_FAILED);
  EXPECT_THAT(error_string(launch), HasSubstr("the launch of test_fill fails"));
  bp_emulated_cuda_inject("launch", 0);

  ASSERT_EQ(bp_emulated_cuda_inject("handle", 1), 0);
  const CUresult sync = cuStreamSynchronize(nullptr);
  EXPECT_EQ(sync, CUDA_ERROR_INVALID_HANDLE);
  EXPECT_THAT(error_string(sync), HasSubstr("cuStreamSynchronize is given an invalid stream"));
  bp_emulated_cuda_inject("handle", 0);
  EXPECT_EQ(counters().faults_fired - fired, 4);

  EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(q), CUDA_SUCCESS);
}

TEST_F(EmulatedDriver, HandlesItDidNotMakeAreInvalid) {
  int not_a_handle = 0;
  EXPECT_EQ(cuStreamSynchronize(reinterpret_cast<CUstream>(&not_a_handle)),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuEventRecord(reinterpret_cast<CUevent>(&not_a_handle), nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  CUfunction f = nullptr;
  EXPECT_EQ(cuModuleGetFunction(&f, reinterpret_cast<CUmodule>(&not_a_handle), "test_fill"),
            CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(EmulatedDriver, ModulesNameTheirEntriesAndNeedAHostEmulation) {
  CUfunction f = nullptr;
  const CUresult absent = cuModuleGetFunction(&f, module_, "not_in_the_image");
  EXPECT_EQ(absent, CUDA_ERROR_NOT_FOUND);
  EXPECT_THAT(error_string(absent), HasSubstr("the module does not define not_in_the_image"));

  CUmodule other = nullptr;
  const char no_emulation[] = "// backplane emulated CUDA module\n// target sm_90\nentry nowhere\n";
  ASSERT_EQ(cuModuleLoadData(&other, no_emulation), CUDA_SUCCESS);
  const CUresult unknown = cuModuleGetFunction(&f, other, "nowhere");
  EXPECT_EQ(unknown, CUDA_ERROR_NOT_FOUND);
  EXPECT_THAT(error_string(unknown), HasSubstr("nowhere has no host emulation"));
  EXPECT_EQ(cuModuleUnload(other), CUDA_SUCCESS);

  // What real NVRTC produces (PTX) binds by its .entry names too.
  const char ptx[] =
      "//\n.version 9.0\n.target sm_90\n.visible .entry test_fill(\n.param .align 8 .b8 "
      "p[16]\n)\n{\n}\n";
  ASSERT_EQ(cuModuleLoadData(&other, ptx), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleGetFunction(&f, other, "test_fill"), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(other), CUDA_SUCCESS);

  EXPECT_EQ(cuModuleLoadData(&other, "not an image"), CUDA_ERROR_INVALID_IMAGE);
}

}  // namespace
}  // namespace bp::emulated_cuda
