// api->kernel_call_iter: a plugin kernel served through the Common key runs over the iteration
// plan the op's meta function built, so a call builds one TensorIterator, not two (counted with
// TensorIteratorBase::builds_on_this_thread, hence the host linked in-process); the plan carries
// the meta function's dtype decisions; plugins built against older headers keep building their
// own; and the plan is refused, with a clear error, to calls that have none.
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sdk/c_api/testing/abi_test_util.h"
#include "sdk/iter/tensor_iterator.h"

namespace backplane::testing {
namespace {

using ::testing::HasSubstr;

int64_t builds() { return bp::TensorIteratorBase::builds_on_this_thread(); }

std::vector<float> floats(const Tensor& t) { return t.to_host<float>(); }

// What the typed kernels below saw of their plan.
struct Seen {
  bp_iter_info info{};
  std::vector<int32_t> dtypes;  // per operand
  bool out_is_operand_0 = false;
  int parts = 0;  // iter_split_32bit visits
};
Seen seen;

Seen read_plan(const Plan& plan, const Tensor& out) {
  Seen s;
  s.info = plan.info();
  for (size_t k = 0; k < s.info.ntensors; ++k) s.dtypes.push_back(plan.operand(k).dtype);
  s.out_is_operand_0 = plan.tensor(0).get() == out.get();
  check(out.api(), out.api()->iter_split_32bit(
                       plan.get(),
                       [](void* parts, const bp_iter*) -> bp_error* {
                         ++*static_cast<int*>(parts);
                         return nullptr;
                       },
                       &s.parts));
  return s;
}

// neg.out over the Common key's plan, for float32 operands only (no cast).
Tensor planned_neg_out(const bp_api*, const Plan& plan, Tensor, Tensor out) {
  seen = read_plan(plan, out);
  const bp_iter_operand o = plan.operand(0), x = plan.operand(1);
  if (seen.info.common_dtype != BP_DTYPE_FLOAT32 || o.dtype != BP_DTYPE_FLOAT32 ||
      x.dtype != BP_DTYPE_FLOAT32 || seen.info.ndim > 1) {
    throw RunOnCpu();
  }
  for (int64_t i = 0; i < seen.info.numel; ++i) {
    const int64_t step = seen.info.ndim == 1 ? i : 0;
    float v;
    std::memcpy(&v, static_cast<char*>(x.data) + step * x.strides[0], sizeof v);
    v = -v;
    std::memcpy(static_cast<char*>(o.data) + step * o.strides[0], &v, sizeof v);
  }
  return out;
}

// pow.Tensor_Scalar_out: records the plan, computes nothing.
Tensor planned_pow_out(const bp_api*, const Plan& plan, Tensor, Scalar, Tensor out) {
  seen = read_plan(plan, out);
  return out;
}

// ---- One iterator per call ---------------------------------------------------------------

TEST(KernelCallIter, APluginKernelServedThroughCommonBuildsNoSecondIterator) {
  LoadedPlugin plugin("libc_test_plugin.so");
  const bp_device dev = backend_device("cplug");
  const Tensor a = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}), dev);
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}, 5), dev);
  const int64_t handed = plugin.counter("bp_test_plugin_handed_plans");
  const int64_t built = plugin.counter("bp_test_plugin_built_plans");

  // Functional, in-place and out= calls: the meta function's iterator is the only one.
  int64_t before = builds();
  const Tensor c = Op(api(), "add.Tensor").call({arg(a), arg(b), arg(2)}).tensor(0);
  EXPECT_EQ(builds() - before, 1);
  const Tensor d = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}), dev);
  before = builds();
  Op(api(), "mul_.Tensor").call({arg(d), arg(b)});
  EXPECT_EQ(builds() - before, 1);
  const Tensor out = Tensor::empty(api(), {2, 3}, BP_DTYPE_FLOAT32, dev);
  before = builds();
  Op(api(), "add.out").call({arg(a), arg(b), arg(1), arg(out)});
  EXPECT_EQ(builds() - before, 1);

  EXPECT_EQ(plugin.counter("bp_test_plugin_handed_plans") - handed, 3);
  EXPECT_EQ(plugin.counter("bp_test_plugin_built_plans") - built, 0);
  const std::vector<float> x = floats(a), y = floats(b), sum2 = floats(c), prod = floats(d),
                           sum1 = floats(out);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(sum2[i], x[i] + 2 * y[i]);
    EXPECT_EQ(prod[i], x[i] * y[i]);
    EXPECT_EQ(sum1[i], x[i] + y[i]);
  }
}

