// The plugin's stream hooks over the emulated driver, through the host's stream API: work goes to
// the calling thread's current stream, stream_wait orders two streams without blocking the host,
// and two streams carry work at once (each is a host thread of the emulated driver). Tagged
// "threads" (TSan in CI).
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "backplane/backplane.h"
#include "backplane/backplane.hpp"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/emulated_environment.h"

namespace bp::emulated_cuda {
namespace {

constexpr bp_device kCuda{BP_DEVICE_CUDA, 0};

void check(const bp_api* api, bp_error* error) {
  if (error == nullptr) return;
  const std::string message = api->error_message(error);
  api->error_destroy(error);
  FAIL() << message;
}

class StreamsUnderEmulation : public ::testing::Test {
 protected:
  void SetUp() override {
    use_emulated_cuda();
    const backplane::ErrorHandle error(api_, api_->plugin_load(kCudaPlugin, &plugin_));
    ASSERT_FALSE(error) << error.message();
    void* driver = dlopen(kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(driver, nullptr);
    counters_ =
        reinterpret_cast<decltype(counters_)>(dlsym(driver, "bp_emulated_cuda_get_counters"));
    ASSERT_NE(counters_, nullptr);
  }
  void TearDown() override {
    if (plugin_ == nullptr) return;
    api_->error_destroy(api_->plugin_unload(plugin_));
    bp_emulated_cuda_counters c{};
    counters_(&c);
    EXPECT_EQ(c.live_allocations, 0);
  }

  const bp_api* api_ = bp_get_api();
  bp_plugin* plugin_ = nullptr;
  decltype(&bp_emulated_cuda_get_counters) counters_ = nullptr;
};

TEST_F(StreamsUnderEmulation, TheBackendMakesStreamsAndWorkFollowsTheCurrentOne) {
  bp_stream* first = nullptr;
  bp_stream* second = nullptr;
  check(api_, api_->stream_create(kCuda, &first));
  check(api_, api_->stream_create(kCuda, &second));
  bp_device on{};
  void* native = nullptr;
  check(api_, api_->stream_native(first, &on, &native));
  EXPECT_NE(native, nullptr) << "a stream of the plugin, not the default stream";
  {
    backplane::Tensor a = backplane::Tensor::from_host<float>(api_, {1, 2, 3, 4}, {4}, kCuda);
    backplane::Op add(api_, "add.Tensor");
    backplane::Op mul(api_, "mul.Tensor");
    // add on the first stream; mul of its result on the second, after waiting for the first.
    bp_stream* previous = nullptr;
    check(api_, api_->stream_set_current(first, &previous));
    backplane::Tensor sum = add.call({backplane::arg(a), backplane::arg(a)}).tensor(0);
    check(api_, api_->stream_set_current(second, nullptr));
    check(api_, api_->stream_wait(second, first));
    backplane::Tensor product = mul.call({backplane::arg(sum), backplane::arg(sum)}).tensor(0);
    check(api_, api_->stream_synchronize(second));
    bool idle = false;
    check(api_, api_->stream_query(second, &idle));
    EXPECT_TRUE(idle);
    EXPECT_EQ(product.to_host<float>(), (std::vector<float>{4, 16, 36, 64}));
    check(api_, api_->stream_set_current(previous, nullptr));
  }
  check(api_, api_->stream_destroy(first));
  check(api_, api_->stream_destroy(second));
}

TEST_F(StreamsUnderEmulation, TwoThreadsOnTwoStreamsComputeAtOnceAndCorrectly) {
  bp_stream* streams[2] = {};
  check(api_, api_->stream_create(kCuda, &streams[0]));
  check(api_, api_->stream_create(kCuda, &streams[1]));
  std::vector<std::vector<float>> results(2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      check(api_, api_->stream_set_current(streams[t], nullptr));
      std::vector<float> values(1 << 16, static_cast<float>(t + 1));
      backplane::Tensor x = backplane::Tensor::from_host<float>(
          api_, values, {static_cast<int64_t>(values.size())}, kCuda);
      backplane::Op mul(api_, "mul.Tensor");
      for (int i = 0; i < 4; ++i) x = mul.call({backplane::arg(x), backplane::arg(x)}).tensor(0);
      check(api_, api_->stream_synchronize(streams[t]));
      results[static_cast<size_t>(t)] = x.to_host<float>();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(results[0], std::vector<float>(1 << 16, 1.0f));
  EXPECT_EQ(results[1], std::vector<float>(1 << 16, 65536.0f));  // 2^(2^4)
  check(api_, api_->stream_destroy(streams[0]));
  check(api_, api_->stream_destroy(streams[1]));
}

}  // namespace
}  // namespace bp::emulated_cuda
