// The C test plugin (testing/c_test_plugin.c: add.out and mul.out only, memory in host RAM
// behind its own allocator) loaded into the host: Common gives it add, add_, mul and mul_, the
// CPU fallback every other op, and every result equals the CPU backend's.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

const std::vector<int32_t> kKernelDtypes = {
    BP_DTYPE_BOOL,  BP_DTYPE_UINT8, BP_DTYPE_INT8,    BP_DTYPE_INT16,
    BP_DTYPE_INT32, BP_DTYPE_INT64, BP_DTYPE_FLOAT32, BP_DTYPE_FLOAT64,
};

class CPluginTest : public ::testing::Test {
 protected:
  int64_t kernel_calls() const { return plugin.counter("bp_test_plugin_kernel_calls"); }

  // Expects `got` on the plugin's device with the CPU result's sizes, dtype and elements.
  void expect_same(const Tensor& got, const Tensor& want) const {
    EXPECT_EQ(got.device().device_type, dev.device_type);
    EXPECT_EQ(got.sizes(), want.sizes());
    EXPECT_EQ(got.dtype(), want.dtype());
    EXPECT_EQ(bytes_of(got), bytes_of(want));
  }

  LoadedPlugin plugin{"libc_test_plugin.so"};
  bp_device dev = backend_device("cplug");
  Op add{api(), "add.Tensor"}, add_{api(), "add_.Tensor"}, add_out{api(), "add.out"};
  Op mul{api(), "mul.Tensor"}, mul_{api(), "mul_.Tensor"}, mul_out{api(), "mul.out"};
};

TEST_F(CPluginTest, GetsFunctionalInplaceAndOutAddAndMulThatMatchTheCpu) {
  const int64_t calls_before = kernel_calls();
  for (int32_t dtype : kKernelDtypes) {
    SCOPED_TRACE(dtype_name(dtype));
    const Tensor a = filled(dtype, {2, 3}, 1), b = filled(dtype, {3}, 5);
    const Tensor da = copy_to(a, dev), db = copy_to(b, dev);

    expect_same(add.call({arg(da), arg(db), arg(2)}).tensor(0),
                add.call({arg(a), arg(b), arg(2)}).tensor(0));
    expect_same(mul.call({arg(da), arg(db)}).tensor(0), mul.call({arg(a), arg(b)}).tensor(0));

    const Tensor want_add = add.call({arg(a), arg(b)}).tensor(0);
    Tensor out = Tensor::empty(api(), {2, 3}, dtype, dev);
    const Tensor returned = add_out.call({arg(da), arg(db), arg(1), arg(out)}).tensor(0);
    EXPECT_EQ(returned.get(), out.get());
    expect_same(out, want_add);
    mul_out.call({arg(da), arg(db), arg(out)});
    expect_same(out, mul.call({arg(a), arg(b)}).tensor(0));

    Tensor self = copy_to(a, dev);
    EXPECT_EQ(add_.call({arg(self), arg(db)}).tensor(0).get(), self.get());
    expect_same(self, want_add);
    mul_.call({arg(self), arg(db)});
    expect_same(self, mul.call({arg(want_add), arg(b)}).tensor(0));
  }
  // Every one of those calls reached the plugin's own add.out / mul.out.
  EXPECT_EQ(kernel_calls() - calls_before, 6 * static_cast<int64_t>(kKernelDtypes.size()));
}

TEST_F(CPluginTest, PromotesMixedDtypesAndReadsStridedAndCpuScalarOperands) {
  const Tensor ints = filled(BP_DTYPE_INT32, {2, 3}, 2), floats = filled(BP_DTYPE_FLOAT32, {3}, 4);
  const Tensor d_ints = copy_to(ints, dev), d_floats = copy_to(floats, dev);
  expect_same(add.call({arg(d_ints), arg(d_floats)}).tensor(0),
              add.call({arg(ints), arg(floats)}).tensor(0));

  // add.Scalar wraps the number in a zero-dim CPU tensor that the plugin reads on the host.
  const Op add_scalar(api(), "add.Scalar");
  expect_same(add_scalar.call({arg(d_ints), arg(1.5)}).tensor(0),
              add_scalar.call({arg(ints), arg(1.5)}).tensor(0));

  const Op transpose(api(), "transpose.int");
  const Tensor t = transpose.call({arg(ints), arg(0), arg(1)}).tensor(0);
  const Tensor d_t = transpose.call({arg(d_ints), arg(0), arg(1)}).tensor(0);
  expect_same(mul.call({arg(d_t), arg(d_t)}).tensor(0), mul.call({arg(t), arg(t)}).tensor(0));

  // A float32 result written into a float64 out (a safe cast).
  Tensor out = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT64, dev);
  Tensor want = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT64);
  mul_out.call({arg(d_ints), arg(d_floats), arg(out)});
  mul_out.call({arg(ints), arg(floats), arg(want)});
  expect_same(out, want);
}

