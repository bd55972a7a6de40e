#include "sdk/dispatch/cpu_fallback.h"

#include <vector>

#include "gtest/gtest.h"
#include "sdk/core/resize.h"
#include "sdk/core/tensor_impl.h"
#include "sdk/dispatch/dispatcher.h"
#include "sdk/dispatch/fake_device.h"
#include "sdk/dispatch/library.h"

namespace bp {
namespace {

// Calls f(offset_in_elements) for every element of t, in row-major order of its sizes.
template <typename F>
void for_each_offset(const Tensor& t, F&& f) {
  std::vector<int64_t> index(t.dim(), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.strides()[d];
    f(offset);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[d] < t.sizes()[d]) break;
      index[d] = 0;
    }
  }
}

float* storage_floats(const Tensor& t) { return static_cast<float*>(t.storage().data()); }

// CPU kernels that insist on CPU tensors, so a test fails if the fallback forgot to move them.
Tensor add_one_cpu(DispatchKeySet, const Tensor& self) {
  EXPECT_TRUE(self.device().is_cpu());
  Tensor out = cpu_tensor(std::vector<int64_t>(self.sizes().begin(), self.sizes().end()));
  float* dst = out.data_ptr<float>();
  int64_t i = 0;
  for_each_offset(self, [&](int64_t off) { dst[i++] = storage_floats(self)[off] + 1; });
  return out;
}

Tensor& add_one_inplace_cpu(DispatchKeySet, Tensor& self) {
  EXPECT_TRUE(self.device().is_cpu());
  for_each_offset(self, [&](int64_t off) { storage_floats(self)[off] += 1; });
  return self;
}

Tensor& add_one_out_cpu(DispatchKeySet, const Tensor& self, Tensor& out) {
  EXPECT_TRUE(self.device().is_cpu() && out.device().is_cpu());
  int64_t i = 0;
  float* dst = out.data_ptr<float>();
  for_each_offset(self, [&](int64_t off) { dst[i++] = storage_floats(self)[off] + 1; });
  return out;
}

// Resizes out to [n] (its storage grows) and writes 0, 1, ..., n - 1.
Tensor& iota_out_cpu(DispatchKeySet, int64_t n, Tensor& out) {
  EXPECT_TRUE(out.device().is_cpu());
  resize_tensor(*out.impl(), {n});
  for (int64_t i = 0; i < n; ++i) out.data_ptr<float>()[i] = static_cast<float>(i);
  return out;
}

class CpuFallbackTest : public ::testing::Test {
 protected:
  Dispatcher d;
  FakeDevice dev{"cpu_fallback_test_dev"};
  Library lib{"cft", d};

