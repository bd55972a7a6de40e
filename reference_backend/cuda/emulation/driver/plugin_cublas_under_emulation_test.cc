// The plugin's matrix products through cuBLAS, without a GPU: the plugin loads the emulated
// driver ($BP_CUDA_DRIVER) and, through $BP_CUDA_CUBLAS, the emulated cuBLAS the same library
// exports (cublas_api.cc). mm, bmm, addmm, addmm_, baddbmm and matmul in float32, float64 and
// bfloat16, with transposed, broadcast and column-major operands and beta 0 over NaNs, give the
// CPU backend's values and go through cublasGemmStridedBatchedEx (its counter); int32 and int64
// stay with the jitted kernel, and so does everything when $BP_CUDA_CUBLAS names no library.
// The values are multiples of 0.5 with short sums: exact in every dtype, so compared exactly.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "backplane/backplane.h"
#include "backplane/backplane.hpp"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "reference_backend/cuda/emulation/driver/control.h"
#include "reference_backend/cuda/emulation/driver/emulated_environment.h"

namespace bp::emulated_cuda {
namespace {

using backplane::arg;
using backplane::Op;
using backplane::Tensor;
using ::testing::HasSubstr;

constexpr bp_device kCuda{BP_DEVICE_CUDA, 0};
constexpr bp_device kCpu{BP_DEVICE_CPU, -1};

// An operand on both backends, with the same values and layout.
struct Both {
  Tensor cpu, cuda;
};

class PluginCublas : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { use_emulated_cuda(); }

