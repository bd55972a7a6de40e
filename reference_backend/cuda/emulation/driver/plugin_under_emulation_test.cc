// The reference CUDA plugin loaded into the real host (libbackplane) over the emulated driver and
// NVRTC ($BP_CUDA_DRIVER, $BP_CUDA_NVRTC): ops run end to end, each injected fault (out of
// memory, an invalid handle, a failing launch, a failing NVRTC compile) comes back through the
// host API as an error naming what failed, and once the plugin is unloaded and its tensors freed
// no device memory is left (the driver's live allocations). Also a pointwise op over more than
// 2^31 elements (expanded inputs, so only the output is large): the plugin's 32-bit splitting,
// a matrix product on the device (its out= over its own input on the CPU), and the indexing ops
// on the device (an out-of-range index an error that leaves self as it was).
#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "backplane/backplane.hpp"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/emulated_environment.h"
#include "reference_backend/cuda/emulation/nvrtc/control.h"

namespace bp::emulated_cuda {
namespace {

using ::testing::HasSubstr;

constexpr bp_device kCuda{BP_DEVICE_CUDA, 0};

// The emulated libraries' control functions, from the copies the plugin loaded.
struct Controls {
  decltype(&bp_emulated_cuda_get_counters) counters = nullptr;
  decltype(&bp_emulated_cuda_inject) inject = nullptr;
  decltype(&bp_emulated_nvrtc_fail_compile) fail_compile = nullptr;
};

template <typename F>
F symbol(const char* library, const char* name) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  return handle == nullptr ? nullptr : reinterpret_cast<F>(dlsym(handle, name));
}

class PluginUnderEmulation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { use_emulated_cuda(); }

  void SetUp() override {
    const backplane::ErrorHandle error(api_, api_->plugin_load(kCudaPlugin, &plugin_));
    ASSERT_FALSE(error) << error.message();
    c_.counters = symbol<decltype(c_.counters)>(kEmulatedDriver, "bp_emulated_cuda_get_counters");
    c_.inject = symbol<decltype(c_.inject)>(kEmulatedDriver, "bp_emulated_cuda_inject");
    c_.fail_compile =
        symbol<decltype(c_.fail_compile)>(kEmulatedNvrtc, "bp_emulated_nvrtc_fail_compile");
    ASSERT_NE(c_.counters, nullptr) << "the plugin did not load the emulated driver";
    ASSERT_NE(c_.inject, nullptr);
    ASSERT_NE(c_.fail_compile, nullptr) << "the plugin did not load the emulated NVRTC";
  }

  // Unloads the plugin (its tensors are gone by now): the devices and their caching allocators
  // are torn down, so every allocation must have been returned to the driver.
  void TearDown() override {
    if (plugin_ == nullptr) return;
    c_.inject("alloc", 0);
    c_.inject("launch", 0);
    c_.inject("handle", 0);
    c_.fail_compile(0);
    api_->error_destroy(api_->plugin_unload(plugin_));
    EXPECT_EQ(counters().live_allocations, 0) << "device memory leaked";
  }

  bp_emulated_cuda_counters counters() const {
    bp_emulated_cuda_counters c{};
    c_.counters(&c);
    return c;
  }

  backplane::Tensor on_device(const std::vector<float>& values) const {
    return backplane::Tensor::from_host<float>(api_, values, {static_cast<int64_t>(values.size())},
                                               kCuda);
  }

  const bp_api* api_ = bp_get_api();
  bp_plugin* plugin_ = nullptr;
  Controls c_;
};