TEST(KernelCallIter, TheHandedPlanBroadcastsAndPromotesAsTheMetaFunctionDecided) {
  LoadedPlugin plugin("libc_test_plugin.so");
  const bp_device dev = backend_device("cplug");
  const Tensor a = copy_to(filled(BP_DTYPE_INT32, {2, 1}), dev);
  const Tensor b = copy_to(filled(BP_DTYPE_FLOAT64, {3}, 4), dev);
  const int64_t handed = plugin.counter("bp_test_plugin_handed_plans");
  const int64_t before = builds();
  const Tensor c = Op(api(), "mul.Tensor").call({arg(a), arg(b)}).tensor(0);
  EXPECT_EQ(builds() - before, 1);
  EXPECT_EQ(plugin.counter("bp_test_plugin_handed_plans") - handed, 1);
  EXPECT_EQ(c.dtype(), BP_DTYPE_FLOAT64);
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 3}));
  const Tensor expected =
      Op(api(), "mul.Tensor")
          .call({arg(filled(BP_DTYPE_INT32, {2, 1})), arg(filled(BP_DTYPE_FLOAT64, {3}, 4))})
          .tensor(0);
  EXPECT_EQ(bytes_of(c), bytes_of(expected));
}

TEST(KernelCallIter, APluginBuiltAgainstOlderHeadersBuildsItsOwnPlanAndStillWorks) {
  LoadedPlugin plugin("libc_test_plugin_old_minor.so");
  const bp_device dev = backend_device("cplug_old");
  const Tensor a = copy_to(filled(BP_DTYPE_FLOAT32, {4}), dev);
  const int64_t before = builds();
  const Tensor c = Op(api(), "add.Tensor").call({arg(a), arg(a)}).tensor(0);
  EXPECT_EQ(builds() - before, 2);  // the meta function's, and the plugin's own
  EXPECT_EQ(plugin.counter("bp_test_plugin_built_plans"), 1);
  EXPECT_EQ(plugin.counter("bp_test_plugin_handed_plans"), 0);
  const std::vector<float> x = floats(a), y = floats(c);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], 2 * x[i]);
}

TEST(KernelCallIter, ATypedKernelTakesThePlanAsItsFirstParameter) {
  HostBackend dev("plan_dev");
  const Registration r = register_kernel<&planned_neg_out>(api(), dev.get(), "neg.out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}), dev.device());
  const int64_t before = builds();
  const Tensor y = Op(api(), "neg").call({arg(x)}).tensor(0);
  EXPECT_EQ(builds() - before, 1);
  EXPECT_TRUE(seen.out_is_operand_0);  // the tensor the kernel returns
  EXPECT_EQ(seen.info.ndim, 1u);       // [2, 3] coalesced
  EXPECT_EQ(seen.info.numel, 6);
  EXPECT_EQ(seen.info.ntensors, 2u);
  EXPECT_EQ(seen.info.common_dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(seen.parts, 1);  // fits 32-bit offsets: the plan itself
  const std::vector<float> in = floats(x), out = floats(y);
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], -in[i]);
}

TEST(KernelCallIter, ThePlanCarriesTheComputeDtypeAScalarArgumentDecided) {
  // pow(int32 tensor, 2.5) computes in float32: the plan says so, and its input is the int32
  // tensor itself (the kernel casts while loading), not a converted copy.
  HostBackend dev("pow_dev");
  const Registration r =
      register_kernel<&planned_pow_out>(api(), dev.get(), "pow.Tensor_Scalar_out");
  const Tensor x = copy_to(filled(BP_DTYPE_INT32, {4}), dev.device());
  const int64_t live = dev.live_allocations();
  const int64_t before = builds();
  const Tensor y = Op(api(), "pow.Tensor_Scalar").call({arg(x), arg(2.5)}).tensor(0);
  EXPECT_EQ(builds() - before, 1);
  EXPECT_EQ(y.dtype(), BP_DTYPE_FLOAT32);
  EXPECT_EQ(dev.live_allocations() - live, 1);  // the output only
  EXPECT_EQ(seen.info.common_dtype, BP_DTYPE_FLOAT32);
  EXPECT_EQ(seen.dtypes, (std::vector<int32_t>{BP_DTYPE_FLOAT32, BP_DTYPE_INT32}));
  // An integer exponent keeps the integer dtype.
  Op(api(), "pow.Tensor_Scalar").call({arg(x), arg(2)});
  EXPECT_EQ(seen.info.common_dtype, BP_DTYPE_INT32);
}

// ---- Calls without a plan --------------------------------------------------------------------