  // Loads the plugin with $BP_CUDA_CUBLAS = `cublas`.
  void load(const char* cublas) {
    setenv("BP_CUDA_CUBLAS", cublas, 1);
    const backplane::ErrorHandle error(api_, api_->plugin_load(kCudaPlugin, &plugin_));
    ASSERT_FALSE(error) << error.message();
    void* driver = dlopen(kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(driver, nullptr) << "the plugin did not load the emulated driver";
    counters_ =
        reinterpret_cast<decltype(counters_)>(dlsym(driver, "bp_emulated_cuda_get_counters"));
    ASSERT_NE(counters_, nullptr);
  }

  void TearDown() override {
    if (plugin_ == nullptr) return;
    api_->error_destroy(api_->plugin_unload(plugin_));
    EXPECT_EQ(counters().live_allocations, 0) << "device memory leaked";
  }

  bp_emulated_cuda_counters counters() const {
    bp_emulated_cuda_counters c{};
    counters_(&c);
    return c;
  }

  std::string plugin_name() const {
    std::string name;
    api_->error_destroy(api_->plugin_load_records(
        [](void* user_data, const bp_plugin_load_record* r) {
          if (r->loaded) *static_cast<std::string*>(user_data) = r->plugin_name;
        },
        &name));
    return name;
  }

  Tensor convert(const Tensor& t, int32_t dtype) const {
    return Op(api_, "to.dtype").call({arg(t), backplane::dtype_arg(dtype)}).tensor(0);
  }

  // Contiguous values (multiples of 0.5 in [-1.5, 1.5]; NaN everywhere when `nan`).
  Both make(const std::vector<int64_t>& sizes, int32_t dtype, int seed, bool nan = false) const {
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    std::vector<float> v(static_cast<size_t>(numel));
    for (size_t i = 0; i < v.size(); ++i) {
      v[i] = nan ? std::numeric_limits<float>::quiet_NaN()
                 : 0.5f * static_cast<float>(static_cast<int>((i * 5 + seed) % 7) - 3);
    }
    return {convert(Tensor::from_host<float>(api_, v, sizes, kCpu), dtype),
            convert(Tensor::from_host<float>(api_, v, sizes, kCuda), dtype)};
  }

  static Both view(const Both& b, const std::vector<int64_t>& sizes,
                   const std::vector<int64_t>& strides) {
    return {b.cpu.as_strided(sizes, strides, 0), b.cuda.as_strided(sizes, strides, 0)};
  }

  std::vector<double> values(const Tensor& t) const {
    return convert(t, BP_DTYPE_FLOAT64).to_host<double>();
  }

  // Runs `op(on_cuda)` on each backend and expects the same values; returns how many products
  // the emulated cuBLAS queued and how many kernels were launched for the CUDA run.
  std::pair<int64_t, int64_t> compare(const std::string& what,
                                      const std::function<Tensor(bool)>& op) const {
    const std::vector<double> expected = values(op(false));
    const bp_emulated_cuda_counters before = counters();
    const Tensor result = op(true);
    const bp_emulated_cuda_counters after = counters();
    EXPECT_EQ(result.device().device_type, BP_DEVICE_CUDA) << what;
    const std::vector<double> got = values(result);
    EXPECT_EQ(got.size(), expected.size()) << what;
    for (size_t i = 0; i < got.size() && i < expected.size(); ++i) {
      EXPECT_FALSE(std::isnan(got[i])) << what << " [" << i << "]";
      EXPECT_EQ(got[i], expected[i]) << what << " [" << i << "]";
    }
    return {after.cublas_gemms - before.cublas_gemms, after.launches - before.launches};
  }

  // Every case in `dtype`; expects each to go through cuBLAS or not.
  void run_cases(int32_t dtype, bool expect_cublas) {
    const std::string d = " of dtype " + std::to_string(dtype);
    const bool floating = dtype != BP_DTYPE_INT32 && dtype != BP_DTYPE_INT64;
    const bp_value beta = floating ? arg(0.5) : arg(3), alpha = arg(2);
    const Both a = make({3, 4}, dtype, 1), b = make({4, 5}, dtype, 2);
    const Both at = view(make({12}, dtype, 3), {3, 4}, {1, 3});  // a^T stored contiguous
    const Both bt = view(make({20}, dtype, 4), {4, 5}, {1, 4});
    const Both ba = make({2, 3, 4}, dtype, 5), bb = make({2, 4, 5}, dtype, 6);
    const Both b_broadcast = view(b, {2, 4, 5}, {0, 5, 1});
    const Both self_row = make({5}, dtype, 7), self_batched = make({2, 3, 5}, dtype, 8);
    const Both nans = make({3, 5}, dtype, 0, floating);
    auto on = [](const Both& x, bool cuda) { return arg(cuda ? x.cuda : x.cpu); };
    struct Case {
      std::string name;
      std::function<Tensor(bool)> op;
    };
    const std::vector<Case> cases = {
        {"mm",
         [&](bool c) {
           return Op(api_, "mm").call({on(a, c), on(b, c)}).tensor(0);
         }},
        {"mm of transposed operands",
         [&](bool c) {
           return Op(api_, "mm").call({on(at, c), on(bt, c)}).tensor(0);
         }},
        {"mm.out into a column-major out",
         [&](bool c) {
           const Both out = view(make({15}, dtype, 9), {3, 5}, {1, 3});
           Op(api_, "mm.out").call({on(a, c), on(b, c), on(out, c)});
           return c ? out.cuda : out.cpu;
         }},
        {"bmm",
         [&](bool c) {
           return Op(api_, "bmm").call({on(ba, c), on(bb, c)}).tensor(0);
         }},
        {"bmm of a broadcast operand",
         [&](bool c) {
           return Op(api_, "bmm").call({on(ba, c), on(b_broadcast, c)}).tensor(0);
         }},
        {"addmm of a broadcast self",
         [&](bool c) {
           return Op(api_, "addmm")
               .call({on(self_row, c), on(at, c), on(b, c), beta, alpha})
               .tensor(0);
         }},
        {"addmm with beta 0 over NaNs",
         [&](bool c) {
           return Op(api_, "addmm")
               .call({on(nans, c), on(a, c), on(bt, c), arg(0), alpha})
               .tensor(0);
         }},
        {"addmm_",
         [&](bool c) {
           const Both self = make({3, 5}, dtype, 10);
           Op(api_, "addmm_").call({on(self, c), on(a, c), on(b, c), beta, alpha});
           return c ? self.cuda : self.cpu;
         }},
        {"baddbmm",
         [&](bool c) {
           return Op(api_, "baddbmm")
               .call({on(self_batched, c), on(ba, c), on(bb, c), beta, alpha})
               .tensor(0);
         }},
        {"matmul",
         [&](bool c) {
           return Op(api_, "matmul").call({on(ba, c), on(b, c)}).tensor(0);
         }},
    };
    for (const Case& k : cases) {
      const auto [gemms, launches] = compare(k.name + d, k.op);
      if (expect_cublas) {
        EXPECT_GE(gemms, 1) << k.name << d << " did not go through cuBLAS";
      } else {
        EXPECT_EQ(gemms, 0) << k.name << d << " went through cuBLAS";
        EXPECT_GE(launches, 1) << k.name << d << " did not run the jitted kernel";
      }
    }
  }

  const bp_api* api_ = bp_get_api();
  bp_plugin* plugin_ = nullptr;
  decltype(&bp_emulated_cuda_get_counters) counters_ = nullptr;
};

TEST_F(PluginCublas, FloatProductsGoThroughCublasAndMatchTheCpu) {
  ASSERT_NO_FATAL_FAILURE(load(kEmulatedDriver));
  EXPECT_EQ(plugin_name(),
            std::string("cuda (emulated CUDA device (host); cuBLAS ") + kEmulatedDriver + ")");
  for (int32_t dtype : {BP_DTYPE_FLOAT32, BP_DTYPE_FLOAT64, BP_DTYPE_BFLOAT16}) {
    run_cases(dtype, true);
  }
}

TEST_F(PluginCublas, ProductsCublasDeclinesRunJitted) {
  ASSERT_NO_FATAL_FAILURE(load(kEmulatedDriver));
  auto inject = reinterpret_cast<decltype(&bp_emulated_cuda_inject)>(
      dlsym(dlopen(kEmulatedDriver, RTLD_NOW | RTLD_NOLOAD), "bp_emulated_cuda_inject"));
  ASSERT_NE(inject, nullptr);
  ASSERT_EQ(inject("cublas", 1), 0);  // CUBLAS_STATUS_NOT_SUPPORTED from now on
  run_cases(BP_DTYPE_FLOAT32, false);
  inject("cublas", 0);
}

TEST_F(PluginCublas, IntegerProductsStayJitted) {
  ASSERT_NO_FATAL_FAILURE(load(kEmulatedDriver));
  for (int32_t dtype : {BP_DTYPE_INT32, BP_DTYPE_INT64}) run_cases(dtype, false);
}

TEST_F(PluginCublas, WithoutCublasEveryProductIsJittedAndTheNameSaysWhy) {
  ASSERT_NO_FATAL_FAILURE(load("/nonexistent/libcublas.so.13"));
  EXPECT_THAT(plugin_name(),
              HasSubstr("no cuBLAS: cannot load cuBLAS (/nonexistent/libcublas.so.13"));
  for (int32_t dtype : {BP_DTYPE_FLOAT32, BP_DTYPE_FLOAT64, BP_DTYPE_BFLOAT16}) {
    run_cases(dtype, false);
  }
}

}  // namespace
}  // namespace bp::emulated_cuda