TEST_F(CPluginTest, OtherOpsAndDtypesFallBackToTheCpu) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2, 3}, 3);
  const Tensor da = copy_to(a, dev);
  const int64_t calls_before = kernel_calls();
  for (const char* name : {"neg", "exp", "clone"}) {
    SCOPED_TRACE(name);
    const Op op(api(), name);
    expect_same(op.call({arg(da)}).tensor(0), op.call({arg(a)}).tensor(0));
  }
  Tensor dst = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT64, dev);
  Op(api(), "copy_").call({arg(dst), arg(a)});  // CPU -> device, with a dtype conversion
  Tensor want = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT64);
  Op(api(), "copy_").call({arg(want), arg(a)});
  expect_same(dst, want);
  Tensor back = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT32);
  Op(api(), "copy_").call({arg(back), arg(da)});  // device -> CPU
  EXPECT_EQ(bytes_of(back), bytes_of(a));
  Op(api(), "fill_.Scalar").call({arg(dst), arg(2.5)});
  Op(api(), "fill_.Scalar").call({arg(want), arg(2.5)});
  expect_same(dst, want);
  EXPECT_EQ(kernel_calls(), calls_before);

  // Dtypes the plugin's kernels leave to the CPU: the kernel runs, and calls api->cpu_fallback.
  for (int32_t dtype : {BP_DTYPE_FLOAT16, BP_DTYPE_BFLOAT16, BP_DTYPE_COMPLEX64}) {
    SCOPED_TRACE(dtype_name(dtype));
    const Tensor x = filled(dtype, {3, 2}, 1), y = filled(dtype, {3, 2}, 6);
    expect_same(add.call({arg(copy_to(x, dev)), arg(copy_to(y, dev)), arg(3)}).tensor(0),
                add.call({arg(x), arg(y), arg(3)}).tensor(0));
  }
  EXPECT_EQ(kernel_calls(), calls_before + 3);
}

TEST_F(CPluginTest, ShapeErrorsComeFromTheSharedMetaFunctionBeforeThePluginRuns) {
  const Tensor a = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev);
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev);
  const int64_t calls_before = kernel_calls();
  EXPECT_EQ(error_of([&] {
              add.call({arg(a), arg(b)});
            }),
            "[add.Tensor] The size of tensor a (2) must match the size of tensor b (3) at "
            "non-singleton dimension 0");
  Tensor small = Tensor::empty(api(), {1}, BP_DTYPE_FLOAT32, dev);
  EXPECT_EQ(error_of([&] {
              add_.call({arg(small), arg(a)});
            }),
            "[add_.Tensor] output with shape [1] doesn't match the broadcast shape [2]");
  EXPECT_EQ(kernel_calls(), calls_before);
}

TEST_F(CPluginTest, MixingItsTensorsWithCpuTensorsIsAnError) {
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2});
  EXPECT_THAT(error_of([&] {
                add.call({arg(copy_to(a, dev)), arg(a)});
              }),
              HasSubstr("Expected all tensors to be on the same device"));
}

TEST_F(CPluginTest, ItsMemoryComesFromItsOwnAllocator) {
  const int64_t before = plugin.counter("bp_test_plugin_live_allocations");
  {
    const Tensor t = Tensor::empty(api(), {4}, BP_DTYPE_FLOAT32, dev);
    const bp_tensor_info info = t.info();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(info.data) % 64, 0u);  // the plugin's alignment
    EXPECT_EQ(plugin.counter("bp_test_plugin_live_allocations"), before + 1);
  }
  EXPECT_EQ(plugin.counter("bp_test_plugin_live_allocations"), before);
}

TEST_F(CPluginTest, DeviceIndicesBeyondItsDeviceCountAreRefused) {
  bp_tensor* t = nullptr;
  const int64_t sizes[] = {2};
  const ErrorHandle error(
      api(), api()->tensor_empty(sizes, 1, BP_DTYPE_FLOAT32, bp_device{dev.device_type, 2}, &t));
  ASSERT_TRUE(error);
  EXPECT_EQ(error.message(), "device index 2 is out of range for backend 'cplug' (device_count 2)");
  // Device 1 exists: its allocations ask the plugin for device 1.
  const Tensor on_one = Tensor::empty(api(), {2}, BP_DTYPE_FLOAT32, bp_device{dev.device_type, 1});
  EXPECT_EQ(on_one.device().device_id, 1);
}

// The C++ test plugin (testing/cc_test_plugin.cc) registers a typed neg.out with backplane.hpp.
TEST(CcPlugin, ATypedKernelServesItsOpAndItsErrorsNameThePluginAndTheOp) {
  const LoadedPlugin plugin("libcc_test_plugin.so");
  const bp_device dev = backend_device("ccplug");
  const Op neg(api(), "neg");
  const Tensor a = filled(BP_DTYPE_FLOAT32, {2, 3});
  const Tensor got = neg.call({arg(copy_to(a, dev))}).tensor(0);
  EXPECT_EQ(got.device().device_type, dev.device_type);
  EXPECT_EQ(bytes_of(got), bytes_of(neg.call({arg(a)}).tensor(0)));
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT64, {2}), dev);
  EXPECT_EQ(error_of([&] { neg.call({arg(b)}); }),
            "[neg] [ccplug] neg.out: only contiguous float32");
  // Ops without a kernel reach its CPU fallback.
  const Op exp(api(), "exp");
  EXPECT_EQ(bytes_of(exp.call({arg(copy_to(a, dev))}).tensor(0)),
            bytes_of(exp.call({arg(a)}).tensor(0)));
}

}  // namespace
}  // namespace backplane::testing