  void SetUp() override {
    lib.def("add_one(Tensor self) -> Tensor")
        .def("add_one_(Tensor(a!) self) -> Tensor(a!)")
        .def("add_one.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
        .def("iota.out(int n, *, Tensor(a!) out) -> Tensor(a!)")
        .impl("add_one", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&add_one_cpu>())
        .impl("add_one_", DispatchKey::kCPU,
              KernelFunction::make_from_unboxed<&add_one_inplace_cpu>())
        .impl("add_one.out", DispatchKey::kCPU,
              KernelFunction::make_from_unboxed<&add_one_out_cpu>())
        .impl("iota.out", DispatchKey::kCPU, KernelFunction::make_from_unboxed<&iota_out_cpu>())
        .fallback(dev.key(), KernelFunction::make_from_boxed(&cpu_fallback), "cpu_fallback");
  }
};

TEST_F(CpuFallbackTest, RunsOnCpuAndMovesTheResultToTheDevice) {
  Tensor x = dev.from_floats({2, 2}, {1, 2, 3, 4});
  Tensor y = d.find_op_or_throw("cft::add_one").call<Tensor(const Tensor&)>(x);
  EXPECT_EQ(y.device(), dev.device());
  EXPECT_EQ(FakeDevice::to_floats(y), (std::vector<float>{2, 3, 4, 5}));
  EXPECT_EQ(FakeDevice::to_floats(x), (std::vector<float>{1, 2, 3, 4}));
}

TEST_F(CpuFallbackTest, HandlesStridedViews) {
  Tensor base = dev.from_floats({2, 3}, {0, 1, 2, 3, 4, 5});
  // The transpose of base's last two columns: sizes [2, 2], strides [1, 3], offset 1.
  Tensor view(IntrusivePtr<TensorImpl>::make(base.storage(), ScalarType::kFloat32,
                                             IntArrayRef{2, 2}, IntArrayRef{1, 3}, 1,
                                             base.impl()->version_counter()));
  Tensor y = d.find_op_or_throw("cft::add_one").call<Tensor(const Tensor&)>(view);
  EXPECT_EQ(FakeDevice::to_floats(y), (std::vector<float>{2, 5, 3, 6}));
}

TEST_F(CpuFallbackTest, CopiesWrittenArgumentsBackIntoTheOriginalStorage) {
  Tensor base = dev.from_floats({2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor column(IntrusivePtr<TensorImpl>::make(base.storage(), ScalarType::kFloat32, IntArrayRef{2},
                                               IntArrayRef{3}, 2, base.impl()->version_counter()));
  Tensor& r = d.find_op_or_throw("cft::add_one_").call<Tensor&(Tensor&)>(column);
  EXPECT_EQ(&r, &column);
  EXPECT_EQ(FakeDevice::to_floats(base), (std::vector<float>{0, 1, 3, 3, 4, 6}));
}

TEST_F(CpuFallbackTest, OutVariantWritesIntoTheDeviceOutTensorAndReturnsIt) {
  Tensor x = dev.from_floats({3}, {1, 2, 3});
  Tensor out = dev.empty({3}, ScalarType::kFloat32);
  Tensor& r = d.find_op_or_throw("cft::add_one.out").call<Tensor&(const Tensor&, Tensor&)>(x, out);
  EXPECT_EQ(&r, &out);
  EXPECT_EQ(FakeDevice::to_floats(out), (std::vector<float>{2, 3, 4}));
  // Boxed: the returned value is the caller's device tensor itself, not a copy.
  Stack stack{Value(x), Value(out)};
  d.find_op_or_throw("cft::add_one.out").call_boxed(&stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].ref<Tensor>().is_same(out));
}

TEST_F(CpuFallbackTest, ArgumentsViewingOneStorageViewOneCpuCopy) {
  // out = base[1:4] overlaps self = base[0:3]: the kernel, writing in order, reads what it wrote
  // one element before, as it would on the CPU. Copies of each argument would give [0, 1, 1, 1].
  Tensor base = dev.from_floats({6}, {0, 0, 0, 0, 0, 0});
  auto slice = [&](int64_t offset) {
    return Tensor(IntrusivePtr<TensorImpl>::make(base.storage(), ScalarType::kFloat32,
                                                 IntArrayRef{3}, IntArrayRef{1}, offset,
                                                 base.impl()->version_counter()));
  };
  Tensor self = slice(0), out = slice(1);
  const int64_t before = dev.allocations();
  d.find_op_or_throw("cft::add_one.out").call<Tensor&(const Tensor&, Tensor&)>(self, out);
  EXPECT_EQ(FakeDevice::to_floats(base), (std::vector<float>{0, 1, 2, 3, 0, 0}));
  EXPECT_EQ(dev.allocations(), before);  // one CPU copy, nothing new on the device
}

TEST_F(CpuFallbackTest, OutResizedOnTheCpuIsResizedOnTheDevice) {
  Tensor out = dev.empty({0}, ScalarType::kFloat32);
  d.find_op_or_throw("cft::iota.out").call<Tensor&(int64_t, Tensor&)>(4, out);
  EXPECT_EQ(out.device(), dev.device());
  EXPECT_EQ(out.storage().nbytes(), 4 * sizeof(float));
  EXPECT_EQ(FakeDevice::to_floats(out), (std::vector<float>{0, 1, 2, 3}));
}

TEST_F(CpuFallbackTest, CpuTensorsAreNotCopied) {
  Tensor x = cpu_tensor({1});
  x.data_ptr<float>()[0] = 7;
  int64_t before = dev.allocations();
  Tensor y = d.find_op_or_throw("cft::add_one").call<Tensor(const Tensor&)>(x);
  EXPECT_TRUE(y.device().is_cpu());
  EXPECT_EQ(y.data_ptr<float>()[0], 8);
  EXPECT_EQ(dev.allocations(), before);
}

}  // namespace
}  // namespace bp