TEST_F(PluginUnderEmulation, AnOpRunsOnTheEmulatedDeviceAndTheLoadRecordNamesIt) {
  const bp_emulated_cuda_counters before = counters();
  {
    backplane::Tensor a = on_device({1, 2, 3});
    backplane::Tensor b = on_device({4, 5, 6});
    backplane::Tensor c =
        backplane::Op(api_, "add.Tensor").call({backplane::arg(a), backplane::arg(b)}).tensor(0);
    EXPECT_EQ(c.device().device_type, BP_DEVICE_CUDA);
    EXPECT_EQ(c.to_host<float>(), (std::vector<float>{5, 7, 9}));
  }
  const bp_emulated_cuda_counters after = counters();
  EXPECT_GE(after.launches - before.launches, 1);
  EXPECT_EQ(after.bytes_host_to_device - before.bytes_host_to_device, 24);
  EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host, 12);

  std::string name;
  api_->error_destroy(api_->plugin_load_records(
      [](void* user_data, const bp_plugin_load_record* r) {
        if (r->loaded) *static_cast<std::string*>(user_data) = r->plugin_name;
      },
      &name));
  EXPECT_EQ(name,
            "cuda (emulated CUDA device (host); no cuBLAS: $BP_CUDA_DRIVER names another driver "
            "and $BP_CUDA_CUBLAS is unset)");
}

TEST_F(PluginUnderEmulation, AMatrixProductRunsOnTheDeviceAndAnOutputOverAnInputOnTheCpu) {
  const std::vector<float> a_values{1, 2, 3, 4, 5, 6}, b_values{1, 0, 2, -1, 0.5, 3};
  auto matrix = [&](const std::vector<float>& v, std::vector<int64_t> sizes) {
    return backplane::Tensor::from_host<float>(api_, v, sizes, kCuda);
  };
  {
    const backplane::Tensor a = matrix(a_values, {2, 3}), b = matrix(b_values, {3, 2});
    const bp_emulated_cuda_counters before = counters();
    const backplane::Tensor c =
        backplane::Op(api_, "mm").call({backplane::arg(a), backplane::arg(b)}).tensor(0);
    const bp_emulated_cuda_counters after = counters();
    EXPECT_GE(after.launches - before.launches, 1);
    EXPECT_EQ(after.bytes_device_to_host, before.bytes_device_to_host) << "ran on the CPU";
    EXPECT_EQ(c.to_host<float>(), (std::vector<float>{6.5, 7, 17, 13}));
  }
  {
    // out= over its own input: the plugin's kernel hands the call to the CPU fallback.
    const backplane::Tensor a = matrix({1, 2, 3, 4}, {2, 2}), b = matrix({0, 1, 1, 0}, {2, 2});
    const bp_emulated_cuda_counters before = counters();
    backplane::Op(api_, "mm.out").call({backplane::arg(a), backplane::arg(b), backplane::arg(a)});
    EXPECT_GT(counters().bytes_device_to_host, before.bytes_device_to_host) << "not on the CPU";
    EXPECT_EQ(a.to_host<float>(), (std::vector<float>{2, 1, 4, 3}));
  }
}