TEST(KernelCallIter, AKernelCalledWithoutCommonGetsAClearError) {
  HostBackend dev("no_plan_dev");
  const Registration r = register_kernel<&planned_neg_out>(api(), dev.get(), "neg.out");
  bp_registration* fallthrough = nullptr;
  check(api(), api()->common_fallthrough_register(dev.get(), &fallthrough));
  const Registration f(api(), fallthrough);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  const Tensor out = copy_to(filled(BP_DTYPE_FLOAT32, {2}), dev.device());
  Results results(api(), 1);
  const ErrorHandle error = Op(api(), "neg.out").try_call({arg(x), arg(out)}, results);
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), BP_ERROR_NOT_IMPLEMENTED);
  EXPECT_THAT(error.message(),
              HasSubstr("[no_plan_dev] neg.out: bp_api.kernel_call_iter: the host built no "
                        "iteration plan for this call of neg.out (it hands one to the out= kernel "
                        "of an op whose meta function builds a TensorIterator, called through the "
                        "Common key); build one with api->iter_build"));
}

// sum.IntList_out's meta function only computes the reduced shape: no TensorIterator to hand.
Tensor planned_sum_out(const bp_api*, const Plan&, Tensor, bp_value, bool, bp_value, Tensor out) {
  return out;
}

TEST(KernelCallIter, AnOpWhoseMetaFunctionBuildsNoIteratorHasNoPlan) {
  HostBackend dev("sum_dev");
  const Registration r = register_kernel<&planned_sum_out>(api(), dev.get(), "sum.IntList_out");
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {2, 3}), dev.device());
  EXPECT_THAT(error_of([&] {
                Op(api(), "sum.dim_IntList").call({arg(x), arg(1)});
              }),
              HasSubstr("[sum_dev] sum.IntList_out: bp_api.kernel_call_iter: the host built no "
                        "iteration plan for this call of sum.IntList_out"));
}

TEST(KernelCallIter, ArgumentsOfNoRunningKernelCallAreRefused) {
  bp_value args[1] = {none()};
  const bp_iter* plan = nullptr;
  const ErrorHandle outside(api(), api()->kernel_call_iter(args, &plan));
  EXPECT_EQ(outside.code(), BP_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(outside.message(),
            "bp_api.kernel_call_iter: `args` is not the argument array of a kernel call running "
            "on this thread");
  EXPECT_EQ(plan, nullptr);
  const ErrorHandle no_args(api(), api()->kernel_call_iter(nullptr, &plan));
  EXPECT_EQ(no_args.message(), "bp_api.kernel_call_iter: `args` is NULL");
  const ErrorHandle no_out(api(), api()->kernel_call_iter(args, nullptr));
  EXPECT_EQ(no_out.message(), "bp_api.kernel_call_iter: `out` is NULL");
}

// neg.out that first calls mul on its own device (a nested Common call with a plan of its own),
// then asks for its plan: still its own.
const bp_iter* nested_inner = nullptr;
const bp_iter* nested_outer_after = nullptr;
const bp_iter* nested_outer_before = nullptr;

bp_error* nesting_kernel(void*, const bp_op*, const bp_value* args, size_t, bp_value* results,
                         size_t) {
  const bp_api* a = api();
  bp_error* err = a->kernel_call_iter(args, &nested_outer_before);
  if (err) return err;
  const bp_op* mul = nullptr;
  err = a->op_find("mul.Tensor", &mul);
  bp_value product;
  size_t n = 0;
  const bp_value mul_args[2] = {args[0], args[0]};  // served by inner_kernel
  if (!err) err = a->op_call(mul, mul_args, 2, &product, 1, &n);
  if (err) return err;
  a->value_release(&product);
  err = a->kernel_call_iter(args, &nested_outer_after);
  if (err) return err;
  a->tensor_retain(args[1].u.tensor);
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = args[1].u.tensor;
  return nullptr;
}

bp_error* inner_kernel(void*, const bp_op*, const bp_value* args, size_t, bp_value* results,
                       size_t) {
  bp_error* err = api()->kernel_call_iter(args, &nested_inner);
  if (err) return err;
  api()->tensor_retain(args[2].u.tensor);
  results[0].tag = BP_VALUE_TENSOR;
  results[0].u.tensor = args[2].u.tensor;
  return nullptr;
}

TEST(KernelCallIter, NestedCallsEachGetTheirOwnPlan) {
  HostBackend dev("nesting_dev");
  bp_registration* outer = nullptr;
  bp_registration* inner = nullptr;
  check(api(), api()->kernel_register(dev.get(), "neg.out", &nesting_kernel, nullptr, &outer));
  const Registration o(api(), outer);
  check(api(), api()->kernel_register(dev.get(), "mul.out", &inner_kernel, nullptr, &inner));
  const Registration i(api(), inner);
  const Tensor x = copy_to(filled(BP_DTYPE_FLOAT32, {3}), dev.device());
  Op(api(), "neg").call({arg(x)});
  ASSERT_NE(nested_outer_before, nullptr);
  ASSERT_NE(nested_inner, nullptr);
  EXPECT_NE(nested_inner, nested_outer_before);
  EXPECT_EQ(nested_outer_after, nested_outer_before);
}

}  // namespace
}  // namespace backplane::testing
