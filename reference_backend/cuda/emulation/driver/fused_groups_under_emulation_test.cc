// Lazy mode on the reference CUDA plugin over the emulated driver and NVRTC: each fused group of
// the catalogue's chains (fused_group_catalog.h) runs as exactly one kernel launch, computes what
// the same chain computes eagerly on the device (bit for bit where eager runs the same math in
// the same order: pointwise chains) and, within conformance/tolerances.json's bounds, what the
// CPU computes; a group the plugin declines still runs, op by op, to the same result.
//
// The host is linked in (the C++ API, as an application uses it); the plugin is loaded through
// the C ABI's plugin_load, as any plugin.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/emulated_environment.h"
#include "sdk/fusion/lazy.h"
#include "sdk/ops/ops.h"
#include "sdk/ops/testing.h"

namespace bp::emulated_cuda {
namespace {

using bp::testing::sizes_of;
using bp::testing::values_of;

const Device kCudaDevice(DeviceType::kCUDA, 0);

// Deterministic, varied values: sin(k * 0.37) * scale over `sizes`, in `dtype` on `device`.
Tensor wave(std::vector<int64_t> sizes, ScalarType dtype, Device device, double scale = 3.0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  const Tensor t =
      bp::mul(bp::sin(bp::mul(bp::arange(n, ScalarType::kFloat32), 0.37)), scale).reshape(sizes);
  return t.to(device, dtype);
}

Tensor gelu_chain(const Tensor& x, const Tensor& w, const Tensor& b) {
  return bp::gelu(bp::add(bp::mul(x, w), b));
}

Tensor softmax_denominator_chain(const Tensor& x) {
  return bp::sum(bp::exp(bp::sub(x, bp::amax(x, {-1}, true))), IntArrayRef{-1});
}

// Same dtype, sizes and every element's bits (row-major).
void expect_identical(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(sizes_of(a), sizes_of(b));
  const Tensor ca = a.to(bp::testing::kCpu, a.dtype()).contiguous();
  const Tensor cb = b.to(bp::testing::kCpu, b.dtype()).contiguous();
  EXPECT_EQ(std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.numel() * ca.itemsize()), 0);
}

// |a - b| <= atol + rtol * |b| for every element (as float).
void expect_close(const Tensor& a, const Tensor& b, double atol, double rtol) {
  ASSERT_EQ(sizes_of(a), sizes_of(b));
  const std::vector<float> va = values_of<float>(a.to(bp::testing::kCpu, ScalarType::kFloat32));
  const std::vector<float> vb = values_of<float>(b.to(bp::testing::kCpu, ScalarType::kFloat32));
  for (size_t i = 0; i < va.size(); ++i) {
    ASSERT_LE(std::fabs(va[i] - vb[i]), atol + rtol * std::fabs(vb[i]))
        << "element " << i << ": " << va[i] << " vs " << vb[i];
  }
}

class FusedGroupsUnderEmulation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { use_emulated_cuda(); }