TEST_F(PluginUnderEmulation, IndexingRunsOnTheDeviceAndABadIndexLeavesOutAsItWas) {
  auto on_cuda = [&](const std::vector<int64_t>& v, std::vector<int64_t> sizes) {
    return backplane::Tensor::from_host<int64_t>(api_, v, sizes, kCuda);
  };
  const backplane::Tensor self =
      backplane::Tensor::from_host<float>(api_, {1, 2, 3, 4, 5, 6}, {3, 2}, kCuda);
  {
    // Each op reads back only its range check's 16 bytes: the data stays on the device.
    const backplane::Tensor index = on_cuda({2, 0, 2}, {3});
    const bp_emulated_cuda_counters before = counters();
    const backplane::Tensor selected =
        backplane::Op(api_, "index_select")
            .call({backplane::arg(self), backplane::arg(int64_t{0}), backplane::arg(index)})
            .tensor(0);
    const backplane::Tensor gathered =
        backplane::Op(api_, "gather")
            .call({backplane::arg(self), backplane::arg(int64_t{1}),
                   backplane::arg(on_cuda({1, 1, 0, 1, 0, 0}, {3, 2})), backplane::arg(false)})
            .tensor(0);
    // Duplicates summed in index order: out[0][0] = 1 + 1 + 5, out[2][0] = 5 + 3.
    const backplane::Tensor added =
        backplane::Op(api_, "scatter_add")
            .call({backplane::arg(self), backplane::arg(int64_t{0}),
                   backplane::arg(on_cuda({0, 1, 2, 2, 0, 0}, {3, 2})), backplane::arg(self)})
            .tensor(0);
    const bp_emulated_cuda_counters after = counters();
    EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host, 3 * 16) << "on the CPU";
    EXPECT_GE(after.launches - before.launches, 6);
    EXPECT_EQ(selected.to_host<float>(), (std::vector<float>{5, 6, 1, 2, 5, 6}));
    EXPECT_EQ(gathered.to_host<float>(), (std::vector<float>{2, 2, 3, 4, 5, 5}));
    EXPECT_EQ(added.to_host<float>(), (std::vector<float>{7, 8, 3, 6, 8, 10}));
  }
  {
    // scatter_ in place with index 5 of 3 rows: PyTorch's message, self unchanged.
    backplane::Op scatter(api_, "scatter_.value");
    backplane::Results results(api_, 1);
    const backplane::Tensor index = on_cuda({0, 5, 1, 2}, {2, 2});
    const backplane::ErrorHandle error =
        scatter.try_call({backplane::arg(self), backplane::arg(int64_t{0}), backplane::arg(index),
                          backplane::arg(9.0)},
                         results);
    ASSERT_TRUE(error);
    EXPECT_THAT(error.message(), HasSubstr("index 5 is out of bounds for dimension 0 with size 3"));
    EXPECT_EQ(self.to_host<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    // index_select's own message.
    backplane::Results selected(api_, 1);
    const backplane::ErrorHandle select_error =
        backplane::Op(api_, "index_select")
            .try_call({backplane::arg(self), backplane::arg(int64_t{0}),
                       backplane::arg(on_cuda({3}, {1}))},
                      selected);
    ASSERT_TRUE(select_error);
    EXPECT_THAT(select_error.message(), HasSubstr("index out of range in self"));
    // Along dim 1 of a 2-D self, PyTorch's other message.
    backplane::Results selected1(api_, 1);
    const backplane::ErrorHandle dim1_error =
        backplane::Op(api_, "index_select")
            .try_call({backplane::arg(self), backplane::arg(int64_t{1}),
                       backplane::arg(on_cuda({0, 2}, {2}))},
                      selected1);
    ASSERT_TRUE(dim1_error);
    EXPECT_THAT(dim1_error.message(),
                HasSubstr("INDICES element is out of DATA bounds, id=2 axis_dim=2"));
    // gather.out into a given out: the first offender in row-major order, out unchanged.
    const backplane::Tensor out =
        backplane::Tensor::from_host<float>(api_, {-1, -2, -3, -4}, {2, 2}, kCuda);
    backplane::Results gathered(api_, 1);
    const backplane::ErrorHandle gather_error =
        backplane::Op(api_, "gather.out")
            .try_call({backplane::arg(self), backplane::arg(int64_t{1}),
                       backplane::arg(on_cuda({0, 1, -1, 7}, {2, 2})), backplane::arg(false),
                       backplane::arg(out)},
                      gathered);
    ASSERT_TRUE(gather_error);
    EXPECT_THAT(gather_error.message(),
                HasSubstr("index -1 is out of bounds for dimension 1 with size 2"));
    EXPECT_EQ(out.to_host<float>(), (std::vector<float>{-1, -2, -3, -4}));
  }
}

TEST_F(PluginUnderEmulation, OutOfMemoryIsAnOutOfMemoryError) {
  c_.inject("alloc", 1);
  const int64_t sizes[] = {1 << 20};
  bp_tensor* t = nullptr;
  const backplane::ErrorHandle error(api_,
                                     api_->tensor_empty(sizes, 1, BP_DTYPE_FLOAT32, kCuda, &t));
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_OUT_OF_MEMORY);
  EXPECT_THAT(error.message(), HasSubstr("CUDA out of memory: tried to allocate 4 MiB"));
  EXPECT_EQ(t, nullptr);
  c_.inject("alloc", 0);
  backplane::Tensor ok = backplane::Tensor::empty(api_, {1 << 20}, BP_DTYPE_FLOAT32, kCuda);
  EXPECT_EQ(ok.numel(), 1 << 20);
}

