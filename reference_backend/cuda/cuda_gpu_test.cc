// The plugin's runtime on a real GPU (no libbackplane needed): jitted elementwise kernels in each
// variant, reductions including split ones, the allocator on device memory, and the kernel cache
// (a second launch compiles nothing). Every test skips, with the reason, on a machine without a
// usable CUDA driver; the same kernels are checked without a GPU by the emulation tests.
#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "reference_backend/cuda/computation.h"
#include "reference_backend/cuda/elementwise_plan.h"
#include "reference_backend/cuda/gpu_test_support.h"
#include "reference_backend/cuda/host_values.h"
#include "reference_backend/cuda/launch.h"
#include "reference_backend/cuda/pointwise_ops.h"
#include "reference_backend/cuda/reduce_kernel.h"
#include "reference_backend/cuda/reduction_ops.h"

namespace bp::cuda {
namespace {

class CudaGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    device_ = test_device();
    if (device_ == nullptr) GTEST_SKIP() << "no GPU: " << test_device_unavailable_reason();
  }
  template <typename T>
  void upload(const DeviceBuffer<T>& b, const std::vector<T>& v) {
    device_->copy_from_host(b.data(), v.data(), v.size() * sizeof(T));
  }
  template <typename T>
  std::vector<T> download(const DeviceBuffer<T>& b, size_t n) {
    std::vector<T> v(n);
    device_->copy_to_host(v.data(), b.data(), n * sizeof(T));
    return v;
  }
  CudaDevice* device_ = nullptr;
};

PlanOperand contiguous(char* data, Dtype dtype) {
  return {{static_cast<int64_t>(info(dtype).itemsize)}, data, dtype, false};
}

jit::Value alpha_of(double a) {
  bp_value v{};
  v.tag = BP_VALUE_DOUBLE;
  v.u.d = a;
  return scalar_as(v, Dtype::kFloat32);
}

TEST_F(CudaGpu, VectorisedAddMatchesTheHostAndItsSecondLaunchCompilesNothing) {
  const size_t n = (1 << 20) + 7;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.25f;
    b[i] = static_cast<float>(i % 7) - 3.0f;
  }
  DeviceBuffer<float> da(*device_, n), db(*device_, n), dout(*device_, n);
  upload(da, a);
  upload(db, b);
  IterPlan plan;
  plan.shape = {static_cast<int64_t>(n)};
  plan.operands = {contiguous(dout.data(), Dtype::kFloat32), contiguous(da.data(), Dtype::kFloat32),
                   contiguous(db.data(), Dtype::kFloat32)};
  const Computation add = computation_of(*find_pointwise_op("add.out"));
  const jit::Value alpha = alpha_of(2.0);
  const ElementwiseLaunch launch =
      plan_elementwise(add, Dtype::kFloat32, Dtype::kFloat32, plan, {&alpha, 1});
  ASSERT_EQ(launch.kernel.variant, Variant::kVectorized);
  ASSERT_EQ(launch.kernel.vec, 4);
  run_elementwise(*device_, launch);
  const int64_t compiles = device_->kernels().stats().compiles;
  run_elementwise(*device_, launch);
  EXPECT_EQ(device_->kernels().stats().compiles, compiles);
  const std::vector<float> out = download(dout, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] + 2.0f * b[i]) << i;
}

TEST_F(CudaGpu, StridedAndDynamicCastKernelsReadThroughOffsetsAndConvert) {
  // out[i, j] = exp(in[j, i]) for a 300 x 200 float64 input read transposed, written as float32
  // by the dynamic kernel (the output's dtype differs from the compute dtype).
  const int64_t rows = 300, cols = 200;
  std::vector<double> in(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<double>(i % 97) / 50.0 - 1.0;
  DeviceBuffer<double> din(*device_, in.size());
  DeviceBuffer<float> dout(*device_, in.size());
  upload(din, in);
  IterPlan plan;
  plan.shape = {rows, cols};  // dim 0 fastest: out is [cols][rows] row-major
  plan.operands = {{{4, 4 * rows}, dout.data(), Dtype::kFloat32, false},
                   {{8 * cols, 8}, din.data(), Dtype::kFloat64, false}};
  const Computation exp = computation_of(*find_pointwise_op("exp.out"));
  const ElementwiseLaunch launch =
      plan_elementwise(exp, Dtype::kFloat64, Dtype::kFloat64, plan, {});
  ASSERT_EQ(launch.kernel.variant, Variant::kDynamic);
  run_elementwise(*device_, launch);
  const std::vector<float> out = download(dout, in.size());
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) {
      const float expected = static_cast<float>(std::exp(in[static_cast<size_t>(i * cols + j)]));
      ASSERT_NEAR(out[static_cast<size_t>(j * rows + i)], expected, 1e-6f * expected);
    }
  }
}

TEST_F(CudaGpu, SplitSumOfManyElementsMatchesTheHost) {
  const size_t n = 3'000'000;
  std::vector<float> in(n);
  double expected = 0;
  for (size_t i = 0; i < n; ++i) {
    in[i] = static_cast<float>(i % 13) - 6.0f;
    expected += in[i];
  }
  DeviceBuffer<float> din(*device_, n), dout(*device_, 1);
  upload(din, in);
  IterPlan plan;
  plan.shape = {static_cast<int64_t>(n)};
  plan.operands = {{{0}, dout.data(), Dtype::kFloat32, false},
                   contiguous(din.data(), Dtype::kFloat32)};
  const ReduceLaunch launch = plan_reduce(
      {find_reduction_op("sum.IntList_out"), Dtype::kFloat32, Dtype::kFloat32}, plan, {});
  ASSERT_GT(launch.chunks, 1u);
  run_reduce(*device_, launch);
  EXPECT_EQ(download(dout, 1)[0], static_cast<float>(expected));
}

TEST_F(CudaGpu, TheAllocatorReusesDeviceBlocks) {
  const CachingAllocator::Stats before = device_->allocator().stats();
  void* a = device_->allocator().allocate(1 << 22);
  device_->allocator().deallocate(a);
  void* b = device_->allocator().allocate(1 << 22);
  device_->allocator().deallocate(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(device_->allocator().stats().cache_hits, before.cache_hits + 1);
}

}  // namespace
}  // namespace bp::cuda