  void SetUp() override {
    bp_error* error = api_->plugin_load(kCudaPlugin, &plugin_);
    ASSERT_EQ(error, nullptr) << api_->error_message(error);
    void* driver = dlopen(kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(driver, nullptr) << "the plugin did not load the emulated driver";
    counters_ =
        reinterpret_cast<decltype(counters_)>(dlsym(driver, "bp_emulated_cuda_get_counters"));
    ASSERT_NE(counters_, nullptr);
  }

  void TearDown() override {
    if (plugin_ != nullptr) api_->error_destroy(api_->plugin_unload(plugin_));
  }

  int64_t launches() const {
    bp_emulated_cuda_counters c{};
    counters_(&c);
    return c.launches;
  }

  // Runs `chain` in a lazy scope; *launched: the kernel launches it took, *offered: the groups
  // the plugin took.
  template <typename Chain>
  Tensor lazily(Chain chain, int64_t* launched, int64_t* offered) {
    Tensor result;
    const int64_t before = launches();
    const int64_t taken = bp::fusion::fusion_stats().offered;
    {
      bp::fusion::LazyScope lazy;
      result = chain();
      lazy.materialize();
    }
    *launched = launches() - before;
    *offered = bp::fusion::fusion_stats().offered - taken;
    return result;
  }

  // Runs `chain` eagerly, then lazily: expects `offered` groups taken by the plugin, `launched`
  // kernel launches, and eager's result bit for bit.
  template <typename Chain>
  void expect_lazy_is_eager(Chain chain, int64_t offered, int64_t launched) {
    const Tensor eager = chain();
    int64_t actually_launched = 0, actually_offered = 0;
    const Tensor lazy = lazily(chain, &actually_launched, &actually_offered);
    EXPECT_EQ(actually_offered, offered);
    EXPECT_EQ(actually_launched, launched);
    expect_identical(lazy, eager);
  }

  const bp_api* api_ = bp_get_api();
  bp_plugin* plugin_ = nullptr;
  void (*counters_)(bp_emulated_cuda_counters*) = nullptr;
};

TEST_F(FusedGroupsUnderEmulation, GeluOfMulAddIsOneLaunchAndMatchesEagerBitForBit) {
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  const Tensor w = wave({96}, ScalarType::kFloat32, kCudaDevice, 0.5);
  const Tensor b = wave({96}, ScalarType::kFloat32, kCudaDevice, 0.25);
  const Tensor eager = gelu_chain(x, w, b);
  int64_t launched = 0, offered = 0;
  const Tensor fused = lazily([&] { return gelu_chain(x, w, b); }, &launched, &offered);
  EXPECT_EQ(offered, 1);
  EXPECT_EQ(launched, 1);
  expect_identical(fused, eager);
  const Tensor cpu =
      gelu_chain(x.to(bp::testing::kCpu, x.dtype()), w.to(bp::testing::kCpu, w.dtype()),
                 b.to(bp::testing::kCpu, b.dtype()));
  expect_close(fused, cpu, 1e-5, 4e-6);  // gelu's float32 tolerance
}

TEST_F(FusedGroupsUnderEmulation, ExpOfShiftedRowsSummedIsOneLaunchAndMatchesEager) {
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  const Tensor eager = softmax_denominator_chain(x);
  int64_t launched = 0, offered = 0;
  const Tensor fused = lazily([&] { return softmax_denominator_chain(x); }, &launched, &offered);
  EXPECT_EQ(offered, 1);
  EXPECT_EQ(launched, 1);
  expect_close(fused, eager, 1e-4, 1e-5);  // sum's float32 tolerance
  const Tensor cpu = softmax_denominator_chain(x.to(bp::testing::kCpu, x.dtype()));
  expect_close(fused, cpu, 1e-4, 1e-5);
}

TEST_F(FusedGroupsUnderEmulation, ExpOfShiftedRowsIsOneLaunchAndMatchesEagerBitForBit) {
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  expect_lazy_is_eager([&] { return bp::exp(bp::sub(x, bp::amax(x, {-1}, true))); },
                       /*offered=*/1, /*launched=*/1);
}

TEST_F(FusedGroupsUnderEmulation, Float16MixedDtypeAndMeanChainsAreOneLaunchEach) {
  const Tensor a = wave({64, 96}, ScalarType::kFloat16, kCudaDevice);
  const Tensor b = wave({64, 96}, ScalarType::kFloat16, kCudaDevice, 0.5);
  const Tensor w = wave({96}, ScalarType::kFloat32, kCudaDevice, 0.5);
  const auto half_chain = [&] { return bp::mul(bp::tanh(bp::add(a, b)), a); };
  const auto mixed_chain = [&] { return bp::relu(bp::mul(a, w)); };
  int64_t launched = 0, offered = 0;
  const Tensor half = lazily(half_chain, &launched, &offered);
  EXPECT_EQ(offered, 1);
  EXPECT_EQ(launched, 1);
  expect_identical(half, half_chain());
  const Tensor mixed = lazily(mixed_chain, &launched, &offered);
  EXPECT_EQ(offered, 1);
  EXPECT_EQ(launched, 1);
  EXPECT_EQ(mixed.dtype(), ScalarType::kFloat32);
  expect_identical(mixed, mixed_chain());
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  const Tensor eager_mean = bp::mean(bp::mul(x, x), IntArrayRef{-1});
  const Tensor mean =
      lazily([&] { return bp::mean(bp::mul(x, x), IntArrayRef{-1}); }, &launched, &offered);
  EXPECT_EQ(offered, 1);
  EXPECT_EQ(launched, 1);
  expect_close(mean, eager_mean, 1e-4, 1e-5);
}

TEST_F(FusedGroupsUnderEmulation, ANumberInTheChainIsPassedByValue) {
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  expect_lazy_is_eager([&] { return bp::exp(bp::mul(x, 0.5)); }, /*offered=*/1, /*launched=*/1);
}

TEST_F(FusedGroupsUnderEmulation, AGroupThePluginDeclinesRunsOpByOp) {
  // A reduction over the outer dim: not one row per block, so declined.
  const Tensor x = wave({64, 96}, ScalarType::kFloat32, kCudaDevice);
  const auto chain = [&] { return bp::sum(bp::exp(x), IntArrayRef{0}); };
  const Tensor eager = chain();
  int64_t launched = 0, offered = 0;
  const Tensor lazy = lazily(chain, &launched, &offered);
  EXPECT_EQ(offered, 0);
  EXPECT_GE(launched, 2);  // exp, then the reduction
  expect_identical(lazy, eager);
}

TEST_F(FusedGroupsUnderEmulation, AGroupWithoutAKernelHereRunsOpByOp) {
  // The plugin accepts this structure, but the emulated driver has no host build of its kernel
  // (it is not in fused_group_catalog.h): the plugin declines, and the host runs it op by op.
  const Tensor x = wave({8, 40}, ScalarType::kFloat32, kCudaDevice);
  const Tensor y = wave({8, 40}, ScalarType::kFloat32, kCudaDevice, 0.5);
  expect_lazy_is_eager([&] { return bp::sigmoid(bp::sub(bp::mul(x, y), y)); }, /*offered=*/0,
                       /*launched=*/3);  // mul, sub, sigmoid
}

}  // namespace
}  // namespace bp::emulated_cuda