TEST_F(PluginUnderEmulation, AFailingLaunchFailsTheOpNamingTheLaunch) {
  backplane::Tensor a = on_device({1, 2, 3});
  backplane::Tensor b = on_device({4, 5, 6});
  backplane::Op add(api_, "add.Tensor");
  c_.inject("launch", 1);
  backplane::Results results(api_, 1);
  const backplane::ErrorHandle error =
      add.try_call({backplane::arg(a), backplane::arg(b)}, results);
  ASSERT_TRUE(error);
  EXPECT_THAT(error.message(), HasSubstr("cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED"));
  EXPECT_THAT(error.message(), HasSubstr("injected fault: the launch of add_out__float32"));
  c_.inject("launch", 0);
  EXPECT_EQ(add.call({backplane::arg(a), backplane::arg(b)}).tensor(0).to_host<float>(),
            (std::vector<float>{5, 7, 9}));
}

TEST_F(PluginUnderEmulation, AnInvalidHandleFailsTheCallNamingTheDriverFunction) {
  c_.inject("handle", 1);
  const std::vector<float> values = {1, 2};
  const int64_t sizes[] = {2};
  bp_tensor* t = nullptr;
  const backplane::ErrorHandle error(
      api_, api_->tensor_from_host(values.data(), sizeof(float) * 2, sizes, 1, BP_DTYPE_FLOAT32,
                                   kCuda, &t));
  ASSERT_TRUE(error);
  EXPECT_THAT(error.message(), HasSubstr("cuMemcpyHtoDAsync failed: CUDA_ERROR_INVALID_HANDLE"));
  EXPECT_THAT(error.message(), HasSubstr("is given an invalid stream handle"));
  EXPECT_EQ(t, nullptr);
}

TEST_F(PluginUnderEmulation, AFailingNvrtcCompileFailsTheOpWithTheCompilersLog) {
  // float64 mul: compiled by no other test of this binary (kernels are kept on disk).
  backplane::Tensor a = backplane::Tensor::from_host<double>(api_, {1.5, 2.0}, {2}, kCuda);
  backplane::Op mul(api_, "mul.Tensor");
  c_.fail_compile(1);
  backplane::Results results(api_, 1);
  const backplane::ErrorHandle error =
      mul.try_call({backplane::arg(a), backplane::arg(a)}, results);
  ASSERT_TRUE(error);
  EXPECT_THAT(error.message(), HasSubstr("NVRTC failed to compile CUDA kernel mul_out__float64"));
  EXPECT_THAT(error.message(), HasSubstr("injected fault: the emulated NVRTC fails this compile"));
  c_.fail_compile(0);
  EXPECT_EQ(mul.call({backplane::arg(a), backplane::arg(a)}).tensor(0).to_host<double>(),
            (std::vector<double>{2.25, 4.0}));
}

TEST_F(PluginUnderEmulation, APointwiseOpOverMoreThan2To31ElementsIsSplitAndComplete) {
  // int8 inputs expanded (stride 0) to 2^31 + 64 elements: one byte each on the device; only the
  // output takes its 2 GiB. The plan exceeds 32-bit indexing, so the plugin splits it.
  const int64_t n = (int64_t{1} << 31) + 64;
  const bp_emulated_cuda_counters before = counters();
  {
    backplane::Tensor three = backplane::Tensor::from_host<int8_t>(api_, {3}, {1}, kCuda);
    backplane::Tensor four = backplane::Tensor::from_host<int8_t>(api_, {4}, {1}, kCuda);
    backplane::Tensor a = three.as_strided({n}, {0}, 0);
    backplane::Tensor b = four.as_strided({n}, {0}, 0);
    backplane::Tensor c =
        backplane::Op(api_, "add.Tensor").call({backplane::arg(a), backplane::arg(b)}).tensor(0);
    ASSERT_EQ(c.numel(), n);
    // The first elements, those around 2^31 and the last ones.
    for (int64_t at : {int64_t{0}, (int64_t{1} << 31) - 64, n - 64}) {
      EXPECT_EQ(c.as_strided({64}, {1}, at).to_host<int8_t>(), std::vector<int8_t>(64, 7))
          << "elements from " << at;
    }
  }
  EXPECT_GE(counters().launches - before.launches, 2) << "one launch per 32-bit part";
  EXPECT_GE(counters().peak_bytes, n);
}

}  // namespace
}  // namespace bp::emulated_cuda
